import { existsSync } from "node:fs";
import { type Db, immediate, openAsIs } from "./database.js";

/*
 * What is remembered of each webhook or chat endpoint across restarts (migration 011): disabled
 * by a 410 Gone until a person enables it again, and dead since its first alert given up after
 * the last delivery. Keyed by channel and configured name; no URL, token or secret is stored.
 */

export interface EndpointState {
  channel: string;
  name: string;
  disabledAt: string | null;
  disabledReason: string | null;
  deadSince: string | null;
  /** The variables the daemon lacked for it when it last started (migration 017); empty: none. */
  daemonMissing: string[];
  /** Since when daemons have started lacking them (kept across restarts); null: none lacks any. */
  daemonCheckedAt: string | null;
}

interface RawState extends Omit<EndpointState, "daemonMissing"> {
  daemonMissing: string | null;
}

const COLUMNS = `channel, name, disabled_at AS disabledAt, disabled_reason AS disabledReason,
  dead_since AS deadSince, daemon_missing AS daemonMissing, daemon_checked_at AS daemonCheckedAt`;
/** The same from a database older than migration 017 (`monitor doctor` reads it as it is). */
const COLUMNS_BEFORE_017 = `channel, name, disabled_at AS disabledAt,
  disabled_reason AS disabledReason, dead_since AS deadSince, NULL AS daemonMissing,
  NULL AS daemonCheckedAt`;

function toState(raw: RawState): EndpointState {
  return {
    ...raw,
    daemonMissing: raw.daemonMissing === null ? [] : raw.daemonMissing.split(" ").filter(Boolean),
  };
}

export function endpointStates(db: Db, columns: string = COLUMNS): EndpointState[] {
  return db
    .prepare<[], RawState>(`SELECT ${columns} FROM endpoint_state ORDER BY channel, name`)
    .all()
    .map(toState);
}

export function endpointState(db: Db, channel: string, name: string): EndpointState | undefined {
  const raw = db
    .prepare<[string, string], RawState>(
      `SELECT ${COLUMNS} FROM endpoint_state WHERE channel = ? AND name = ?`,
    )
    .get(channel, name);
  return raw === undefined ? undefined : toState(raw);
}

/**
 * What a daemon starting now cannot send to: for each endpoint the configuration names, the
 * variables it lacks (none: it sends), replacing what an earlier daemon recorded; an endpoint no
 * longer named keeps nothing of it. `daemon_checked_at` is when a daemon first started lacking
 * those same variables, kept across restarts while it still does (one operator alert per spell).
 * Returns the endpoints it cannot send to, each with that instant.
 */
export function recordDaemonEndpoints(
  db: Db,
  declared: ReadonlyArray<{ channel: string; name: string; missing: readonly string[] }>,
  at: string,
): Array<{ channel: string; name: string; missing: string[]; since: string }> {
  return immediate(db, () => {
    const named = new Set(declared.map((e) => `${e.channel}\u0000${e.name}`));
    const clear = db.prepare<[string, string]>(
      "UPDATE endpoint_state SET daemon_missing = NULL, daemon_checked_at = NULL WHERE channel = ? AND name = ?",
    );
    for (const s of endpointStates(db)) {
      if (!named.has(`${s.channel}\u0000${s.name}`)) clear.run(s.channel, s.name);
    }
    const upsert = db.prepare<{
      channel: string;
      name: string;
      missing: string | null;
      at: string;
    }>(
      `INSERT INTO endpoint_state (channel, name, daemon_missing, daemon_checked_at)
       VALUES (@channel, @name, @missing, CASE WHEN @missing IS NULL THEN NULL ELSE @at END)
       ON CONFLICT (channel, name) DO UPDATE SET
         daemon_checked_at = CASE
           WHEN @missing IS NULL THEN NULL
           WHEN daemon_missing IS @missing AND daemon_checked_at IS NOT NULL THEN daemon_checked_at
           ELSE @at END,
         daemon_missing = @missing`,
    );
    const lacking: Array<{ channel: string; name: string; missing: string[]; since: string }> = [];
    for (const e of declared) {
      const missing = e.missing.length === 0 ? null : e.missing.join(" ");
      // An endpoint it can send to gets no row for it: state is kept only of what is wrong.
      if (missing === null) {
        clear.run(e.channel, e.name);
        continue;
      }
      upsert.run({ channel: e.channel, name: e.name, missing, at });
      const since = endpointState(db, e.channel, e.name)?.daemonCheckedAt ?? at;
      lacking.push({ channel: e.channel, name: e.name, missing: [...e.missing], since });
    }
    return lacking;
  });
}

/** Disables the endpoint; false when it was disabled already (the first 410 is the one told). */
export function disableEndpoint(
  db: Db,
  endpoint: { channel: string; name: string },
  at: string,
  reason: string,
): boolean {
  return (
    db
      .prepare<{ channel: string; name: string; at: string; reason: string }>(
        `INSERT INTO endpoint_state (channel, name, disabled_at, disabled_reason)
         VALUES (@channel, @name, @at, @reason)
         ON CONFLICT (channel, name) DO UPDATE SET disabled_at = @at, disabled_reason = @reason
         WHERE disabled_at IS NULL`,
      )
      .run({ ...endpoint, at, reason }).changes === 1
  );
}

/** Marks the endpoint dead since `at`; false when it already was (one operator alert per spell). */
export function markEndpointDead(
  db: Db,
  endpoint: { channel: string; name: string },
  at: string,
): boolean {
  return (
    db
      .prepare<{ channel: string; name: string; at: string }>(
        `INSERT INTO endpoint_state (channel, name, dead_since) VALUES (@channel, @name, @at)
         ON CONFLICT (channel, name) DO UPDATE SET dead_since = @at WHERE dead_since IS NULL`,
      )
      .run({ ...endpoint, at }).changes === 1
  );
}

/** An alert reached the endpoint: the next one given up is a new spell, told again. */
export function markEndpointDelivered(db: Db, endpoint: { channel: string; name: string }): void {
  db.prepare<[string, string]>(
    "UPDATE endpoint_state SET dead_since = NULL WHERE channel = ? AND name = ? AND dead_since IS NOT NULL",
  ).run(endpoint.channel, endpoint.name);
}

/**
 * Enables every endpoint of that name again (a person fixed it): alerts queued from now on are
 * sent; those given up stay given up. Returns the channels that were disabled or dead.
 */
export function enableEndpoint(db: Db, name: string): string[] {
  const states = db
    .prepare<[string], { channel: string }>(
      "SELECT channel FROM endpoint_state WHERE name = ? AND (disabled_at IS NOT NULL OR dead_since IS NOT NULL)",
    )
    .all(name);
  // What the daemon lacks for it stays: enabling gives it no secret.
  db.prepare<[string]>(
    "UPDATE endpoint_state SET disabled_at = NULL, disabled_reason = NULL, dead_since = NULL WHERE name = ?",
  ).run(name);
  return states.map((s) => s.channel);
}

/**
 * The states a database at `path` holds, read without changing it (`monitor doctor`): none when
 * there is no database yet, or it predates the table (the next sweep migrates it).
 */
export function recordedEndpointStates(path: string): EndpointState[] {
  if (!existsSync(path)) return [];
  const db = openAsIs(path);
  try {
    const table = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'endpoint_state'")
      .get();
    if (table === undefined) return [];
    const columns = db
      .prepare("SELECT name FROM pragma_table_info('endpoint_state')")
      .pluck()
      .all();
    return endpointStates(db, columns.includes("daemon_missing") ? COLUMNS : COLUMNS_BEFORE_017);
  } finally {
    db.close();
  }
}
