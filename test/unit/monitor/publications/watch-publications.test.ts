import { describe, expect, it } from "vitest";
import { GEO_BLOCKED_MESSAGE } from "../../../../src/djen/errors.js";
import { type Publication, toPublication } from "../../../../src/djen/publication.js";
import { RawItem } from "../../../../src/djen/raw-schemas.js";
import type { SourceOutcome } from "../../../../src/monitor/publications/record-publications.js";
import {
  batchesOf,
  batchWindow,
  catchUpWindow,
  djenWindow,
  MAX_CATCH_UP_DAYS,
  publicationsReport,
  sourcesOf,
  stopAfter,
} from "../../../../src/monitor/publications/watch-publications.js";
import { djenItem } from "../../../fakes/fake-djen.js";

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

describe("batchWindow", () => {
  it("starts a call's window at the oldest last complete answer among its own sources", () => {
    const lastOk = new Map<string, number | null>([
      ["case:c1", Date.UTC(2025, 9, 3, 15)],
      ["case:c2", Date.UTC(2025, 9, 1, 15)],
      ["oab:1/SP", Date.UTC(2025, 8, 20, 15)],
      ["party:ACME", null],
    ]);

    expect(batchWindow(WINDOW, { cnjNumbers: ["c1", "c2"], oab: [] }, lastOk)).toEqual({
      from: "2025-10-01",
      to: "2025-10-06",
    });
    expect(batchWindow(WINDOW, { cnjNumbers: [], oab: ["1/SP"] }, lastOk).from).toBe("2025-09-20");
    // Never answered, or not in the plan: the configured window.
    expect(batchWindow(WINDOW, { cnjNumbers: ["c9"], oab: [], parties: ["ACME"] }, lastOk)).toEqual(
      WINDOW,
    );
  });
});

describe("stopAfter", () => {
  it("stops the phase for good when DJEN refuses this server's address", () => {
    expect(stopAfter({ kind: "geo_blocked", message: GEO_BLOCKED_MESSAGE })).toEqual({
      stop: { kind: "geo_blocked", message: GEO_BLOCKED_MESSAGE, retryable: false },
      reason: GEO_BLOCKED_MESSAGE,
    });
  });

  it("stops it for now when DJEN cannot be reached, telling the sources not asked why", () => {
    const reason = "could not reach DJEN (http://127.0.0.1:9): ECONNREFUSED";

    expect(stopAfter({ kind: "network", message: reason })).toEqual({
      stop: {
        kind: "network",
        message: `not asked: DJEN could not be reached (${reason})`,
        retryable: true,
      },
      reason,
    });
  });

  it("lets a source's own failure (an answer, a 5xx or a 429) stop nothing", () => {
    expect(stopAfter({ kind: "upstream", message: "DJEN answered HTTP 500" })).toBeNull();
    expect(stopAfter({ kind: "network", message: "socket hang up" })).toBeNull();
  });
});

describe("publicationsReport", () => {
  function publication(id: number, caseNumber: string): Publication {
    const raw = djenItem({ id, caseNumber });
    const result = toPublication(RawItem.parse(raw), raw, { baseUrl: "https://djen.example" });
    if (!result.ok) throw new Error(result.problem);
    return result.value;
  }
  const WATCHED = "07133834320258070006";
  const OTHER = "00012345620258260100";
  const outcome = (patch: Partial<SourceOutcome> & { key: string }): SourceOutcome => ({
    kind: "oab",
    ok: true,
    baseline: false,
    stored: [],
    cancelled: [],
    error: null,
    ...patch,
  });

  it("counts each publication once, however many sources brought it, and lists each failure", () => {
    const mine = publication(1, WATCHED);
    const outside = publication(2, OTHER);
    const asked = {
      outcomes: [
        outcome({ key: "1/SP", stored: [mine, outside], cancelled: [mine] }),
        outcome({ key: "2/SP", stored: [outside], cancelled: [mine] }),
        outcome({
          kind: "case",
          key: WATCHED,
          ok: false,
          error: { kind: "upstream", message: "HTTP 500" },
        }),
      ],
      deferred: 3,
      interrupted: false,
      stopped: null,
    };
    const later = {
      kind: "oab" as const,
      key: "9/SP",
      lastOkMs: 0,
      failedAtMs: null,
      dueAtMs: Date.UTC(2025, 9, 6, 18),
    };

    expect(publicationsReport(asked, { due: [], later: [later] }, new Set([WATCHED]), 7)).toEqual({
      checked: 3,
      failed: 1,
      newPublications: 2,
      outsideWatchlist: 1,
      cancelled: 1,
      djenRequests: 7,
      deferred: 3,
      notDue: 1,
      nextDueAt: "2025-10-06T18:00:00.000Z",
      unreachable: null,
      failures: [{ source: "case 0713383-43.2025.8.07.0006", kind: "upstream", error: "HTTP 500" }],
    });
  });

  it("is all zeros when nothing was asked", () => {
    const nothing = { outcomes: [], deferred: 0, interrupted: false, stopped: null };

    expect(publicationsReport(nothing, { due: [], later: [] }, new Set(), 0)).toEqual({
      checked: 0,
      failed: 0,
      newPublications: 0,
      outsideWatchlist: 0,
      cancelled: 0,
      djenRequests: 0,
      deferred: 0,
      notDue: 0,
      nextDueAt: null,
      unreachable: null,
      failures: [],
    });
  });
});
