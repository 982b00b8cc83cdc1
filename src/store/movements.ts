import type { Movement } from "../datajud/instance-record.js";
import { movementHint } from "../datajud/tpu-hints.js";
import { type Db, statement } from "./database.js";

/**
 * A movement as stored: without its glossary hint (131 bytes a copy), which is the TPU's reading
 * of its code and is derived again when it is read (readStoredMovement).
 */
export function storedMovementJson(movement: Movement): string {
  const { hint: _derived, ...stored } = movement;
  return JSON.stringify(stored);
}

/**
 * A stored movement with its glossary hint derived from its code, where normalize.ts puts it; a
 * row written before migration 012 still holds one, replaced by today's reading of the code.
 */
export function readStoredMovement(json: string): Movement {
  // Written by this module from validated Movements (or by schema 2, a subset of the shape).
  const stored = JSON.parse(json) as Omit<Movement, "hint">;
  return { ...stored, hint: movementHint(stored.code ?? null) };
}

export interface MovementRow {
  id: number;
  caseId: number;
  instanceId: number;
  /** The grau of the instance the movement was recorded in. */
  instance: string;
  /** `identity:occurrence` (Movement.id); a schema-2 hash for a row not re-keyed since the upgrade. */
  movementId: string;
  /** Which copy of its identity this row is (1 unless DataJud lists the movement more than once). */
  occurrence: number;
  code: number | null;
  name: string;
  dateTime: string | null;
  data: Movement;
  firstSeenAt: string;
  /** The change that first reported it; null for movements stored by a baseline read. */
  changeId: number | null;
  /** When DataJud stopped listing this copy; null while it does. */
  disappearedAt: string | null;
  /** How many forms it has had (movement_versions); 0: never corrected, `data` is its only form. */
  versions: number;
}

interface RawMovement extends Omit<MovementRow, "data"> {
  data: string;
}

const VERSIONS = "(SELECT COUNT(*) FROM movement_versions v WHERE v.movement_row_id = m.id)";

const ROW_COLUMNS = `m.id, m.case_id AS caseId, m.instance_id AS instanceId, i.instance,
  m.movement_id AS movementId, m.occurrence, m.code, m.name, m.date_time AS dateTime, m.data,
  m.first_seen_at AS firstSeenAt, m.change_id AS changeId, m.disappeared_at AS disappearedAt,
  ${VERSIONS} AS versions`;

/** The same columns with the form first seen (version 1) where the movement was corrected since. */
const FIRST_FORM_COLUMNS = `m.id, m.case_id AS caseId, m.instance_id AS instanceId, i.instance,
  m.movement_id AS movementId, m.occurrence, m.code,
  coalesce(json_extract(f.data, '$.name'), m.name) AS name,
  CASE WHEN f.id IS NULL THEN m.date_time ELSE f.date_time END AS dateTime,
  coalesce(f.data, m.data) AS data,
  m.first_seen_at AS firstSeenAt, m.change_id AS changeId, m.disappeared_at AS disappearedAt,
  ${VERSIONS} AS versions`;

function toRow(raw: RawMovement): MovementRow {
  return { ...raw, data: readStoredMovement(raw.data) };
}

/** A stored movement of one instance, as the sweep matches a fresh answer against it. */
export interface StoredMovement {
  rowId: number;
  /** The stored id: `identity:occurrence`, or for a row written before the upgrade its schema-2 hash. */
  movementId: string;
  /** Null for a row written before the upgrade and not yet recognised in a fresh answer. */
  identity: string | null;
  occurrence: number;
  code: number | null;
  /** Wall clock; rows written before the upgrade hold the schema-2 form (`...Z`). */
  dateTime: string | null;
  /** DataJud stopped listing it. */
  disappeared: boolean;
  firstSeenAt: string;
  data: Movement;
}

/** Every stored movement of an instance, disappeared copies included. */
export function listStoredMovements(db: Db, instanceId: number): StoredMovement[] {
  return statement<
    [number],
    Omit<StoredMovement, "data" | "disappeared"> & { data: string; disappeared: number }
  >(
    db,
    `SELECT id AS rowId, movement_id AS movementId, identity, occurrence, code,
       date_time AS dateTime, disappeared_at IS NOT NULL AS disappeared,
       first_seen_at AS firstSeenAt, data
     FROM movements WHERE instance_id = ? ORDER BY id`,
  )
    .all(instanceId)
    .map((raw) => ({
      ...raw,
      disappeared: raw.disappeared === 1,
      data: readStoredMovement(raw.data),
    }));
}

export interface RowUpdate {
  rowId: number;
  /** The fresh movement, with the id it is stored under. */
  movement: Movement;
}

/** A stored movement DataJud now serves in another form: both forms are kept (movement_versions). */
export interface CorrectedRow extends RowUpdate {
  /** The form stored until now. */
  before: Movement;
  /**
   * The correction is news (monitor/detect/diff.ts decides): its version belongs to the change
   * that reports it. False: recorded quietly (a complement added, a name reworded).
   */
  reported?: boolean;
}

/**
 * What one fresh answer means for an instance's stored movements (monitor/movement-match.ts
 * decides it). Every fresh movement is in exactly one of kept, reappeared, rekeyed, filled,
 * amended, redated or added.
 */
export interface MovementPlan {
  /** The fresh list in DataJud's order, each with the id it is stored under. */
  movements: Movement[];
  /** Matched a stored copy; its stored form is refreshed. */
  kept: RowUpdate[];
  /** Matched a copy DataJud had stopped listing: back, and not news. */
  reappeared: RowUpdate[];
  /** Rows written before the upgrade, recognised by their schema-2 id: re-keyed silently. */
  rekeyed: RowUpdate[];
  /**
   * Copies schema 2 collapsed into one row (it kept one per content): stored silently, as old
   * news, first seen when the row they were collapsed into was.
   */
  filled: Array<{ movement: Movement; firstSeenAt: string }>;
  /** Same code and time as a stored movement whose name or complements changed. */
  amended: CorrectedRow[];
  /** Same code, name and complements as a stored movement DataJud now lists at another time. */
  redated: CorrectedRow[];
  /** New movements, repeated copies of known ones included: these are alerted. */
  added: Movement[];
  /** Stored copies DataJud no longer lists: recorded, never alerted. */
  disappeared: Array<{ rowId: number; movement: Movement }>;
}

export interface ApplyMovementPlanInput {
  caseId: number;
  instanceId: number;
  plan: MovementPlan;
  at: string;
  /** The change the added movements belong to; null for a baseline read. */
  changeId: number | null;
}

type MovementEventKind = "amended" | "disappeared" | "reappeared";

/** The columns a movement's current form fills. */
interface MovementColumns {
  movementId: string;
  identity: string;
  occurrence: number;
  code: number | null;
  name: string;
  dateTime: string | null;
  data: string;
}

/** A plan that changes nothing, to build on. */
export function emptyMovementPlan(): MovementPlan {
  return {
    movements: [],
    kept: [],
    reappeared: [],
    rekeyed: [],
    filled: [],
    amended: [],
    redated: [],
    added: [],
    disappeared: [],
  };
}

/** Stores what a fresh answer means for an instance: call it in the read's transaction. */
export function applyMovementPlan(db: Db, input: ApplyMovementPlanInput): void {
  const { plan, at, caseId } = input;
  for (const { rowId, movement } of [...plan.kept, ...plan.rekeyed]) {
    updateMovement(db, rowId, movement);
  }
  for (const { rowId, movement } of plan.reappeared) {
    updateMovement(db, rowId, movement);
    noteMovementEvent(db, { rowId, caseId, at, kind: "reappeared" });
  }
  for (const kind of ["amended", "redated"] as const) {
    for (const row of plan[kind]) correctMovement(db, input, kind, row);
  }
  for (const { rowId } of plan.disappeared) {
    statement<[string, number]>(db, "UPDATE movements SET disappeared_at = ? WHERE id = ?").run(
      at,
      rowId,
    );
    noteMovementEvent(db, { rowId, caseId, at, kind: "disappeared" });
  }
  const row = { caseId, instanceId: input.instanceId };
  for (const { movement, firstSeenAt } of plan.filled) {
    insertMovement(db, { ...row, at: firstSeenAt, changeId: null }, movement);
  }
  for (const movement of plan.added) {
    insertMovement(db, { ...row, at, changeId: input.changeId }, movement);
  }
}

/** The columns a movement's current form fills: the stored JSON without its derived hint. */
function movementColumns(movement: Movement): MovementColumns {
  return {
    movementId: movement.id,
    identity: movement.identity,
    occurrence: movement.occurrence,
    code: movement.code,
    name: movement.name,
    dateTime: movement.dateTime,
    data: storedMovementJson(movement),
  };
}

interface NewMovementRow {
  caseId: number;
  instanceId: number;
  /** When it was first seen. */
  at: string;
  changeId: number | null;
}

function insertMovement(db: Db, row: NewMovementRow, movement: Movement): void {
  statement<MovementColumns & NewMovementRow>(
    db,
    `INSERT INTO movements (case_id, instance_id, movement_id, identity, occurrence, code, name,
       date_time, data, first_seen_at, change_id)
     VALUES (@caseId, @instanceId, @movementId, @identity, @occurrence, @code, @name, @dateTime,
       @data, @at, @changeId)`,
  ).run({ ...row, ...movementColumns(movement) });
}

/** The current form replaces the stored one; a row already identical is not written. */
function updateMovement(db: Db, rowId: number, movement: Movement): void {
  statement<MovementColumns & { rowId: number }>(
    db,
    `UPDATE movements SET movement_id = @movementId, identity = @identity,
       occurrence = @occurrence, code = @code, name = @name, date_time = @dateTime, data = @data,
       disappeared_at = NULL
     WHERE id = @rowId AND (data IS NOT @data OR movement_id IS NOT @movementId
       OR identity IS NOT @identity OR disappeared_at IS NOT NULL)`,
  ).run({ rowId, ...movementColumns(movement) });
}

/** A copy DataJud stopped or resumed listing; a correction is a version (009), not an event. */
function noteMovementEvent(
  db: Db,
  event: { rowId: number; caseId: number; at: string; kind: "disappeared" | "reappeared" },
): void {
  statement<typeof event>(
    db,
    `INSERT INTO movement_events (movement_row_id, case_id, at, kind, before)
     VALUES (@rowId, @caseId, @at, @kind, NULL)`,
  ).run(event);
}

/**
 * A stored movement takes its corrected form: the form stored until now becomes version 1 (if it
 * is not one already), the new one the next version, which belongs to the change that reports it
 * when the correction is news.
 */
function correctMovement(
  db: Db,
  input: ApplyMovementPlanInput,
  kind: "amended" | "redated",
  { rowId, movement, reported }: CorrectedRow,
): void {
  statement<{ rowId: number }>(
    db,
    `INSERT INTO movement_versions (movement_row_id, case_id, version, kind, date_time, data,
       recorded_at, change_id)
     SELECT id, case_id, 1, 'first', date_time, data, first_seen_at, change_id FROM movements
     WHERE id = @rowId AND NOT EXISTS (SELECT 1 FROM movement_versions WHERE movement_row_id = @rowId)`,
  ).run({ rowId });
  updateMovement(db, rowId, movement);
  statement<{
    rowId: number;
    caseId: number;
    kind: "amended" | "redated";
    dateTime: string | null;
    data: string;
    at: string;
    changeId: number | null;
  }>(
    db,
    `INSERT INTO movement_versions (movement_row_id, case_id, version, kind, date_time, data,
       recorded_at, change_id)
     VALUES (@rowId, @caseId,
       (SELECT MAX(version) + 1 FROM movement_versions WHERE movement_row_id = @rowId),
       @kind, @dateTime, @data, @at, @changeId)`,
  ).run({
    rowId,
    caseId: input.caseId,
    kind,
    dateTime: movement.dateTime,
    data: storedMovementJson(movement),
    at: input.at,
    changeId: reported === true ? input.changeId : null,
  });
}

export interface MovementEventRow {
  at: string;
  kind: MovementEventKind;
  instance: string;
  /** The movement as stored now. */
  movement: Movement;
  /** For an amendment: the form it had before. */
  before: Movement | null;
}

/** What happened to a case's stored movements after they were first seen; oldest first. */
export function listMovementEvents(db: Db, caseId: number): MovementEventRow[] {
  return db
    .prepare<
      [number],
      { at: string; kind: MovementEventKind; instance: string; data: string; before: string | null }
    >(
      `SELECT e.at, e.kind, i.instance, m.data, e.before
       FROM movement_events e JOIN movements m ON m.id = e.movement_row_id
         JOIN instances i ON i.id = m.instance_id
       WHERE e.case_id = ? ORDER BY e.at, e.id`,
    )
    .all(caseId)
    .map((raw) => ({
      at: raw.at,
      kind: raw.kind,
      instance: raw.instance,
      movement: readStoredMovement(raw.data),
      before: raw.before === null ? null : readStoredMovement(raw.before),
    }));
}

/**
 * Newest first; movements without a date come last. Only the copies DataJud still lists, unless
 * `includeDisappeared`.
 */
export function listMovements(
  db: Db,
  caseId: number,
  options: { limit?: number; includeDisappeared?: boolean } = {},
): MovementRow[] {
  // -1 is SQLite's "no limit". julianday() orders wall clocks and the `...Z` values written
  // before the upgrade alike (both read as UTC), and instants whose offsets differ.
  const limit = options.limit ?? -1;
  const present = options.includeDisappeared === true ? "" : "AND m.disappeared_at IS NULL";
  return db
    .prepare<[number, number], RawMovement>(
      `SELECT ${ROW_COLUMNS}
       FROM movements m JOIN instances i ON i.id = m.instance_id
       WHERE m.case_id = ? ${present}
       ORDER BY m.date_time IS NULL, julianday(m.date_time) DESC, m.id DESC
       LIMIT ?`,
    )
    .all(caseId, limit)
    .map(toRow);
}

/**
 * The case's movements DataJud still lists (with `includeDisappeared`, also those it stopped
 * listing), oldest first (undated ones first: listMovements' order reversed), read one at a time so an export of every case never holds them all. Other
 * statements may run between two rows; nothing may write to the database until it ends.
 */
export function* eachMovementOldestFirst(
  db: Db,
  caseId: number,
  options: { includeDisappeared?: boolean } = {},
): Generator<MovementRow> {
  const present = options.includeDisappeared === true ? "" : "AND m.disappeared_at IS NULL";
  // Prepared for this read alone: a shared statement stays busy until its iteration ends.
  const rows = db
    .prepare<[number], RawMovement>(
      `SELECT ${ROW_COLUMNS}
       FROM movements m JOIN instances i ON i.id = m.instance_id
       WHERE m.case_id = ? ${present}
       ORDER BY m.date_time IS NULL DESC, julianday(m.date_time), m.id`,
    )
    .iterate(caseId);
  for (const raw of rows) yield toRow(raw);
}

/**
 * The movements DataJud lists now in an instance, in the order normalize.ts gives a record's
 * (date as written, then id): the movement list of its record, which is stored only here.
 */
export function listedMovementsOfInstance(db: Db, instanceId: number): Movement[] {
  return statement<[number], { data: string }>(
    db,
    `SELECT data FROM movements WHERE instance_id = ? AND disappeared_at IS NULL
     ORDER BY coalesce(date_time, ''), movement_id`,
  )
    .all(instanceId)
    .map((raw) => readStoredMovement(raw.data));
}

/** The movements a change first reported, as it reported them, oldest first. */
export function movementsOfChange(db: Db, changeId: number): MovementRow[] {
  return movementsOfChanges(db, [changeId]);
}

/**
 * The movements these changes first reported, oldest first within each change, each in the form
 * it was reported in: a correction since then never rewrites what was mailed.
 */
export function movementsOfChanges(db: Db, changeIds: readonly number[]): MovementRow[] {
  return db
    .prepare<[string], RawMovement>(
      `SELECT ${FIRST_FORM_COLUMNS}
       FROM movements m JOIN instances i ON i.id = m.instance_id
         LEFT JOIN movement_versions f ON f.movement_row_id = m.id AND f.version = 1
       WHERE m.change_id IN (SELECT value FROM json_each(?))
       ORDER BY m.change_id, dateTime IS NULL, julianday(dateTime), m.id`,
    )
    .all(JSON.stringify(changeIds))
    .map(toRow);
}

/** Case id -> the date_time of its newest dated movement, as stored; cases without one are absent. */
export function latestMovementTimes(db: Db): Map<number, string> {
  // julianday(), as in listMovements: text order is wrong when stored offsets differ. A bare
  // column beside max() comes from the row holding the maximum (a documented SQLite rule).
  const rows = db
    .prepare<[], { caseId: number; dateTime: string }>(
      `SELECT case_id AS caseId, date_time AS dateTime, max(julianday(date_time)) AS newest
       FROM movements WHERE date_time IS NOT NULL AND disappeared_at IS NULL
       GROUP BY case_id HAVING newest IS NOT NULL`,
    )
    .all();
  return new Map(rows.map((row) => [row.caseId, row.dateTime]));
}

export type MovementVersionKind = "first" | "amended" | "redated";

export interface MovementVersionRow {
  /** The movements row the version belongs to. */
  rowId: number;
  instance: string;
  /** 1 for the form first seen, then one per correction. */
  version: number;
  kind: MovementVersionKind;
  /** The court's wall clock of this form. */
  dateTime: string | null;
  data: Movement;
  /** When the monitor first read this form. */
  recordedAt: string;
  /** The change that reported this form; null for a baseline read or a quiet completion. */
  changeId: number | null;
}

/** Every form of the case's corrected movements, by movement and then version. */
export function listMovementVersions(db: Db, caseId: number): MovementVersionRow[] {
  return db
    .prepare<[number], Omit<MovementVersionRow, "data"> & { data: string }>(
      `SELECT v.movement_row_id AS rowId, i.instance, v.version, v.kind, v.date_time AS dateTime,
         v.data, v.recorded_at AS recordedAt, v.change_id AS changeId
       FROM movement_versions v JOIN movements m ON m.id = v.movement_row_id
         JOIN instances i ON i.id = m.instance_id
       WHERE v.case_id = ? ORDER BY v.movement_row_id, v.version`,
    )
    .all(caseId)
    .map((raw) => ({ ...raw, data: readStoredMovement(raw.data) }));
}
