import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/log.js";
import { pruneOldChecks } from "../../../src/monitor/retention.js";
import { listChecks, recordCheck } from "../../../src/store/checks.js";
import { type StoreWithCase, storeWithCase } from "../store/store-fixtures.js";

let store: StoreWithCase | undefined;

afterEach(() => store?.close());

function check(s: StoreWithCase, checkedAt: string): void {
  recordCheck(s.db, {
    runId: s.runId,
    caseId: s.caseId,
    checkedAt,
    outcome: "unchanged",
    fingerprint: "fp",
    newMovements: 0,
    errorKind: null,
    error: null,
    datajudFetchedAt: checkedAt,
  });
}

describe("pruneOldChecks", () => {
  it("deletes the checks older than the retention, keeping the case's latest", () => {
    store = storeWithCase("monitor-retention-", "2026-01-01T00:00:00.000Z");
    check(store, "2026-01-01T00:00:00.000Z");
    check(store, "2026-02-20T00:00:00.000Z");
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
});
