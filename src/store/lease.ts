import type { Db } from "./database.js";

export type LeaseResult = { ok: true } | { ok: false; holder: string; expiresAt: string };

/** `pid@hostname:randomhex`: unique per process even when pids repeat across hosts or restarts. */
export function leaseHolder(pid: number, host: string, randomHex: string): string {
  return `${pid}@${host}:${randomHex}`;
}

interface LeaseRow {
  holder: string;
  expiresAt: string;
}

/**
 * Takes the single sweep lease unless another holder has an unexpired one. Checked and written
 * under one BEGIN IMMEDIATE, so two processes can never both succeed. Re-acquiring one's own
 * lease extends it.
 */
export function acquireLease(
  db: Db,
  request: {
    holder: string;
    now: number;
    ttlMs: number;
    /** True when the current holder is known to be gone (a killed process): take over at once. */
    holderIsDead?: (holder: string) => boolean;
  },
): LeaseResult {
  return db
    .transaction((): LeaseResult => {
      const current = currentLease(db);
      if (
        current &&
        current.holder !== request.holder &&
        Date.parse(current.expiresAt) > request.now &&
        request.holderIsDead?.(current.holder) !== true
      ) {
        return { ok: false, holder: current.holder, expiresAt: current.expiresAt };
      }
      const acquiredAt = new Date(request.now).toISOString();
      const expiresAt = new Date(request.now + request.ttlMs).toISOString();
      db.prepare<[string, string, string]>(
        `INSERT INTO lease (id, holder, acquired_at, expires_at) VALUES (1, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET
           holder = excluded.holder, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at`,
      ).run(request.holder, acquiredAt, expiresAt);
      return { ok: true };
    })
    .immediate();
}

/** Extends the lease; false when it is no longer ours (it expired and someone took it over). */
export function renewLease(db: Db, holder: string, now: number, ttlMs: number): boolean {
  const expiresAt = new Date(now + ttlMs).toISOString();
  return (
    db
      .prepare<[string, string]>("UPDATE lease SET expires_at = ? WHERE id = 1 AND holder = ?")
      .run(expiresAt, holder).changes === 1
  );
}

/** Gives the lease up if we still hold it; someone else's lease is left alone. */
export function releaseLease(db: Db, holder: string): void {
  db.prepare<[string]>("DELETE FROM lease WHERE id = 1 AND holder = ?").run(holder);
}

/**
 * Whether a holder written by `leaseHolder` on this host belongs to a process that no longer
 * exists, so a sweep killed with SIGKILL does not block the next one until its lease expires.
 * Holders from other hosts (a shared volume) are never judged dead.
 */
export function holderIsDeadOnHost(
  holder: string,
  host: string,
  isAlive: (pid: number) => boolean,
): boolean {
  const match = /^(\d+)@(.+):[0-9a-f]+$/.exec(holder);
  if (!match || match[2] !== host) return false;
  return !isAlive(Number(match[1]));
}

/** `kill(pid, 0)`: ESRCH means no such process; EPERM means it exists under another user. */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A process as the holder of a lease or of claimed rows, and its judgement of other holders. */
export interface Claimant {
  holder: string;
  /** True when `other` is a process of this host that no longer exists. */
  holderIsDead: (other: string) => boolean;
}

/** Who this process is, as a claimant names it: the process's `System` (src/system.ts). */
export interface ProcessIdentity {
  hostname(): string;
  pid: number;
  random(): number;
  isAlive(pid: number): boolean;
}

/** This process, named and judging others the way the sweep lease does. */
export function thisProcessClaimant(identity: ProcessIdentity): Claimant {
  const host = identity.hostname();
  const hex = Math.floor(identity.random() * 0x1_0000_0000)
    .toString(16)
    .padStart(8, "0");
  return {
    holder: leaseHolder(identity.pid, host, hex),
    holderIsDead: (other) => holderIsDeadOnHost(other, host, identity.isAlive),
  };
}

/** The sweep lease as it stands: null when no sweep holds the database. */
export function currentLease(db: Db): { holder: string; expiresAt: string } | null {
  return (
    db
      .prepare<[], LeaseRow>("SELECT holder, expires_at AS expiresAt FROM lease WHERE id = 1")
      .get() ?? null
  );
}
