import type { Db } from "../store/database.js";
import { databaseProblem } from "../store/database.js";
import { lastGoodWatchlist } from "../store/last-good-watchlist.js";
import { currentLease, holderIsDeadOnHost } from "../store/lease.js";
import type { Clock } from "../time/clock.js";

/**
 * Whether the daemon can do its work, for `/readyz`. Not whether DataJud answers: an outage of
 * DataJud is a failed check, reported and retried, and restarting the daemon would not cure it.
 * The problems are short and hold no case data: `/readyz` needs no token.
 */
export interface ReadyCheck {
  name: "database" | "watchlist" | "sweep";
  ok: boolean;
  /** What is wrong and what to do; null when ok. */
  problem: string | null;
}

export interface ReadinessDeps {
  db: Db;
  clock: Clock;
  /** Errors in the watchlist file's last edit (the last valid watchlist stays in force); 0: none. */
  watchlistErrors: () => number;
  /** This host, and whether one of its processes still exists: a dead holder's lease is no stuck sweep. */
  host: { hostname: () => string; isAlive: (pid: number) => boolean };
}

function check(name: ReadyCheck["name"], problem: string | null): ReadyCheck {
  return { name, ok: problem === null, problem };
}

/** The database answers, the watchlist file is valid, and no sweep holds the lease past its end. */
export function readiness(deps: ReadinessDeps): ReadyCheck[] {
  const dbProblem = databaseProblem(deps.db);
  const errors = deps.watchlistErrors();
  const watchlist =
    errors === 0 ? null : watchlistProblem(errors, dbProblem === null ? deps.db : null);
  return [
    check("database", dbProblem === null ? null : `the database does not answer: ${dbProblem}`),
    check("watchlist", watchlist),
    check(
      "sweep",
      dbProblem === null ? stuckSweep(deps) : "not known: the database does not answer",
    ),
  ];
}

/**
 * Why the watchlist makes the daemon unready: the file's errors (counted, never quoted: they may
 * name a case), since when, and the last good copy it runs on instead.
 */
function watchlistProblem(errors: number, db: Db | null): string {
  const copy = db === null ? undefined : lastGoodWatchlist(db);
  const count = errors === 1 ? "an error" : `${errors} errors`;
  const since = copy?.refusedSince == null ? "" : ` since ${copy.refusedSince}`;
  const on =
    copy === undefined
      ? "the last valid watchlist stays in force"
      : `the daemon runs on its last good copy, accepted at ${copy.acceptedAt}`;
  return `the watchlist file has ${count}${since}; ${on} (\`datajud-monitor status\` and \`validate\` name the errors)`;
}

/**
 * A sweep renews its lease while it works and releases it at its end; one past its expiry whose
 * process still exists (or lives on another host) has stopped: a frozen event loop, a suspended
 * machine. A lease left by a process of this host that is gone (a run-once killed) stops nothing:
 * the next sweep takes it over at once, and `status` shows that run as crashed, so it is no reason
 * to call the daemon unready until then.
 */
function stuckSweep(deps: ReadinessDeps): string | null {
  const lease = currentLease(deps.db);
  if (lease === null || Date.parse(lease.expiresAt) > deps.clock.now()) return null;
  if (holderIsDeadOnHost(lease.holder, deps.host.hostname(), deps.host.isAlive)) return null;
  return `a sweep's lease expired at ${lease.expiresAt} without being renewed or released: its process is stuck; the next sweep takes it over (\`datajud-monitor status\` shows the last run)`;
}
