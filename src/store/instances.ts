import type { InstanceRecord } from "../datajud/instance-record.js";
import { type Db, statement } from "./database.js";
import { listedMovementsOfInstance } from "./movements.js";

export interface InstanceRow {
  id: number;
  caseId: number;
  /** DataJud's grau: G1, G2, SUP... */
  instance: string;
  /** DataJud's `_id` of this instance's document. */
  recordId: string;
  fingerprint: string | null;
  /**
   * The latest normalized record's fields: its movement list (and latestMovement) are empty here,
   * every movement being a row of `movements`; instanceRecords gives the whole record.
   */
  record: InstanceRecord;
  /** 1 for the first record, +1 each time the stored record changed. */
  version: number;
  firstSeenAt: string;
  updatedAt: string;
}

export interface InstanceVersionRow {
  id: number;
  instanceId: number;
  version: number;
  record: InstanceRecord;
  fingerprint: string | null;
  recordedAt: string;
  changeId: number | null;
}

interface RawInstance extends Omit<InstanceRow, "record"> {
  record: string;
}

interface RawInstanceVersion extends Omit<InstanceVersionRow, "record"> {
  record: string;
}

const INSTANCE_COLUMNS = `id, case_id AS caseId, instance, record_id AS recordId, fingerprint,
  record, version, first_seen_at AS firstSeenAt, updated_at AS updatedAt`;

function toInstance(raw: RawInstance): InstanceRow {
  // Written by upsertInstance from an already validated InstanceRecord.
  const record: InstanceRecord = JSON.parse(raw.record);
  return { ...raw, record };
}

/**
 * A record as stored, in `instances` and each version alike: its fields without the movement
 * list and the latest movement, which `movements` holds once (the list was a third of the
 * database). Migration 012 rewrote the records stored before in this form.
 */
function storedRecordJson(record: InstanceRecord): string {
  return JSON.stringify({ ...record, movements: [], latestMovement: null });
}

/** The case's instances, each with its record's fields (no movements: see InstanceRow.record). */
export function listInstances(db: Db, caseId: number): InstanceRow[] {
  return statement<[number], RawInstance>(
    db,
    `SELECT ${INSTANCE_COLUMNS} FROM instances WHERE case_id = ? ORDER BY id`,
  )
    .all(caseId)
    .map(toInstance);
}

/**
 * The case's whole records, each with the movements DataJud lists now rebuilt from `movements`
 * in normalize.ts's order: what the model's prompt is written from.
 */
export function instanceRecords(db: Db, caseId: number): InstanceRecord[] {
  return listInstances(db, caseId).map(({ id, record }) => {
    const movements = listedMovementsOfInstance(db, id);
    return { ...record, movements, latestMovement: movements.at(-1) ?? null };
  });
}

/** Oldest first. */
export function listInstanceVersions(db: Db, instanceId: number): InstanceVersionRow[] {
  return statement<[number], RawInstanceVersion>(
    db,
    `SELECT id, instance_id AS instanceId, version, record, fingerprint, recorded_at AS recordedAt,
         change_id AS changeId
       FROM instance_versions WHERE instance_id = ? ORDER BY version`,
  )
    .all(instanceId)
    .map((raw) => {
      const record: InstanceRecord = JSON.parse(raw.record);
      return { ...raw, record };
    });
}

export interface UpsertInstanceInput {
  caseId: number;
  record: InstanceRecord;
  fingerprint: string | null;
  at: string;
  /** The change this record belongs to, if it is part of one. */
  changeId: number | null;
}

export interface UpsertInstanceResult {
  instanceId: number;
  version: number;
  created: boolean;
  /** The stored record was replaced by a different one (always true when created). */
  changed: boolean;
}

function insertVersion(
  db: Db,
  row: {
    instanceId: number;
    version: number;
    record: string;
    fingerprint: string | null;
    at: string;
    changeId: number | null;
  },
): void {
  statement<typeof row>(
    db,
    `INSERT INTO instance_versions (instance_id, version, record, fingerprint, recorded_at, change_id)
     VALUES (@instanceId, @version, @record, @fingerprint, @at, @changeId)`,
  ).run(row);
}

/**
 * Stores the latest record of one instance. A record identical to the stored one only moves
 * the fingerprint; a different one becomes a new version, kept in instance_versions.
 */
export function upsertInstance(db: Db, input: UpsertInstanceInput): UpsertInstanceResult {
  // The record's fields alone: every movement is already a row of its own (with the change that
  // brought it); copying the growing list into each version made the table grow with the square
  // of a case's age, and into the current record stored every movement twice.
  const json = storedRecordJson(input.record);
  const existing = statement<[number, string], { id: number; record: string; version: number }>(
    db,
    "SELECT id, record, version FROM instances WHERE case_id = ? AND record_id = ?",
  ).get(input.caseId, input.record.id);

  if (!existing) {
    const instanceId = insertInstance(db, input, json);
    insertVersion(db, { ...versionOf(input, json), instanceId, version: 1 });
    return { instanceId, version: 1, created: true, changed: true };
  }
  if (existing.record === json) {
    touchFingerprint(db, existing.id, input.fingerprint, input.at);
    return { instanceId: existing.id, version: existing.version, created: false, changed: false };
  }
  const version = existing.version + 1;
  replaceRecord(db, { id: existing.id, version, json }, input);
  insertVersion(db, { ...versionOf(input, json), instanceId: existing.id, version });
  return { instanceId: existing.id, version, created: false, changed: true };
}

function versionOf(input: UpsertInstanceInput, json: string) {
  return { record: json, fingerprint: input.fingerprint, at: input.at, changeId: input.changeId };
}

/** A document of the case seen for the first time: version 1, moved when first seen. */
function insertInstance(db: Db, input: UpsertInstanceInput, json: string): number {
  const result = statement<{
    caseId: number;
    instance: string;
    recordId: string;
    fingerprint: string | null;
    record: string;
    at: string;
  }>(
    db,
    `INSERT INTO instances (case_id, instance, record_id, fingerprint, record, version,
         first_seen_at, updated_at, moved_at)
       VALUES (@caseId, @instance, @recordId, @fingerprint, @record, 1, @at, @at, @at)`,
  ).run({
    caseId: input.caseId,
    instance: input.record.instance,
    recordId: input.record.id,
    fingerprint: input.fingerprint,
    record: json,
    at: input.at,
  });
  return Number(result.lastInsertRowid);
}

/**
 * The stored record replaced by a different one. moved_at: when DataJud's update of the record
 * (dataHoraUltimaAtualizacao, else @timestamp) was first seen to change; a record whose fields
 * changed under the same update time keeps it.
 */
function replaceRecord(
  db: Db,
  stored: { id: number; version: number; json: string },
  input: UpsertInstanceInput,
): void {
  statement<{
    id: number;
    instance: string;
    fingerprint: string | null;
    record: string;
    version: number;
    at: string;
  }>(
    db,
    // `record` on the right is the stored one.
    `UPDATE instances SET instance = @instance, fingerprint = @fingerprint, record = @record,
       version = @version, updated_at = @at,
       moved_at = CASE
         WHEN coalesce(json_extract(record, '$.lastUpdatedAt'), json_extract(record, '$.indexedAt'))
           IS coalesce(json_extract(@record, '$.lastUpdatedAt'), json_extract(@record, '$.indexedAt'))
         THEN coalesce(moved_at, @at) ELSE @at END
     WHERE id = @id`,
  ).run({
    id: stored.id,
    instance: input.record.instance,
    fingerprint: input.fingerprint,
    record: stored.json,
    version: stored.version,
    at: input.at,
  });
}

/** DataJud re-indexed the document without changing what we keep of it. */
export function touchFingerprint(
  db: Db,
  instanceId: number,
  fingerprint: string | null,
  at: string,
): void {
  statement<[string | null, string, number]>(
    db,
    "UPDATE instances SET fingerprint = ?, updated_at = ? WHERE id = ?",
  ).run(fingerprint, at, instanceId);
}
