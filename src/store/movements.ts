import type { Movement } from "../datajud/instance-record.js";
import type { Db } from "./database.js";

export interface MovementRow {
  id: number;
  caseId: number;
  instanceId: number;
  /** The grau of the instance the movement was recorded in. */
  instance: string;
  /** The normalized Movement.id (content hash). */
  movementId: string;
  code: number | null;
  name: string;
  dateTime: string | null;
  data: Movement;
  firstSeenAt: string;
  /** The change that first reported it; null for movements stored by a baseline read. */
  changeId: number | null;
}

interface RawMovement extends Omit<MovementRow, "data"> {
  data: string;
}

export interface InsertMovementsInput {
  caseId: number;
  instanceId: number;
  movements: readonly Movement[];
  at: string;
  changeId: number | null;
}

/** Stores the movements not seen before in this instance and returns exactly those. */
export function insertMovements(db: Db, input: InsertMovementsInput): Movement[] {
  const insert = db.prepare<{
    caseId: number;
    instanceId: number;
    movementId: string;
    code: number | null;
    name: string;
    dateTime: string | null;
    data: string;
    at: string;
    changeId: number | null;
  }>(
    `INSERT OR IGNORE INTO movements (case_id, instance_id, movement_id, code, name, date_time, data,
       first_seen_at, change_id)
     VALUES (@caseId, @instanceId, @movementId, @code, @name, @dateTime, @data, @at, @changeId)`,
  );
  const inserted: Movement[] = [];
  for (const movement of input.movements) {
    const result = insert.run({
      caseId: input.caseId,
      instanceId: input.instanceId,
      movementId: movement.id,
      code: movement.code,
      name: movement.name,
      dateTime: movement.dateTime,
      data: JSON.stringify(movement),
      at: input.at,
      changeId: input.changeId,
    });
    if (result.changes === 1) inserted.push(movement);
  }
  return inserted;
}

/** Newest first; movements without a date come last. */
export function listMovements(
  db: Db,
  caseId: number,
  options: { limit?: number } = {},
): MovementRow[] {
  // -1 is SQLite's "no limit". julianday() orders instants even when offsets differ.
  const limit = options.limit ?? -1;
  return db
    .prepare<[number, number], RawMovement>(
      `SELECT m.id, m.case_id AS caseId, m.instance_id AS instanceId, i.instance,
         m.movement_id AS movementId, m.code, m.name, m.date_time AS dateTime, m.data,
         m.first_seen_at AS firstSeenAt, m.change_id AS changeId
       FROM movements m JOIN instances i ON i.id = m.instance_id
       WHERE m.case_id = ?
       ORDER BY m.date_time IS NULL, julianday(m.date_time) DESC, m.id DESC
       LIMIT ?`,
    )
    .all(caseId, limit)
    .map((raw) => {
      const data: Movement = JSON.parse(raw.data);
      return { ...raw, data };
    });
}

export function knownMovementIds(db: Db, instanceId: number): Set<string> {
  const ids = db
    .prepare<[number], string>("SELECT movement_id FROM movements WHERE instance_id = ?")
    .pluck()
    .all(instanceId);
  return new Set(ids);
}

/** The movements a change first reported, oldest first. */
export function movementsOfChange(db: Db, changeId: number): MovementRow[] {
  return db
    .prepare<[number], RawMovement>(
      `SELECT m.id, m.case_id AS caseId, m.instance_id AS instanceId, i.instance,
         m.movement_id AS movementId, m.code, m.name, m.date_time AS dateTime, m.data,
         m.first_seen_at AS firstSeenAt, m.change_id AS changeId
       FROM movements m JOIN instances i ON i.id = m.instance_id
       WHERE m.change_id = ?
       ORDER BY m.date_time IS NULL, julianday(m.date_time), m.id`,
    )
    .all(changeId)
    .map((raw) => ({ ...raw, data: JSON.parse(raw.data) as Movement }));
}

/** Case id -> the date_time of its newest dated movement, as stored; cases without one are absent. */
export function latestMovementTimes(db: Db): Map<number, string> {
  // julianday(), as in listMovements: text order is wrong when stored offsets differ. A bare
  // column beside max() comes from the row holding the maximum (a documented SQLite rule).
  const rows = db
    .prepare<[], { caseId: number; dateTime: string }>(
      `SELECT case_id AS caseId, date_time AS dateTime, max(julianday(date_time)) AS newest
       FROM movements WHERE date_time IS NOT NULL
       GROUP BY case_id HAVING newest IS NOT NULL`,
    )
    .all();
  return new Map(rows.map((row) => [row.caseId, row.dateTime]));
}
