import type { Db } from "./database.js";

/*
 * DJEN's trips in a row (migration 014): a DJEN phase that could not reach DJEN records one, a
 * complete answer clears them. What the daemon's asking between sweeps backs off on, and what
 * `status` shows.
 */

export interface DjenReach {
  /** The last trip (ISO). */
  trippedAt: string;
  /** Trips in a row since DJEN last answered. */
  trips: number;
  reason: string;
}

/** Null: DJEN answered the last time it was asked (or was never found unreachable). */
export function getDjenReach(db: Db): DjenReach | null {
  return (
    db
      .prepare<[], DjenReach>(
        "SELECT tripped_at AS trippedAt, trips, reason FROM djen_reach WHERE id = 1",
      )
      .get() ?? null
  );
}

export function recordDjenTrip(db: Db, at: string, reason: string): void {
  db.prepare<{ at: string; reason: string }>(
    `INSERT INTO djen_reach (id, tripped_at, trips, reason) VALUES (1, @at, 1, @reason)
     ON CONFLICT (id) DO UPDATE SET tripped_at = @at, trips = trips + 1, reason = @reason`,
  ).run({ at, reason });
}

export function clearDjenTrips(db: Db): void {
  db.prepare("DELETE FROM djen_reach").run();
}
