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

/**
 * A real DataJud record with 590 + 72 movements (see test/fixtures/datajud/README.md), as the
 * documents of the tjdft index.
 */
export function loadRealLongRecord(): FixtureDoc[] {
  const path = fileURLToPath(
    new URL("../fixtures/datajud/real-tjdft-long-record.json", import.meta.url),
  );
  const parsed = JSON.parse(readFileSync(path, "utf8")) as { tjdft: FixtureDoc[] };
  return parsed.tjdft;
}

export function digitsOf(formatted: string): string {
  return formatted.replace(/\D/g, "");
}

/** One file of test/fixtures/datajud/real/ (see its README), as `{ alias: hits }`. */
export function loadRealHits(file: string): Record<string, FixtureDoc[]> {
  const path = fileURLToPath(new URL(`../fixtures/datajud/real/${file}`, import.meta.url));
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, FixtureDoc[]>;
}
