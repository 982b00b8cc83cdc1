import { describe, expect, it } from "vitest";
import {
  batchesOf,
  catchUpWindow,
  djenWindow,
  MAX_CATCH_UP_DAYS,
} from "../../../../src/monitor/publications/watch-publications.js";

const WINDOW = { from: "2025-10-05", to: "2025-10-06" };

describe("djenWindow", () => {
  it("ends on today's São Paulo date, even when UTC is already tomorrow", () => {
    // 23:30 in São Paulo on 6 October is 02:30 UTC on the 7th.
    expect(djenWindow(Date.UTC(2025, 9, 7, 2, 30), 2)).toEqual(WINDOW);
  });
});

describe("catchUpWindow", () => {
  it("keeps the configured window for sources checked within it or never checked", () => {
    expect(catchUpWindow(WINDOW, [null, Date.UTC(2025, 9, 5, 15)])).toEqual(WINDOW);
  });

  it("starts on the São Paulo day of the oldest last complete check", () => {
    // 01:00 UTC on 2 October is still 1 October in São Paulo.
    expect(catchUpWindow(WINDOW, [Date.UTC(2025, 9, 4, 15), Date.UTC(2025, 9, 2, 1)])).toEqual({
      from: "2025-10-01",
      to: "2025-10-06",
    });
  });

  it(`reaches back at most ${MAX_CATCH_UP_DAYS} days, today included`, () => {
    expect(catchUpWindow(WINDOW, [Date.UTC(2024, 0, 1, 12)])).toEqual({
      from: "2025-09-06",
      to: "2025-10-06",
    });
  });

  it("ignores an unreadable instant rather than widening the window", () => {
    expect(catchUpWindow(WINDOW, [Number.NaN])).toEqual(WINDOW);
  });
});

describe("batchesOf", () => {
  const cases = (...digits: string[]) =>
    digits.map((d) => ({ digits: d }) as Parameters<typeof batchesOf>[0][number]);
  const oab = (...keys: string[]) =>
    keys.map((key) => ({ key }) as Parameters<typeof batchesOf>[1][number]);

  it("asks sources never answered first, then the longest unanswered, equals in watchlist order", () => {
    const answered = new Map([
      ["case:c1", 3_000],
      ["case:c2", 1_000],
      ["case:c4", 2_000],
      ["oab:2/RJ", 500],
    ]);

    const batches = batchesOf(
      cases("c1", "c2", "c3", "c4", "c5"),
      oab("1/SP", "2/RJ"),
      (kind, key) => answered.get(`${kind}:${key}`) ?? null,
    );

    expect(batches).toEqual([
      { cnjNumbers: ["c3", "c5"], oab: [] },
      { cnjNumbers: [], oab: ["1/SP"] },
      { cnjNumbers: [], oab: ["2/RJ"] },
      { cnjNumbers: ["c2", "c4", "c1"], oab: [] },
    ]);
  });

  it("asks each case number once, ten to a call", () => {
    const numbers = Array.from({ length: 23 }, (_, i) => `n${String(i).padStart(2, "0")}`);

    const batches = batchesOf(cases(...numbers, "n00"), [], () => null);

    expect(batches.map((b) => b.cnjNumbers.length)).toEqual([10, 10, 3]);
    expect(batches.flatMap((b) => b.cnjNumbers)).toEqual(numbers);
  });
});
