import type { CheckOutcome } from "./checks.js";
import { type Db, openAsIs, statement } from "./database.js";

export interface CaseRow {
  id: number;
  /** Formatted CNJ number. */
  number: string;
  digits: string;
  court: string;
  label: string | null;
  watchers: string[];
  /** False once the case left the watchlist; its history stays. */
  watched: boolean;
  /** First time DataJud returned the case; null until then. */
  firstSeenAt: string | null;
  lastSeenAt: string | null;
  lastCheckedAt: string | null;
  lastChangedAt: string | null;
  lastFullReadAt: string | null;
  lastFingerprint: string | null;
  lastOutcome: CheckOutcome | null;
  lastError: string | null;
  consecutiveNotFound: number;
  consecutiveFailures: number;
  goneAt: string | null;
  /** The index (court alias) where DataJud last returned the case; null until then. */
  foundIn: string | null;
  createdAt: string;
}

export interface WatchedCaseInput {
  number: string;
  digits: string;
  court: string;
  label: string | null;
  watchers: readonly string[];
}

interface RawCase extends Omit<CaseRow, "watchers" | "watched"> {
  watchers: string;
  watched: number;
}

const CASE_COLUMNS = `id, number, digits, court, label, watchers, watched,
  first_seen_at AS firstSeenAt, last_seen_at AS lastSeenAt, last_checked_at AS lastCheckedAt,
  last_changed_at AS lastChangedAt, last_full_read_at AS lastFullReadAt,
  last_fingerprint AS lastFingerprint, last_outcome AS lastOutcome, last_error AS lastError,
  consecutive_not_found AS consecutiveNotFound, consecutive_failures AS consecutiveFailures,
  gone_at AS goneAt, found_in AS foundIn, created_at AS createdAt`;

function toCase(raw: RawCase): CaseRow {
  const watchers: string[] = JSON.parse(raw.watchers);
  return { ...raw, watchers, watched: raw.watched === 1 };
}

/**
 * Makes the table match the watchlist: new cases are inserted, known ones get the current label
 * and watchers, and every case not listed is marked unwatched (never deleted).
 */
export function syncWatchedCases(db: Db, cases: readonly WatchedCaseInput[], now: string): void {
  const upsert = db.prepare<
    {
      number: string;
      digits: string;
      court: string;
      label: string | null;
      watchers: string;
      now: string;
    },
    { id: number }
  >(
    `INSERT INTO cases (number, digits, court, label, watchers, watched, created_at)
     VALUES (@number, @digits, @court, @label, @watchers, 1, @now)
     ON CONFLICT (digits, court) DO UPDATE SET
       number = excluded.number, label = excluded.label, watchers = excluded.watchers, watched = 1
     RETURNING id`,
  );
  const ids: number[] = [];
  for (const c of cases) {
    const row = upsert.get({
      number: c.number,
      digits: c.digits,
      court: c.court,
      label: c.label,
      watchers: JSON.stringify(c.watchers),
      now,
    });
    if (row) ids.push(row.id);
  }
  db.prepare<[string]>(
    "UPDATE cases SET watched = 0 WHERE watched = 1 AND id NOT IN (SELECT value FROM json_each(?))",
  ).run(JSON.stringify(ids));
}

export function getCase(db: Db, digits: string, court: string): CaseRow | undefined {
  const raw = statement<[string, string], RawCase>(
    db,
    `SELECT ${CASE_COLUMNS} FROM cases WHERE digits = ? AND court = ?`,
  ).get(digits, court);
  return raw && toCase(raw);
}

export function getCaseById(db: Db, id: number): CaseRow | undefined {
  const raw = db
    .prepare<[number], RawCase>(`SELECT ${CASE_COLUMNS} FROM cases WHERE id = ?`)
    .get(id);
  return raw && toCase(raw);
}

/** In the order the cases were first added. */
export function listCases(db: Db, options: { watchedOnly?: boolean } = {}): CaseRow[] {
  const where = options.watchedOnly === true ? "WHERE watched = 1" : "";
  return db
    .prepare<[], RawCase>(`SELECT ${CASE_COLUMNS} FROM cases ${where} ORDER BY id`)
    .all()
    .map(toCase);
}

/** Watched cases declared gone (DataJud answered "not found" too many times in a row). */
export function goneWatchedCases(db: Db): CaseRow[] {
  return db
    .prepare<[], RawCase>(
      `SELECT ${CASE_COLUMNS} FROM cases WHERE watched = 1 AND gone_at IS NOT NULL ORDER BY id`,
    )
    .all()
    .map(toCase);
}

/** Every court's record of this number, watched or not. */
export function findCasesByNumber(db: Db, digits: string): CaseRow[] {
  return db
    .prepare<[string], RawCase>(`SELECT ${CASE_COLUMNS} FROM cases WHERE digits = ? ORDER BY id`)
    .all(digits)
    .map(toCase);
}

export type CaseCheckPatch = Partial<{
  lastCheckedAt: string;
  lastSeenAt: string;
  lastChangedAt: string;
  lastFullReadAt: string;
  lastFingerprint: string | null;
  lastOutcome: CheckOutcome;
  lastError: string | null;
  consecutiveNotFound: number;
  consecutiveFailures: number;
  goneAt: string | null;
  firstSeenAt: string;
  foundIn: string;
}>;

const PATCH_COLUMNS = {
  lastCheckedAt: "last_checked_at",
  lastSeenAt: "last_seen_at",
  lastChangedAt: "last_changed_at",
  lastFullReadAt: "last_full_read_at",
  lastFingerprint: "last_fingerprint",
  lastOutcome: "last_outcome",
  lastError: "last_error",
  consecutiveNotFound: "consecutive_not_found",
  consecutiveFailures: "consecutive_failures",
  goneAt: "gone_at",
  firstSeenAt: "first_seen_at",
  foundIn: "found_in",
} as const satisfies Record<keyof CaseCheckPatch, string>;

function isPatchKey(key: string): key is keyof CaseCheckPatch {
  return Object.hasOwn(PATCH_COLUMNS, key);
}

/** Sets only the fields present in `patch`. */
export function updateCaseAfterCheck(db: Db, caseId: number, patch: CaseCheckPatch): void {
  const assignments: string[] = [];
  const values: Record<string, string | number | null> = { caseId };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || !isPatchKey(key)) continue;
    assignments.push(`${PATCH_COLUMNS[key]} = @${key}`);
    values[key] = value;
  }
  if (assignments.length === 0) return;
  // A handful of field sets occur (one per check outcome), so each is prepared once.
  statement<Record<string, string | number | null>>(
    db,
    `UPDATE cases SET ${assignments.join(", ")} WHERE id = @caseId`,
  ).run(values);
}

/**
 * The (digits, court) of every case a database file holds, read without touching it; none when it
 * has no cases table (a new or foreign file).
 */
export function caseKeysInFile(path: string): Array<{ digits: string; court: string }> {
  const db = openAsIs(path);
  try {
    const table = db
      .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'cases'")
      .get();
    if (table === undefined) return [];
    return db
      .prepare<[], { digits: string; court: string }>("SELECT digits, court FROM cases")
      .all();
  } finally {
    db.close();
  }
}

/** Watched cases by the outcome of their last check ("unchecked" before the first), for metrics. */
export function countWatchedByOutcome(db: Db): Record<string, number> {
  const rows = db
    .prepare<[], { outcome: string; n: number }>(
      "SELECT COALESCE(last_outcome, 'unchecked') AS outcome, COUNT(*) AS n FROM cases WHERE watched = 1 GROUP BY 1",
    )
    .all();
  return Object.fromEntries(rows.map((r) => [r.outcome, r.n]));
}
