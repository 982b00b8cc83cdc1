import type { InstanceRecord, Movement } from "../datajud/instance-record.js";

/** What can make a case "changed". Anything else DataJud touches is recorded but sends nothing. */
export type ChangeKind =
  | "new_movements"
  | "new_instance"
  | "class_changed"
  | "subjects_changed"
  | "court_unit_changed"
  | "secrecy_changed";

export interface FieldChange {
  instance: string;
  field: "class" | "subjects" | "courtUnit" | "secrecyLevel";
  before: unknown;
  after: unknown;
}

export interface NewMovement {
  instance: string;
  recordId: string;
  movement: Movement;
}

export interface CaseDiff {
  kinds: ChangeKind[];
  newInstances: string[];
  newMovements: NewMovement[];
  fieldChanges: FieldChange[];
  /** Instances we stored that DataJud no longer returned: kept, noted, never alerted on. */
  missingInstances: string[];
  /** Some stored record differs from DataJud's (even if only in fields that send nothing). */
  recordsDiffer: boolean;
}

export interface StoredInstance {
  recordId: string;
  record: InstanceRecord;
  knownMovementIds: ReadonlySet<string>;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function subjectKey(record: InstanceRecord): string {
  return JSON.stringify(
    [...record.subjects].sort((a, b) => `${a.code}:${a.name}`.localeCompare(`${b.code}:${b.name}`)),
  );
}

/**
 * Compares DataJud's current records of a case with what we stored. Pure: the same inputs always
 * give the same diff, so "changed" is never invented by the order DataJud answers in.
 */
export function diffCase(
  stored: readonly StoredInstance[],
  fresh: readonly InstanceRecord[],
): CaseDiff {
  const byId = new Map(stored.map((s) => [s.recordId, s]));
  const freshIds = new Set(fresh.map((r) => r.id));
  const kinds = new Set<ChangeKind>();
  const newInstances: string[] = [];
  const newMovements: NewMovement[] = [];
  const fieldChanges: FieldChange[] = [];
  let recordsDiffer = false;

  for (const record of fresh) {
    const before = byId.get(record.id);
    if (!before) {
      kinds.add("new_instance");
      newInstances.push(record.instance);
      recordsDiffer = true;
      for (const movement of record.movements) {
        newMovements.push({ instance: record.instance, recordId: record.id, movement });
      }
      if (record.movements.length > 0) kinds.add("new_movements");
      continue;
    }
    if (!sameJson(before.record, record)) recordsDiffer = true;
    for (const movement of record.movements) {
      if (!before.knownMovementIds.has(movement.id)) {
        newMovements.push({ instance: record.instance, recordId: record.id, movement });
        kinds.add("new_movements");
      }
    }
    const old = before.record;
    if (!sameJson(old.class, record.class)) {
      kinds.add("class_changed");
      fieldChanges.push({
        instance: record.instance,
        field: "class",
        before: old.class,
        after: record.class,
      });
    }
    if (subjectKey(old) !== subjectKey(record)) {
      kinds.add("subjects_changed");
      fieldChanges.push({
        instance: record.instance,
        field: "subjects",
        before: old.subjects,
        after: record.subjects,
      });
    }
    if (!sameJson(old.courtUnit, record.courtUnit)) {
      kinds.add("court_unit_changed");
      fieldChanges.push({
        instance: record.instance,
        field: "courtUnit",
        before: old.courtUnit,
        after: record.courtUnit,
      });
    }
    if (old.secrecyLevel !== record.secrecyLevel) {
      kinds.add("secrecy_changed");
      fieldChanges.push({
        instance: record.instance,
        field: "secrecyLevel",
        before: old.secrecyLevel,
        after: record.secrecyLevel,
      });
    }
  }
  const missingInstances = stored
    .filter((s) => !freshIds.has(s.recordId))
    .map((s) => s.record.instance);
  newMovements.sort((a, b) => (a.movement.dateTime ?? "").localeCompare(b.movement.dateTime ?? ""));
  return {
    kinds: [...kinds],
    newInstances,
    newMovements,
    fieldChanges,
    missingInstances,
    recordsDiffer,
  };
}

export function isRealChange(diff: CaseDiff): boolean {
  return diff.kinds.length > 0;
}
