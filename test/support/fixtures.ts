import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface FixtureDoc {
  _id: string;
  _source: Record<string, unknown>;
}

export interface RecordedCases {
  numbers: Record<
    | "tjdftDespejo"
    | "tjdftJuizado"
    | "tjspCobranca"
    | "trf1Previdenciario"
    | "trt2Reclamacao"
    | "tjdftNotFound"
    | "stfNumber",
    string
  >;
  indices: Record<string, FixtureDoc[]>;
}

export function loadRecordedCases(): RecordedCases {
  const path = fileURLToPath(new URL("../fixtures/datajud/recorded-cases.json", import.meta.url));
  return JSON.parse(readFileSync(path, "utf8")) as RecordedCases;
}

export function digitsOf(formatted: string): string {
  return formatted.replace(/\D/g, "");
}
