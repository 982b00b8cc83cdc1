import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/log.js";
import { pruneOldChecks } from "../../../src/monitor/retention.js";
import { getCase, syncWatchedCases } from "../../../src/store/cases.js";
import {
  type CheckOutcome,
  checkCountsOfRun,
  listChecks,
  recordCheck,
} from "../../../src/store/checks.js";
import { startRun } from "../../../src/store/runs.js";
import {
  CASE_DIGITS,
  CASE_NUMBER,
  type StoreWithCase,
  storeWithCase,
} from "../store/store-fixtures.js";

let store: StoreWithCase | undefined;

afterEach(() => store?.close());

function check(
  s: StoreWithCase,
  checkedAt: string,
  outcome: CheckOutcome = "unchanged",
  at: { runId?: number; caseId?: number } = {},
): void {
  recordCheck(s.db, {
    runId: at.runId ?? s.runId,
    caseId: at.caseId ?? s.caseId,
    checkedAt,
    outcome,
    fingerprint: "fp",
    newMovements: outcome === "changed" ? 1 : 0,
    errorKind: outcome === "failed" ? "timeout" : null,
    error: outcome === "failed" ? "DataJud did not answer" : null,
    datajudFetchedAt: checkedAt,
  });
}

const day = (d: number): string => `2026-03-${String(d).padStart(2, "0")}T10:00:00.000Z`;
const NOW = Date.parse("2026-03-20T00:00:00.000Z");

describe("pruneOldChecks", () => {
  it("deletes the checks older than the retention, keeping the case's latest", () => {
    store = storeWithCase("monitor-retention-", "2026-01-01T00:00:00.000Z");
    check(store, "2026-01-01T00:00:00.000Z", "changed");
    check(store, "2026-02-20T00:00:00.000Z", "changed");
    check(store, "2026-03-01T00:00:00.000Z");

    const deleted = pruneOldChecks(
      store.db,
      Date.parse("2026-03-02T00:00:00.000Z"),
      30,
      silentLogger(),
    );

    expect(deleted).toBe(1);
    expect(listChecks(store.db, store.caseId, 10).map((c) => c.checkedAt)).toEqual([
      "2026-03-01T00:00:00.000Z",
      "2026-02-20T00:00:00.000Z",
    ]);
  });

  it("folds unchanged checks into per-run counts, keeping each case's latest, latest answered, and every other outcome", () => {
    const s = storeWithCase("monitor-retention-fold-", day(1));
    store = s;
    const other = "0708123-34.2024.8.07.0001";
    syncWatchedCases(
      s.db,
      [CASE_NUMBER, other].map((number) => ({
        number,
        digits: number.replace(/\D/g, ""),
        court: "tjdft",
        label: null,
        watchers: [],
      })),
      day(1),
    );
    const otherId = getCase(s.db, "07081233420248070001", "tjdft")?.id ?? -1;
    expect(getCase(s.db, CASE_DIGITS, "tjdft")?.id).toBe(s.caseId);
    const runs = [s.runId];
    for (let d = 2; d <= 6; d++)
      runs.push(startRun(s.db, { startedAt: day(d), trigger: "schedule" }));
    // Case 1: baseline, unchanged, changed, unchanged, unchanged, then failing.
    const outcomes: CheckOutcome[] = [
      "baseline",
      "unchanged",
      "changed",
      "unchanged",
      "unchanged",
      "failed",
    ];
    outcomes.forEach((outcome, i) => {
      check(s, day(i + 1), outcome, { runId: runs[i] ?? s.runId });
    });
    // Case 2: unchanged at every run.
    runs.forEach((runId, i) => {
      check(s, day(i + 1), "unchanged", { runId, caseId: otherId });
    });
    const counts = runs.map((runId) => checkCountsOfRun(s.db, runId));

    pruneOldChecks(s.db, NOW, 0, silentLogger());
    const again = listChecks(s.db, s.caseId, 10).length;
    pruneOldChecks(s.db, NOW, 0, silentLogger());

    // The latest (failed) and the latest answered (unchanged, day 5) stay, and every other outcome.
    expect(listChecks(s.db, s.caseId, 10).map((c) => [c.checkedAt, c.outcome])).toEqual([
      [day(6), "failed"],
      [day(5), "unchanged"],
      [day(3), "changed"],
      [day(1), "baseline"],
    ]);
    expect(listChecks(s.db, otherId, 10).map((c) => c.checkedAt)).toEqual([day(6)]);
    expect(again).toBe(4);
    // Each run still counts what it checked.
    expect(runs.map((runId) => checkCountsOfRun(s.db, runId))).toEqual(counts);
    expect(counts[1]).toEqual({ unchanged: 2 });
  });

  it("deletes the per-run counts with the checks they stand for", () => {
    const s = storeWithCase("monitor-retention-tallies-", day(1));
    store = s;
    const later = startRun(s.db, { startedAt: day(10), trigger: "schedule" });
    check(s, day(1));
    check(s, day(10), "unchanged", { runId: later });
    check(s, day(11), "unchanged", { runId: later });
    pruneOldChecks(s.db, NOW, 0, silentLogger());
    expect(checkCountsOfRun(s.db, s.runId)).toEqual({ unchanged: 1 });

    pruneOldChecks(s.db, NOW, 15, silentLogger());

    expect(checkCountsOfRun(s.db, s.runId)).toEqual({});
    expect(checkCountsOfRun(s.db, later)).toEqual({ unchanged: 2 });
  });
});
