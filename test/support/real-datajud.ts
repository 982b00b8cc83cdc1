import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { formatCnjNumber } from "../../src/datajud/cnj-number.js";
import type { FixtureDoc } from "./fixtures.js";

/** The hits recorded from DataJud's live API (test/fixtures/real-datajud/README.md). */
export type RealHits = Record<string, FixtureDoc[]>;

export function loadRealHits(): RealHits {
  const path = fileURLToPath(new URL("../fixtures/real-datajud/hits.json", import.meta.url));
  return JSON.parse(readFileSync(path, "utf8")) as RealHits;
}

/** A deep copy of one real hit, to change in a test without touching the others. */
export function realHit(hits: RealHits, alias: string, digits: string, grau: string): FixtureDoc {
  const hit = hits[alias]?.find(
    (h) => h._source.numeroProcesso === digits && h._source.grau === grau,
  );
  if (hit === undefined) throw new Error(`no real hit ${alias}/${digits}/${grau}`);
  return structuredClone(hit);
}

export const REAL = {
  tjdftLong: "00125906120158070018",
  tjrrRepeats: "08006242620208230090",
  tjtoMojibake: "00034953520178272716",
  tjspCompact: "00104905620258260309",
} as const;

export function formatted(digits: string): string {
  return formatCnjNumber(digits);
}
