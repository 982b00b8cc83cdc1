import type { Db } from "./database.js";

/*
 * The private addresses of the calendar feed: a token per watcher and client, kept only as its
 * hash (calendar/feed-token.ts makes both). The token itself is never stored.
 */

export interface CalendarTokenRow {
  id: number;
  recipient: string;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export function insertCalendarToken(
  db: Db,
  token: { hash: string; recipient: string; label: string | null; at: string },
): number {
  const result = db
    .prepare(
      `INSERT INTO calendar_tokens (token_hash, recipient, label, created_at)
       VALUES (@hash, lower(@recipient), @label, @at)`,
    )
    .run({ ...token, recipient: token.recipient.trim() });
  return Number(result.lastInsertRowid);
}

/** The watcher a token with this hash opens the feed of; null when none does (or it was revoked). */
export function calendarTokenRecipient(db: Db, hash: string): string | null {
  return (
    db
      .prepare<[string], { recipient: string }>(
        "SELECT recipient FROM calendar_tokens WHERE token_hash = ? AND revoked_at IS NULL",
      )
      .get(hash)?.recipient ?? null
  );
}

export function listCalendarTokens(db: Db): CalendarTokenRow[] {
  return db
    .prepare<[], CalendarTokenRow>(
      `SELECT id, recipient, label, created_at AS createdAt, revoked_at AS revokedAt
       FROM calendar_tokens ORDER BY id`,
    )
    .all();
}

/** Revokes token `id`; false when there is none or it was revoked already. */
export function revokeCalendarToken(db: Db, id: number, at: string): boolean {
  return (
    db
      .prepare<[string, number]>(
        "UPDATE calendar_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
      )
      .run(at, id).changes === 1
  );
}
