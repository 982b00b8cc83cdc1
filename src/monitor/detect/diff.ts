import type { CodeName, InstanceRecord, Movement } from "../../datajud/instance-record.js";
import { canonicalComplement } from "../../datajud/movement-identity.js";
import { comparableName } from "../../datajud/text.js";
import { isLateRecord, newestDate } from "../../policy/late-records.js";
import type { CorrectedRow } from "../../store/movements.js";
import { type MovementPlan, matchMovements, type StoredMovement } from "./movement-match.js";

/** What can make a case "changed". Anything else DataJud touches is recorded but sends nothing. */
export type ChangeKind =
  | "new_movements"
  /** Movements first listed long after their own date, behind known ones (policy/late-records). */
  | "late_movements"
  /** A movement already reported now reads otherwise: amended or re-dated (MovementCorrection). */
  | "corrected_movements"
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

/**
 * A known movement DataJud now serves otherwise, in a way that makes what a lawyer read untrue:
 * the same act with other complements (a hearing "designada" now "cancelada"), or at another
 * time (a publication of 05/11 now of 06/11).
 */
export interface MovementCorrection {
  instance: string;
  recordId: string;
  kind: "amended" | "redated";
  before: Movement;
  after: Movement;
}

export interface CaseDiff {
  kinds: ChangeKind[];
  newInstances: string[];
  newMovements: NewMovement[];
  /**
   * The new movements that are late records (policy/late-records.ts): in `newMovements` too (they
   * are stored as this change's), reported apart, quietly, never as news.
   */
  lateMovements: NewMovement[];
  /** Corrections worth a mail; completions (a complement added, a name reworded) are not here. */
  corrections: MovementCorrection[];
  fieldChanges: FieldChange[];
  /** Instances we stored that DataJud no longer returned: kept, noted, never alerted on. */
  missingInstances: string[];
  /**
   * Some stored record's fields differ from DataJud's (even fields that send nothing); its
   * movements are compared in `instances`' plans.
   */
  recordsDiffer: boolean;
  /**
   * Per fresh record (by DataJud's `_id`): the record with every movement under the id it is
   * stored as, and what its movements mean for the stored ones.
   */
  instances: Array<{ record: InstanceRecord; plan: MovementPlan }>;
}

export interface StoredInstance {
  recordId: string;
  record: InstanceRecord;
  movements: readonly StoredMovement[];
}

/**
 * Whether two records hold the same fields. Movements are compared one by one (the plan), and
 * the store keeps a record's fields without them (store/instances.ts).
 */
function sameFields(a: InstanceRecord, b: InstanceRecord): boolean {
  const fields = (r: InstanceRecord): string =>
    JSON.stringify({ ...r, movements: [], latestMovement: null });
  return fields(a) === fields(b);
}

function codeNameKey(value: CodeName | null): string {
  return value === null ? "null" : `${value.code}:${comparableName(value.name)}`;
}

function subjectKey(record: InstanceRecord): string {
  return JSON.stringify(record.subjects.map(codeNameKey).sort());
}

function courtUnitKey(unit: InstanceRecord["courtUnit"]): string {
  return unit === null ? "null" : `${codeNameKey(unit)}:${unit.municipalityCode}`;
}

/**
 * Compares DataJud's current records of a case with what we stored. Pure: the same inputs always
 * give the same diff, so "changed" is never invented by the order DataJud answers in.
 */
export function diffCase(
  stored: readonly StoredInstance[],
  fresh: readonly InstanceRecord[],
  /** When this sweep read the case (our instant); absent, no movement is judged late. */
  seenAt?: string,
): CaseDiff {
  const byId = new Map(stored.map((s) => [s.recordId, s]));
  const freshIds = new Set(fresh.map((r) => r.id));
  const kinds = new Set<ChangeKind>();
  const newInstances: string[] = [];
  const newMovements: NewMovement[] = [];
  const corrections: MovementCorrection[] = [];
  const fieldChanges: FieldChange[] = [];
  let recordsDiffer = false;
  const instances: CaseDiff["instances"] = [];

  for (const fetched of fresh) {
    const before = byId.get(fetched.id);
    const plan = movementPlanOf(before?.movements ?? [], fetched.movements);
    const record = withMovements(fetched, plan.movements);
    instances.push({ record, plan });
    for (const movement of plan.added) {
      newMovements.push({ instance: record.instance, recordId: record.id, movement });
    }
    corrections.push(...correctionsOf(record, plan));
    if (corrections.length > 0) kinds.add("corrected_movements");
    if (!before) {
      kinds.add("new_instance");
      newInstances.push(record.instance);
      recordsDiffer = true;
      continue;
    }
    if (!sameFields(before.record, record)) recordsDiffer = true;
    for (const change of fieldChangesOf(before.record, record)) {
      kinds.add(FIELD_CHANGE_KIND[change.field]);
      fieldChanges.push(change);
    }
  }
  const missingInstances = stored
    .filter((s) => !freshIds.has(s.recordId))
    .map((s) => s.record.instance);
  newMovements.sort((a, b) => (a.movement.dateTime ?? "").localeCompare(b.movement.dateTime ?? ""));
  const lateMovements = lateMovementsOf(stored, newMovements, seenAt);
  if (newMovements.length > lateMovements.length) kinds.add("new_movements");
  if (lateMovements.length > 0) kinds.add("late_movements");
  return {
    kinds: [...kinds],
    newInstances,
    newMovements,
    lateMovements,
    corrections,
    fieldChanges,
    missingInstances,
    recordsDiffer,
    instances,
  };
}

/** What the fresh movements mean for the stored ones, each correction marked news or not. */
function movementPlanOf(
  stored: readonly StoredMovement[],
  fresh: readonly Movement[],
): MovementPlan {
  const matched = matchMovements(stored, fresh);
  return {
    ...matched,
    amended: matched.amended.map(reported("amended")),
    redated: matched.redated.map(reported("redated")),
  };
}

/** The plan's corrections that are news (contradictsBefore), amended before re-dated. */
export function correctionsOf(record: InstanceRecord, plan: MovementPlan): MovementCorrection[] {
  const corrections: MovementCorrection[] = [];
  for (const kind of ["amended", "redated"] as const) {
    for (const row of plan[kind]) {
      if (row.reported !== true) continue;
      corrections.push({
        instance: record.instance,
        recordId: record.id,
        kind,
        before: row.before,
        after: row.movement,
      });
    }
  }
  return corrections;
}

const FIELD_CHANGE_KIND: Record<FieldChange["field"], ChangeKind> = {
  class: "class_changed",
  subjects: "subjects_changed",
  courtUnit: "court_unit_changed",
  secrecyLevel: "secrecy_changed",
};

/**
 * The fields that send an alert and now read otherwise, in a fixed order. Names are compared as
 * comparableName reads them (a repaired encoding, case or spacing is no change), subjects as a set.
 */
export function fieldChangesOf(old: InstanceRecord, record: InstanceRecord): FieldChange[] {
  const changes: FieldChange[] = [];
  const changed = (field: FieldChange["field"], before: unknown, after: unknown): void => {
    changes.push({ instance: record.instance, field, before, after });
  };
  if (codeNameKey(old.class) !== codeNameKey(record.class)) {
    changed("class", old.class, record.class);
  }
  if (subjectKey(old) !== subjectKey(record)) changed("subjects", old.subjects, record.subjects);
  if (courtUnitKey(old.courtUnit) !== courtUnitKey(record.courtUnit)) {
    changed("courtUnit", old.courtUnit, record.courtUnit);
  }
  if (old.secrecyLevel !== record.secrecyLevel) {
    changed("secrecyLevel", old.secrecyLevel, record.secrecyLevel);
  }
  return changes;
}

/**
 * The new movements that are late records against the newest movement the case knew
 * (policy/late-records.ts); none when the sweep's instant is not known.
 */
export function lateMovementsOf(
  stored: readonly StoredInstance[],
  newMovements: readonly NewMovement[],
  seenAt: string | undefined,
): NewMovement[] {
  if (seenAt === undefined) return [];
  const newestKnown = newestDate(stored.flatMap((s) => s.movements.map((m) => m.data)));
  return newMovements.filter((n) => isLateRecord(n.movement, newestKnown, seenAt));
}

/**
 * Whether a correction makes what was reported untrue: a new date always does; new complements
 * or a reworded name alone do not (nothing read before is contradicted), a complement gone or
 * changed does.
 */
export function contradictsBefore(
  kind: "amended" | "redated",
  before: Movement,
  after: Movement,
): boolean {
  if (kind === "redated") return true;
  const now = new Set(after.complements.map(canonicalComplement));
  return before.complements.some((c) => !now.has(canonicalComplement(c)));
}

function reported(kind: "amended" | "redated"): (row: CorrectedRow) => CorrectedRow {
  return (row) => ({ ...row, reported: contradictsBefore(kind, row.before, row.movement) });
}

/** The record with its movements under the ids they are stored as (same order). */
function withMovements(record: InstanceRecord, movements: Movement[]): InstanceRecord {
  return { ...record, movements, latestMovement: movements.at(-1) ?? null };
}

export function isRealChange(diff: CaseDiff): boolean {
  return diff.kinds.length > 0;
}
