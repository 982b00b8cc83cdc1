import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeDatabase, type Db, openDatabase } from "../../../src/store/database.js";
import { finishRun, lastRun, markStaleRunsCrashed, startRun } from "../../../src/store/runs.js";

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "store-runs-"));
  db = openDatabase(join(dir, "monitor.db"));
});

afterEach(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

describe("runs", () => {
  it("has no last run in a new database", () => {
    expect(lastRun(db)).toBeUndefined();
  });

  it("records a run from start to finish with its report", () => {
    const id = startRun(db, { startedAt: "2026-03-01T10:00:00.000Z", trigger: "manual" });
    const running = lastRun(db);

    finishRun(db, id, {
      finishedAt: "2026-03-01T10:01:00.000Z",
      report: { checked: 3, cases: [] },
    });

    expect(running).toEqual({
      id,
      startedAt: "2026-03-01T10:00:00.000Z",
      finishedAt: null,
      trigger: "manual",
      status: "running",
      report: null,
    });
    expect(lastRun(db)).toMatchObject({
      status: "finished",
      finishedAt: "2026-03-01T10:01:00.000Z",
      report: { checked: 3, cases: [] },
    });
  });

  it("marks runs left running by a dead process as crashed", () => {
    const dead = startRun(db, { startedAt: "2026-03-01T10:00:00.000Z", trigger: "schedule" });
    const done = startRun(db, { startedAt: "2026-03-01T11:00:00.000Z", trigger: "schedule" });
    finishRun(db, done, { finishedAt: "2026-03-01T11:01:00.000Z", report: {} });
    const current = startRun(db, { startedAt: "2026-03-01T12:00:00.000Z", trigger: "schedule" });

    const marked = markStaleRunsCrashed(db, { exceptRunId: current });
    const statuses = db
      .prepare<[], { id: number; status: string }>("SELECT id, status FROM runs ORDER BY id")
      .all();

    expect(marked).toBe(1);
    expect(statuses).toEqual([
      { id: dead, status: "crashed" },
      { id: done, status: "finished" },
      { id: current, status: "running" },
    ]);
  });
});
