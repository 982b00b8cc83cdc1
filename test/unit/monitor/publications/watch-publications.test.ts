import { describe, expect, it } from "vitest";
import {
  batchesOf,
  catchUpWindow,
  djenWindow,
  MAX_CATCH_UP_DAYS,
  sourcesOf,
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
  const cases = (...keys: string[]) => keys.map((key) => ({ kind: "case" as const, key }));
  const oab = (...keys: string[]) => keys.map((key) => ({ kind: "oab" as const, key }));

  it("keeps the order it is given: consecutive case numbers share a call, a registration has its own", () => {
    const batches = batchesOf([...cases("c3", "c5"), ...oab("1/SP", "2/RJ"), ...cases("c2", "c4")]);

    expect(batches).toEqual([
      { cnjNumbers: ["c3", "c5"], oab: [] },
      { cnjNumbers: [], oab: ["1/SP"] },
      { cnjNumbers: [], oab: ["2/RJ"] },
      { cnjNumbers: ["c2", "c4"], oab: [] },
    ]);
  });

  it("puts ten case numbers in a call at most", () => {
    const numbers = Array.from({ length: 23 }, (_, i) => `n${String(i).padStart(2, "0")}`);

    const batches = batchesOf(cases(...numbers));

    expect(batches.map((b) => b.cnjNumbers.length)).toEqual([10, 10, 3]);
    expect(batches.flatMap((b) => b.cnjNumbers)).toEqual(numbers);
  });

  it("asks the first source alone, and spreads a few more over as many calls as may run at once, in their order", () => {
    const numbers = ["n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8"];

    const batches = batchesOf(cases(...numbers), 4);

    expect(batches.map((b) => b.cnjNumbers)).toEqual([
      ["n0"],
      ["n1", "n2"],
      ["n3", "n4"],
      ["n5", "n6"],
      ["n7", "n8"],
    ]);
  });

  it("still puts ten case numbers in a call when there are many", () => {
    const numbers = Array.from({ length: 95 }, (_, i) => `n${i}`);

    expect(batchesOf(cases(...numbers), 4).map((b) => b.cnjNumbers.length)).toEqual([
      1, 10, 10, 10, 10, 10, 10, 10, 10, 10, 4,
    ]);
  });
});

describe("sourcesOf", () => {
  it("names each case number and registration once, case numbers first", () => {
    const sources = sourcesOf(
      [{ digits: "c1" }, { digits: "c2" }, { digits: "c1" }] as never,
      [{ key: "1/SP" }, { key: "1/SP" }] as never,
    );

    expect(sources).toEqual([
      { kind: "case", key: "c1" },
      { kind: "case", key: "c2" },
      { kind: "oab", key: "1/SP" },
    ]);
  });
});
