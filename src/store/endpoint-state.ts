import { existsSync } from "node:fs";
import { type Db, openAsIs } from "./database.js";

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
}

const COLUMNS = `channel, name, disabled_at AS disabledAt, disabled_reason AS disabledReason,
  dead_since AS deadSince`;

export function endpointStates(db: Db): EndpointState[] {
  return db
    .prepare<[], EndpointState>(`SELECT ${COLUMNS} FROM endpoint_state ORDER BY channel, name`)
    .all();
}

export function endpointState(db: Db, channel: string, name: string): EndpointState | undefined {
  return db
    .prepare<[string, string], EndpointState>(
      `SELECT ${COLUMNS} FROM endpoint_state WHERE channel = ? AND name = ?`,
    )
    .get(channel, name);
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
  db.prepare<[string]>("DELETE FROM endpoint_state WHERE name = ?").run(name);
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
    return table === undefined ? [] : endpointStates(db);
  } finally {
    db.close();
  }
}
