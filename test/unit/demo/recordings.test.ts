import { describe, expect, it } from "vitest";
import { baselineState, laterState, SAMPLE_WATCHLIST } from "../../../src/demo/recordings.js";
import { parseWatchlist } from "../../../src/watchlist/parse-watchlist.js";

function numbersIn(state: ReturnType<typeof baselineState>): Set<string> {
  return new Set(
    Object.entries(state.indices).flatMap(([alias, docs]) =>
      docs.map((d) => `${String(d._source.numeroProcesso)}@${alias}`),
    ),
  );
}

describe("the demo's bundled data", () => {
  it("has a valid sample watchlist of six cases in four courts", () => {
    const result = parseWatchlist(SAMPLE_WATCHLIST, "demo/watchlist.yaml");

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const cases = result.watchlist.cases;
    expect(cases).toHaveLength(6);
    expect(new Set(cases.map((c) => c.court))).toEqual(new Set(["tjdft", "tjsp", "stj", "trt2"]));
    expect(cases.every((c) => c.notify.length > 0)).toBe(true);
  });

  it("records every watched case in both states", () => {
    const parsed = parseWatchlist(SAMPLE_WATCHLIST, "demo/watchlist.yaml");
    const watched = parsed.ok ? parsed.watchlist.cases.map((c) => `${c.digits}@${c.court}`) : [];

    expect([...numbersIn(baselineState())].sort()).toEqual([...watched].sort());
    expect([...numbersIn(laterState())].sort()).toEqual([...watched].sort());
  });

  it("moves three cases between the states, each by new movements", () => {
    const before = baselineState();
    const after = laterState();

    const moved = Object.entries(after.indices).flatMap(([alias, docs]) =>
      docs
        .filter((doc) => {
          const old = before.indices[alias]?.find((d) => d._id === doc._id);
          const count = (d: typeof doc | undefined): number =>
            Array.isArray(d?._source.movimentos) ? d._source.movimentos.length : 0;
          return count(doc) > count(old);
        })
        .map(() => alias),
    );

    expect(moved.sort()).toEqual(["stj", "tjdft", "tjsp"]);
  });
});
