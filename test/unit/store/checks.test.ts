import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getCase, syncWatchedCases } from "../../../src/store/cases.js";
import {
  type CheckOutcome,
  deleteChecksBefore,
  listChecks,
  recordCheck,
} from "../../../src/store/checks.js";
import { closeDatabase, type Db, immediate, openDatabase } from "../../../src/store/database.js";
import { startRun } from "../../../src/store/runs.js";

let dir: string;
let db: Db;
let runId: number;
let a: number;
let b: number;

function check(caseId: number, checkedAt: string, outcome: CheckOutcome = "unchanged"): number {
  return recordCheck(db, {
    runId,
    caseId,
    checkedAt,
    outcome,
    fingerprint: outcome === "failed" ? null : "fp",
    newMovements: 0,
    errorKind: outcome === "failed" ? "timeout" : null,
    error: outcome === "failed" ? "DataJud did not answer in time" : null,
    datajudFetchedAt: outcome === "failed" ? null : checkedAt,
  });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "store-checks-"));
  db = openDatabase(join(dir, "monitor.db"));
  immediate(db, () => {
    syncWatchedCases(
      db,
      [
        { number: "A", digits: "1", court: "tjdft", label: null, watchers: [] },
        { number: "B", digits: "2", court: "tjdft", label: null, watchers: [] },
      ],
      "2026-01-01T00:00:00.000Z",
    );
    runId = startRun(db, { startedAt: "2026-01-01T00:00:00.000Z", trigger: "schedule" });
  });
  a = getCase(db, "1", "tjdft")?.id ?? -1;
  b = getCase(db, "2", "tjdft")?.id ?? -1;
});

afterEach(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

describe("recordCheck / listChecks", () => {
  it("stores every field and lists newest first up to the limit", () => {
    check(a, "2026-01-01T00:00:00.000Z");
    const failedId = check(a, "2026-01-03T00:00:00.000Z", "failed");
    check(a, "2026-01-02T00:00:00.000Z");

    const rows = listChecks(db, a, 2);

    expect(rows.map((r) => r.checkedAt)).toEqual([
      "2026-01-03T00:00:00.000Z",
      "2026-01-02T00:00:00.000Z",
    ]);
    expect(rows[0]).toEqual({
      id: failedId,
      runId,
      caseId: a,
      checkedAt: "2026-01-03T00:00:00.000Z",
      outcome: "failed",
      fingerprint: null,
      newMovements: 0,
      errorKind: "timeout",
      error: "DataJud did not answer in time",
      datajudFetchedAt: null,
    });
  });

  it("rejects an unknown outcome", () => {
    const insert = db.prepare(
      "INSERT INTO checks (run_id, case_id, checked_at, outcome) VALUES (?, ?, '2026-01-01', 'maybe')",
    );

    expect(() => insert.run(runId, a)).toThrow(/CHECK/);
  });
});

describe("deleteChecksBefore", () => {
  it("deletes old checks but keeps each case's latest one", () => {
    check(a, "2026-01-01T00:00:00.000Z");
    check(a, "2026-01-02T00:00:00.000Z");
    check(a, "2026-02-10T00:00:00.000Z");
    check(b, "2026-01-01T00:00:00.000Z");
    check(b, "2026-01-05T00:00:00.000Z");

    const deleted = deleteChecksBefore(db, "2026-02-01T00:00:00.000Z");

    expect(deleted).toBe(3);
    expect(listChecks(db, a, 10).map((r) => r.checkedAt)).toEqual(["2026-02-10T00:00:00.000Z"]);
    expect(listChecks(db, b, 10).map((r) => r.checkedAt)).toEqual(["2026-01-05T00:00:00.000Z"]);
  });

  it("deletes nothing when every check is recent", () => {
    check(a, "2026-03-01T00:00:00.000Z");

    expect(deleteChecksBefore(db, "2026-02-01T00:00:00.000Z")).toBe(0);
  });
});
