import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { matchesAny } from "../../../src/policy/movement-rules.js";
import { movementEntry } from "../../../src/tpu/movements.js";
import { loadWatchlist, parseWatchlist } from "../../../src/watchlist/parse-watchlist.js";
import { EXAMPLE_VALUES } from "../../../src/watchlist/watchlist-warnings.js";
import { loadRealHits } from "../../support/real-datajud.js";

const EXAMPLE = fileURLToPath(new URL("../../../watchlist.example.yaml", import.meta.url));

/** Every movement of the real DataJud records, as DataJud sent its code and name. */
function realMovements(): Array<{ code: number; name: string }> {
  const out: Array<{ code: number; name: string }> = [];
  for (const hits of Object.values(loadRealHits())) {
    for (const hit of hits) {
      const list = (hit._source.movimentos ?? []) as Array<Record<string, unknown>>;
      for (const m of list) {
        const nested = (m.movimentoNacional ?? {}) as Record<string, unknown>;
        out.push({ code: Number(m.codigo ?? nested.codigo), name: String(m.nome ?? nested.nome) });
      }
    }
  }
  return out;
}

async function example() {
  const result = await loadWatchlist(EXAMPLE);
  if (!result.ok) throw new Error("the example must be valid");
  return result;
}

describe("watchlist.example.yaml's rules on real movements", () => {
  it("marks the sentences and rulings real records carry as urgent: Procedência, Julgamento, Outras Decisões", async () => {
    const { watchlist } = await example();
    const urgent = watchlist.defaults.urgent;
    const real = realMovements();
    const named = (code: number) => real.find((m) => m.code === code);
    // Julgamento and Decisão are not in the recorded records: the TPU table gives their names.
    const tpu = (code: number) => {
      const entry = movementEntry(code);
      return entry === undefined ? undefined : { code, name: entry.name };
    };

    expect(tpu(193)?.name).toBe("Julgamento");
    for (const movement of [named(219), named(220), named(12164), named(848), tpu(193), tpu(3)]) {
      expect(movement, "a movement the real records carry").toBeDefined();
      if (movement !== undefined) expect(matchesAny(movement, urgent), movement.name).toBe(true);
    }
  });

  it("ignores routine movements that real records carry, and never a sentence", async () => {
    const { watchlist } = await example();
    const ignore = watchlist.defaults.ignore;
    const real = realMovements();

    for (const code of [51, 11010, 11383, 118]) {
      const movement = real.find((m) => m.code === code);
      expect(movement && matchesAny(movement, ignore), String(code)).toBe(true);
    }
    expect(real.filter((m) => m.code === 219).some((m) => matchesAny(m, ignore))).toBe(false);
  });

  it("warns about no rule of its own: every one matches a movement DataJud sends", async () => {
    const { warnings } = await example();

    expect(warnings.filter((w) => /^(ignore|urgent):/.test(w.message))).toEqual([]);
  });

  it("warns about each sample value left in: case numbers, OAB registrations, example.com addresses", async () => {
    const { warnings } = await example();
    const text = warnings.map((w) => `${w.line}:${w.col} ${w.message}`);

    expect(text.filter((t) => t.includes("sample case number"))).toHaveLength(5);
    expect(text.filter((t) => t.includes("123456/SP is the sample registration"))).toHaveLength(1);
    expect(text.filter((t) => t.includes("654321/DF is the sample registration"))).toHaveLength(1);
    // Once per address, however often the file names it.
    expect(text.filter((t) => t.includes("ana@example.com:"))).toHaveLength(1);
  });

  it("knows the example's sample values (EXAMPLE_VALUES stays in step with the file)", async () => {
    const { watchlist } = await example();

    expect(new Set(watchlist.cases.map((c) => c.digits))).toEqual(
      new Set(EXAMPLE_VALUES.caseDigits),
    );
    expect(watchlist.oab.map((o) => o.key).sort()).toEqual([...EXAMPLE_VALUES.oab].sort());
  });
});

describe("watchlist warnings: rules that match no known movement", () => {
  const parse = (rules: string) => {
    const result = parseWatchlist(
      `defaults:\n  notify: [ana@firm.com.br]\n${rules}\ncases: []\n`,
      "w.yaml",
    );
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.warnings;
  };

  it("warns at the rule's position, with the closest names DataJud uses", () => {
    const warnings = parse('  urgent: [219, "audiência designada"]');

    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ file: "w.yaml", line: 3, col: 17 });
    expect(warnings[0]?.message).toContain('urgent: "audiência designada" is in no movement name');
    expect(warnings[0]?.message).toContain('"Audiência" (970)');
  });

  it("warns about a name DataJud does not use and a code it never sends, in ignore too", () => {
    const warnings = parse("  ignore: [juntada, 999999, conclusão]");

    expect(warnings.map((w) => w.message.slice(0, 40))).toEqual([
      'ignore: "juntada" is in no movement name',
      "ignore: code 999999 is none of the 868 m",
    ]);
  });

  it("accepts a name that only a DJEN publication carries (its kind or document type)", () => {
    expect(parse("  urgent: [edital, intimação]")).toEqual([]);
  });

  it("says nothing about a watchlist written with real values", () => {
    expect(parse('  urgent: [procedência]\n  oab: ["98765/RJ"]')).toEqual([]);
  });
});
