import { parseDataJudDate, wallClockInstant } from "../../datajud/dates.js";
import type { Movement } from "../../datajud/instance-record.js";
import {
  legacyMovementIds,
  movementId,
  movementIdentity,
} from "../../datajud/movement-identity.js";
import {
  emptyMovementPlan,
  type MovementPlan,
  type StoredMovement,
} from "../../store/movements.js";

export type { MovementPlan, StoredMovement } from "../../store/movements.js";

type Role = "kept" | "reappeared" | "rekeyed" | "filled" | "amended" | "redated" | "added";

interface Assignment {
  role: Role;
  row?: StoredMovement;
  firstSeenAt?: string;
}

function amendmentKey(code: number | null, dateTime: string | null): string | null {
  const wall = dateTime === null ? null : parseDataJudDate(dateTime);
  return wall === null ? null : `${code ?? ""}|${wall}`;
}

/** The act without its time: code, name and complements, compared as the identity compares them. */
function contentKey(m: Movement): string {
  return movementIdentity({ ...m, dateTime: null });
}

/** How far apart two wall clocks are, in milliseconds; undated ones are as far as can be. */
function distance(a: string | null, b: string | null): number {
  const gap = Math.abs(wallClockInstant(a ?? "") - wallClockInstant(b ?? ""));
  return Number.isNaN(gap) ? Number.POSITIVE_INFINITY : gap;
}

/** Rows DataJud still lists first, then by occurrence: who a fresh copy is matched with first. */
function byPreference(a: StoredMovement, b: StoredMovement): number {
  return Number(a.disappeared) - Number(b.disappeared) || a.occurrence - b.occurrence;
}

function groupBy(
  rows: readonly StoredMovement[],
  key: (row: StoredMovement) => string | null,
): Map<string, StoredMovement[]> {
  const groups = new Map<string, StoredMovement[]>();
  for (const row of rows) {
    const k = key(row);
    if (k === null) continue;
    groups.set(k, [...(groups.get(k) ?? []), row]);
  }
  for (const group of groups.values()) group.sort(byPreference);
  return groups;
}

/**
 * Matches DataJud's current movements of one instance with the stored ones, as a multiset: first
 * rows written before the upgrade, by their schema-2 id; then exact identities, copy for copy;
 * then the leftovers by code and wall-clock time (an amendment: the complements or the name
 * changed); then the leftovers by code, name and complements (re-dated: the same act at another
 * time), each with the stored copy nearest in time. Only a stored copy DataJud listed until this
 * answer can be amended or re-dated: one it had stopped listing before is another event. Fresh
 * movements left over are new; stored copies left over have disappeared. Pure.
 */
export function matchMovements(
  stored: readonly StoredMovement[],
  fresh: readonly Movement[],
): MovementPlan {
  const used = new Set<number>();
  const assigned: Array<Assignment | undefined> = fresh.map(() => undefined);
  const take = (row: StoredMovement | undefined): StoredMovement | undefined => {
    if (row === undefined || used.has(row.rowId)) return undefined;
    used.add(row.rowId);
    return row;
  };

  // A first read has nothing to match: every movement is added. Skipping the keys below saves
  // most of a first sweep's matching (two keys and a content hash per movement, all discarded).
  if (stored.length === 0) return planOf(stored, fresh, assigned, used);

  const legacy = new Map(stored.filter((r) => r.identity === null).map((r) => [r.movementId, r]));
  if (legacy.size > 0) {
    fresh.forEach((movement, i) => {
      for (const id of legacyMovementIds(movement)) {
        const row = legacy.get(id);
        if (row === undefined) continue;
        assigned[i] = take(row)
          ? { role: "rekeyed", row }
          : { role: "filled", firstSeenAt: row.firstSeenAt };
        return;
      }
    });
  }

  const byIdentity = groupBy(stored, (r) => r.identity);
  fresh.forEach((movement, i) => {
    if (assigned[i] !== undefined) return;
    const row = take((byIdentity.get(movement.identity) ?? []).find((r) => !used.has(r.rowId)));
    if (row !== undefined) assigned[i] = { role: row.disappeared ? "reappeared" : "kept", row };
  });

  const byTime = groupBy(
    stored.filter((r) => !used.has(r.rowId)),
    (r) => amendmentKey(r.code, r.dateTime),
  );
  fresh.forEach((movement, i) => {
    if (assigned[i] !== undefined) return;
    const key = amendmentKey(movement.code, movement.dateTime);
    const row = take(key === null ? undefined : byTime.get(key)?.find((r) => !used.has(r.rowId)));
    if (row !== undefined) assigned[i] = { role: "amended", row };
  });

  const byContent = groupBy(
    stored.filter((r) => !used.has(r.rowId) && !r.disappeared && r.identity !== null),
    (r) => contentKey(r.data),
  );
  fresh.forEach((movement, i) => {
    if (assigned[i] !== undefined) return;
    const nearest = (byContent.get(contentKey(movement)) ?? [])
      .filter((r) => !used.has(r.rowId))
      .sort(
        (a, b) => distance(a.dateTime, movement.dateTime) - distance(b.dateTime, movement.dateTime),
      )[0];
    const row = take(nearest);
    assigned[i] = row === undefined ? { role: "added" } : { role: "redated", row };
  });

  return planOf(stored, fresh, assigned, used);
}

/** Numbers every fresh movement's copy in its identity and sorts it into its part of the plan. */
function planOf(
  stored: readonly StoredMovement[],
  fresh: readonly Movement[],
  assigned: ReadonlyArray<Assignment | undefined>,
  used: ReadonlySet<number>,
): MovementPlan {
  // Every occurrence number a stored row holds stays taken, so no two rows ever share one.
  const taken = new Map<string, Set<number>>();
  const hold = (identity: string, occurrence: number): void => {
    const set = taken.get(identity) ?? new Set<number>();
    set.add(occurrence);
    taken.set(identity, set);
  };
  for (const row of stored) if (row.identity !== null) hold(row.identity, row.occurrence);
  const nextFree = (identity: string): number => {
    const set = taken.get(identity);
    let occurrence = 1;
    while (set?.has(occurrence)) occurrence++;
    hold(identity, occurrence);
    return occurrence;
  };

  const plan = emptyMovementPlan();
  fresh.forEach((movement, i) => {
    const a = assigned[i] ?? { role: "added" };
    const keepsSlot = a.role === "kept" || a.role === "reappeared";
    const occurrence =
      keepsSlot && a.row !== undefined ? a.row.occurrence : nextFree(movement.identity);
    // Most movements keep the number normalization gave them: no copy then.
    const id = movementId(movement.identity, occurrence);
    const final: Movement =
      occurrence === movement.occurrence && id === movement.id
        ? movement
        : { ...movement, occurrence, id };
    plan.movements.push(final);
    const row = a.row;
    if (a.role === "filled")
      plan.filled.push({ movement: final, firstSeenAt: a.firstSeenAt ?? "" });
    else if (a.role === "added" || row === undefined) plan.added.push(final);
    else if (a.role === "amended" || a.role === "redated")
      plan[a.role].push({ rowId: row.rowId, movement: final, before: row.data });
    else plan[a.role].push({ rowId: row.rowId, movement: final });
  });
  for (const row of stored) {
    if (!used.has(row.rowId) && !row.disappeared) {
      plan.disappeared.push({ rowId: row.rowId, movement: row.data });
    }
  }
  return plan;
}
