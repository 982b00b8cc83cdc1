import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getCase, syncWatchedCases } from "../../../src/store/cases.js";
import { insertChange, listChanges } from "../../../src/store/changes.js";
import { closeDatabase, type Db, immediate, openDatabase } from "../../../src/store/database.js";
import { startRun } from "../../../src/store/runs.js";

let dir: string;
let db: Db;
let caseId: number;
let runId: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "store-changes-"));
  db = openDatabase(join(dir, "monitor.db"));
  immediate(db, () => {
    syncWatchedCases(
      db,
      [{ number: "A", digits: "1", court: "tjdft", label: null, watchers: [] }],
      "2026-01-01T00:00:00.000Z",
    );
    runId = startRun(db, { startedAt: "2026-01-01T00:00:00.000Z", trigger: "schedule" });
  });
  caseId = getCase(db, "1", "tjdft")?.id ?? -1;
});

afterEach(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

describe("changes", () => {
  it("lists a case's changes newest first with their kinds and details", () => {
    const older = insertChange(db, {
      caseId,
      runId,
      detectedAt: "2026-01-02T00:00:00.000Z",
      kinds: ["new_instance"],
      details: { newInstances: ["G2"] },
      newMovements: 0,
    });
    const newer = insertChange(db, {
      caseId,
      runId,
      detectedAt: "2026-01-03T00:00:00.000Z",
      kinds: ["new_movements", "class_changed"],
      details: { newMovementIds: ["m1", "m2"] },
      newMovements: 2,
    });

    const rows = listChanges(db, caseId);

    expect(rows.map((r) => r.id)).toEqual([newer, older]);
    expect(rows[0]).toEqual({
      id: newer,
      caseId,
      runId,
      detectedAt: "2026-01-03T00:00:00.000Z",
      kinds: ["new_movements", "class_changed"],
      details: { newMovementIds: ["m1", "m2"] },
      newMovements: 2,
      summary: null,
    });
  });

  it("includes the change's summary once one is stored", () => {
    const changeId = insertChange(db, {
      caseId,
      runId,
      detectedAt: "2026-01-02T00:00:00.000Z",
      kinds: ["new_movements"],
      details: {},
      newMovements: 1,
    });
    db.prepare(
      `INSERT INTO summaries (change_id, case_id, created_at, generated_by, model, summary)
       VALUES (?, ?, '2026-01-02T00:00:05.000Z', 'claude', 'claude-test', '{"headline":"Sentença"}')`,
    ).run(changeId, caseId);

    const [row] = listChanges(db, caseId);

    expect(row?.summary).toEqual({
      generatedBy: "claude",
      model: "claude-test",
      createdAt: "2026-01-02T00:00:05.000Z",
      content: { headline: "Sentença" },
      disposition: "alert",
    });
  });

  it("refuses a change for a case that does not exist", () => {
    expect(() =>
      insertChange(db, {
        caseId: 999,
        runId,
        detectedAt: "2026-01-02T00:00:00.000Z",
        kinds: [],
        details: {},
        newMovements: 0,
      }),
    ).toThrow(/FOREIGN KEY/);
  });
});
