import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { InstanceRecord, Movement } from "../../../src/datajud/instance-record.js";
import { getCase, syncWatchedCases } from "../../../src/store/cases.js";
import { closeDatabase, type Db, immediate, openDatabase } from "../../../src/store/database.js";
import { startRun } from "../../../src/store/runs.js";
import { testMovement } from "../../support/movement.js";

export const CASE_NUMBER = "0713383-43.2025.8.07.0006";
export const CASE_DIGITS = "07133834320258070006";

export function movement(id: string, dateTime: string | null, name = `movement ${id}`): Movement {
  return testMovement({ id, code: 123, name, dateTime });
}

export function caseRecord(patch: Partial<InstanceRecord> = {}): InstanceRecord {
  const movements = patch.movements ?? [movement("m1", "2026-02-01T12:00:00-03:00")];
  return {
    id: `TJDFT_G1_${CASE_DIGITS}`,
    cnjNumber: CASE_NUMBER,
    instance: "G1",
    court: "tjdft",
    courtAcronym: "TJDFT",
    class: { code: 1116, name: "Execução Fiscal" },
    subjects: [],
    courtUnit: null,
    system: null,
    format: null,
    secrecyLevel: 0,
    filedAt: "2025-01-10",
    filedAtRaw: "20250110",
    lastUpdatedAt: "2026-02-01T12:00:00",
    lastUpdatedAtRaw: "2026-02-01T12:00:00.000Z",
    indexedAt: "2026-02-02T03:00:00",
    indexedAtRaw: "2026-02-02T03:00:00.000Z",
    movementCount: movements.length,
    latestMovement: movements.at(-1) ?? null,
    movements,
    ...patch,
  };
}

export interface StoreWithCase {
  db: Db;
  caseId: number;
  runId: number;
  close(): void;
}

/** A fresh database in a temp dir holding one watched case and one started run. */
export function storeWithCase(prefix: string, at: string): StoreWithCase {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const db = openDatabase(join(dir, "monitor.db"));
  let runId = -1;
  immediate(db, () => {
    syncWatchedCases(
      db,
      [{ number: CASE_NUMBER, digits: CASE_DIGITS, court: "tjdft", label: null, watchers: [] }],
      at,
    );
    runId = startRun(db, { startedAt: at, trigger: "manual" });
  });
  const caseId = getCase(db, CASE_DIGITS, "tjdft")?.id ?? -1;
  return {
    db,
    caseId,
    runId,
    close: () => {
      closeDatabase(db);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
