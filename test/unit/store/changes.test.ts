import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getCase, syncWatchedCases } from "../../../src/store/cases.js";
import {
  casesChangedSince,
  changesSince,
  countChanges,
  insertChange,
  listChanges,
} from "../../../src/store/changes.js";
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

  it("pages a case's changes and counts them", () => {
    const ids = ["2026-01-02", "2026-01-03", "2026-01-04"].map((day) =>
      insertChange(db, {
        caseId,
        runId,
        detectedAt: `${day}T00:00:00.000Z`,
        kinds: ["new_movements"],
        details: {},
        newMovements: 1,
      }),
    );

    const page = listChanges(db, caseId, { offset: 1, limit: 1 });

    expect(page.map((r) => r.id)).toEqual([ids[1]]);
    expect(countChanges(db, caseId)).toBe(3);
    expect(changesSince(db, [caseId], "2026-01-03T00:00:00.000Z").map((r) => r.id)).toEqual([
      ids[2],
      ids[1],
    ]);
  });

  it("lists the watched cases changed since a point, most recent first, one page of them", () => {
    immediate(db, () =>
      syncWatchedCases(
        db,
        [
          { number: "A", digits: "1", court: "tjdft", label: null, watchers: [] },
          { number: "B", digits: "2", court: "tjsp", label: null, watchers: [] },
          { number: "C", digits: "3", court: "tjsp", label: null, watchers: [] },
        ],
        "2026-01-01T00:00:00.000Z",
      ),
    );
    const idOf = (digits: string): number =>
      getCase(db, digits, digits === "1" ? "tjdft" : "tjsp")?.id ?? -1;
    const at = (id: number, day: string): void => {
      insertChange(db, {
        caseId: id,
        runId,
        detectedAt: `${day}T00:00:00.000Z`,
        kinds: ["new_movements"],
        details: {},
        newMovements: 1,
      });
    };
    at(idOf("1"), "2026-01-05");
    at(idOf("2"), "2026-01-06");
    at(idOf("2"), "2026-01-02");
    at(idOf("3"), "2026-01-01");
    // C leaves the watchlist: its history stays, but it is no longer "my cases".
    immediate(db, () =>
      syncWatchedCases(
        db,
        [
          { number: "A", digits: "1", court: "tjdft", label: null, watchers: [] },
          { number: "B", digits: "2", court: "tjsp", label: null, watchers: [] },
        ],
        "2026-01-07T00:00:00.000Z",
      ),
    );

    const all = casesChangedSince(db, "2026-01-01T00:00:00.000Z", { offset: 0, limit: 10 });
    const tjsp = casesChangedSince(db, "2026-01-01T00:00:00.000Z", {
      court: "tjsp",
      offset: 0,
      limit: 10,
    });
    const second = casesChangedSince(db, "2026-01-01T00:00:00.000Z", { offset: 1, limit: 1 });

    expect(all.total).toBe(2);
    expect(all.cases).toEqual([
      { caseId: idOf("2"), changes: 2, lastDetectedAt: "2026-01-06T00:00:00.000Z" },
      { caseId: idOf("1"), changes: 1, lastDetectedAt: "2026-01-05T00:00:00.000Z" },
    ]);
    expect(tjsp.cases.map((c) => c.caseId)).toEqual([idOf("2")]);
    expect(second).toEqual({ total: 2, cases: [all.cases[1]] });
  });
});
