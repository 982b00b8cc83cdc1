import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeDatabase, type Db, openDatabase } from "../../../src/store/database.js";
import {
  failedStreakBefore,
  finishRun,
  markStaleRunsCrashed,
  startRun,
  sweepVerdictsBefore,
} from "../../../src/store/runs.js";

let dir: string;
let db: Db;
let hour: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "store-streak-"));
  db = openDatabase(join(dir, "monitor.db"));
  hour = 0;
});

afterEach(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

function at(h: number): string {
  return new Date(Date.UTC(2026, 2, 1, h)).toISOString();
}

/** A finished run an hour after the previous one. */
function run(report: { checked: number; failed: number; interrupted?: boolean }): number {
  hour++;
  const id = startRun(db, { startedAt: at(hour), trigger: "schedule" });
  finishRun(db, id, {
    finishedAt: at(hour),
    report: { interrupted: false, ...report, cases: [] },
  });
  return id;
}

const FAILED = { checked: 2, failed: 2 };
const HEALTHY = { checked: 2, failed: 1 };

describe("sweep verdicts", () => {
  it("lists counted sweeps newest first, skipping interrupted, crashed and empty runs", () => {
    const healthy = run(HEALTHY);
    const failed = run(FAILED);
    run({ ...HEALTHY, interrupted: true });
    run({ checked: 0, failed: 0 });
    startRun(db, { startedAt: at(++hour), trigger: "schedule" });
    markStaleRunsCrashed(db);
    const current = startRun(db, { startedAt: at(++hour), trigger: "schedule" });

    const verdicts = sweepVerdictsBefore(db, current, 5);

    expect(verdicts).toEqual([
      { runId: failed, startedAt: at(2), failed: true },
      { runId: healthy, startedAt: at(1), failed: false },
    ]);
    expect(sweepVerdictsBefore(db, current, 1)).toHaveLength(1);
    expect(sweepVerdictsBefore(db, current, 0)).toEqual([]);
  });

  it("measures the whole failed streak before a run, back to the last sweep that worked", () => {
    run(FAILED);
    run(HEALTHY);
    run(FAILED);
    run({ ...HEALTHY, interrupted: true });
    run(FAILED);
    const afterFailures = startRun(db, { startedAt: at(++hour), trigger: "schedule" });
    run(HEALTHY);
    const afterHealthy = startRun(db, { startedAt: at(++hour), trigger: "schedule" });

    expect(failedStreakBefore(db, afterFailures)).toEqual({ failedSweeps: 2, since: at(3) });
    expect(failedStreakBefore(db, afterHealthy)).toEqual({ failedSweeps: 0, since: null });
    expect(failedStreakBefore(db, 1)).toEqual({ failedSweeps: 0, since: null });
  });
});
