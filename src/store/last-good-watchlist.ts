import type { Db } from "./database.js";

/** The last watchlist a process accepted, and whether the daemon runs on it for a broken file. */
export interface GoodWatchlist {
  /** The file it was read from, as configured (`paths.watchlist`). */
  path: string;
  text: string;
  /** When this text was first accepted from this path. */
  acceptedAt: string;
  /** Since when the daemon runs on this copy because the file is invalid; null: it does not. */
  refusedSince: string | null;
  /** The file's errors (`file:line:col message`) when it was last refused; empty when not. */
  refusedErrors: string[];
}

interface RawGoodWatchlist extends Omit<GoodWatchlist, "refusedErrors"> {
  refusedErrors: string | null;
}

export function lastGoodWatchlist(db: Db): GoodWatchlist | undefined {
  const raw = db
    .prepare<[], RawGoodWatchlist>(
      `SELECT path, text, accepted_at AS acceptedAt, refused_since AS refusedSince,
         refused_errors AS refusedErrors
       FROM last_good_watchlist WHERE id = 1`,
    )
    .get();
  if (raw === undefined) return undefined;
  const errors: unknown = raw.refusedErrors === null ? [] : JSON.parse(raw.refusedErrors);
  return {
    ...raw,
    refusedErrors: Array.isArray(errors) ? errors.map(String) : [],
  };
}

/**
 * Keeps `text` as the last good watchlist and ends any refusal. Accepting the same text from the
 * same path again keeps its first acceptance time (a reload of an unchanged file is no news).
 */
export function keepGoodWatchlist(
  db: Db,
  copy: { path: string; text: string; acceptedAt: string },
): void {
  db.prepare<{ path: string; text: string; acceptedAt: string }>(
    `INSERT INTO last_good_watchlist (id, path, text, accepted_at) VALUES (1, @path, @text, @acceptedAt)
     ON CONFLICT (id) DO UPDATE SET
       accepted_at = CASE WHEN path = excluded.path AND text = excluded.text THEN accepted_at
                          ELSE excluded.accepted_at END,
       path = excluded.path, text = excluded.text, refused_since = NULL, refused_errors = NULL`,
  ).run(copy);
}

/**
 * Records that the daemon runs on the last good copy because the file is invalid: since the
 * first refusal of this run of refusals, with the newest errors. False when no copy is stored.
 */
export function markWatchlistRefused(
  db: Db,
  refusal: { at: string; errors: readonly string[] },
): boolean {
  return (
    db
      .prepare<[string, string]>(
        `UPDATE last_good_watchlist
         SET refused_since = coalesce(refused_since, ?), refused_errors = ? WHERE id = 1`,
      )
      .run(refusal.at, JSON.stringify(refusal.errors)).changes === 1
  );
}
