import type { InstanceRecord, Movement } from "../../src/datajud/instance-record.js";
import { movementIdentity } from "../../src/datajud/movement-identity.js";
import type { MovementRow, StoredMovement } from "../../src/store/movements.js";

/**
 * A normalized Movement with the fields a test does not care about filled in: its raw date is the
 * wall clock it was given (as if DataJud had sent exactly that), its identity is computed from its
 * content and it is the first copy.
 */
export function testMovement(fields: Partial<Movement> & { id: string }): Movement {
  const base = {
    code: fields.code ?? null,
    name: fields.name ?? "",
    dateTime: fields.dateTime ?? null,
    complements: fields.complements ?? [],
  };
  return {
    ...base,
    courtUnit: null,
    hint: null,
    identity: movementIdentity(base),
    occurrence: 1,
    ...fields,
    dateTimeRaw: fields.dateTimeRaw === undefined ? base.dateTime : fields.dateTimeRaw,
  };
}

/** What the store holds after a read that stored `movements` (row ids 1, 2, ...). */
export function storedMovements(
  movements: readonly Movement[],
  disappeared: readonly number[] = [],
): StoredMovement[] {
  return movements.map((m, i) => ({
    rowId: i + 1,
    movementId: m.id,
    identity: m.identity,
    occurrence: m.occurrence,
    code: m.code,
    dateTime: m.dateTime,
    disappeared: disappeared.includes(i + 1),
    firstSeenAt: "2025-11-05T10:00:00.000Z",
    data: m,
  }));
}

/** A stored movement row as `history` and `export` read it: G1, first seen 2025-11-21 10:00 UTC. */
export function testMovementRow(data: Movement, patch: Partial<MovementRow> = {}): MovementRow {
  return {
    id: 1,
    caseId: 1,
    instanceId: 1,
    instance: "G1",
    movementId: data.id,
    occurrence: data.occurrence ?? 1,
    code: data.code,
    name: data.name,
    dateTime: data.dateTime,
    data,
    firstSeenAt: "2025-11-21T10:00:00.000Z",
    changeId: null,
    disappearedAt: null,
    versions: 0,
    ...patch,
  };
}

/**
 * A whole DataJud record of one instance from what a reading test sets (instance, court, class,
 * movements), every other field empty, under `cnjNumber` (20 digits: its J.TR is what a reading
 * may look at).
 */
export function instanceRecordOf(
  r: Pick<InstanceRecord, "instance" | "court" | "class" | "movements">,
  cnjNumber: string,
): InstanceRecord {
  return {
    id: `${r.court}-${r.instance}`,
    cnjNumber,
    instance: r.instance,
    court: r.court,
    courtAcronym: r.court.toUpperCase(),
    class: r.class,
    subjects: [],
    courtUnit: null,
    system: null,
    format: null,
    secrecyLevel: 0,
    filedAt: null,
    filedAtRaw: null,
    lastUpdatedAt: null,
    lastUpdatedAtRaw: null,
    indexedAt: null,
    indexedAtRaw: null,
    movementCount: r.movements.length,
    latestMovement: r.movements.at(-1) ?? null,
    movements: r.movements,
  };
}
