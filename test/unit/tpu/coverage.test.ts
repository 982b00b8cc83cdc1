import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { descendantsOf, isHearingCode, kindOf, movementEntry } from "../../../src/tpu/movements.js";

/*
 * Every movement code the monitor has seen in a real or recorded DataJud answer (the real hits,
 * the fixtures, the demo's recordings, the evals' cases) is one CNJ's table reads: none falls back
 * to a guess from its name.
 */

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const FOLDERS = ["test/fixtures", "src/demo/recordings", "evals/cases"];

function jsonFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return jsonFiles(path);
    return entry.name.endsWith(".json") ? [path] : [];
  });
}

/** DataJud movements ({ codigo, nome, dataHora }) anywhere in a JSON value: code -> a file. */
function movementCodes(value: unknown, file: string, into: Map<number, string>): void {
  if (Array.isArray(value)) {
    for (const v of value) movementCodes(v, file, into);
    return;
  }
  if (value === null || typeof value !== "object") return;
  const record = value as Record<string, unknown>;
  if ("dataHora" in record) {
    const national = record.movimentoNacional as { codigo?: unknown } | undefined;
    const code = Number(record.codigo ?? national?.codigo);
    if (Number.isInteger(code) && !into.has(code)) into.set(code, file);
  }
  for (const v of Object.values(record)) movementCodes(v, file, into);
}

/** An eval of a code CNJ's tables lack (evals/cases/*unknown-code*): its codes are meant to be unknown. */
const UNKNOWN_ON_PURPOSE = /unknown-code/;

const seen = new Map<number, string>();
const unknownOnPurpose = new Map<number, string>();
for (const folder of FOLDERS) {
  for (const file of jsonFiles(join(ROOT, folder))) {
    const into = UNKNOWN_ON_PURPOSE.test(file) ? unknownOnPurpose : seen;
    movementCodes(JSON.parse(readFileSync(file, "utf8")), file.slice(ROOT.length), into);
  }
}
for (const code of seen.keys()) unknownOnPurpose.delete(code);

describe("coverage of CNJ's tables", () => {
  it("finds the movements of the real records, the fixtures, the recordings and the evals", () => {
    expect(seen.size).toBeGreaterThanOrEqual(60);
    expect([...seen.keys()]).toEqual(expect.arrayContaining([60, 970, 12740, 14978, 15162]));
  });

  it("gives every movement code seen a kind from the tables", () => {
    const unread = [...seen].filter(([code]) => kindOf(code) === null);

    expect(unread).toEqual([]);
    expect([...seen.keys()].filter((code) => movementEntry(code) === undefined)).toEqual([]);
  });

  it("has no kind for the code an eval uses because CNJ's tables lack it", () => {
    expect([...unknownOnPurpose.keys()]).toEqual([99123]);
    expect(kindOf(99123)).toBeNull();
  });

  it("makes every descendant of Audiência in the TPU a hearing", () => {
    const children = descendantsOf(970);

    expect(children.length).toBeGreaterThanOrEqual(24);
    expect(children.filter((code) => !isHearingCode(code))).toEqual([]);
  });
});
