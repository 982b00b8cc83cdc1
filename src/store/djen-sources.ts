import type { Db } from "./database.js";

/**
 * What DJEN is asked for each sweep: a watched case number, an OAB registration, or a watched
 * party's name (the radar, migration 022).
 */
export type DjenSourceKind = "case" | "oab" | "party";

export interface DjenSourceRow {
  id: number;
  kind: DjenSourceKind;
  /** 20 digits, "123456/SP", or a party's name as asked ("ACME COMERCIO LTDA"). */
  key: string;
  /** The first complete answer: what it brought was the baseline. Null: never answered. */
  firstOkAt: string | null;
  lastCheckedAt: string | null;
  lastOkAt: string | null;
  lastOutcome: "ok" | "failed" | null;
  lastErrorKind: string | null;
  lastError: string | null;
  consecutiveFailures: number;
}

const COLUMNS = `id, kind, key, first_ok_at AS firstOkAt, last_checked_at AS lastCheckedAt,
  last_ok_at AS lastOkAt, last_outcome AS lastOutcome, last_error_kind AS lastErrorKind,
  last_error AS lastError, consecutive_failures AS consecutiveFailures`;

export function getDjenSource(
  db: Db,
  kind: DjenSourceKind,
  key: string,
): DjenSourceRow | undefined {
  return db
    .prepare<[string, string], DjenSourceRow>(
      `SELECT ${COLUMNS} FROM djen_sources WHERE kind = ? AND key = ?`,
    )
    .get(kind, key);
}

/** A complete answer: the source is past its baseline from now on. */
export function recordDjenSourceOk(
  db: Db,
  kind: DjenSourceKind,
  key: string,
  at: string,
  /** A digest of the items it answered, for the record of watching (store/ledger.ts). */
  answerHash: string | null = null,
): void {
  db.prepare<{ kind: string; key: string; at: string; answerHash: string | null }>(
    `INSERT INTO djen_sources
       (kind, key, first_ok_at, last_checked_at, last_ok_at, last_outcome, last_answer_hash)
     VALUES (@kind, @key, @at, @at, @at, 'ok', @answerHash)
     ON CONFLICT (kind, key) DO UPDATE SET
       first_ok_at = coalesce(first_ok_at, @at), last_checked_at = @at, last_ok_at = @at,
       last_outcome = 'ok', last_error_kind = NULL, last_error = NULL, consecutive_failures = 0,
       last_answer_hash = @answerHash`,
  ).run({ kind, key, at, answerHash });
}

/** A failed check: counted, with what went wrong; what was stored before stays. */
export function recordDjenSourceFailure(
  db: Db,
  kind: DjenSourceKind,
  key: string,
  at: string,
  error: { kind: string; message: string },
  /** A digest of what a partial answer brought; null when nothing came. */
  answerHash: string | null = null,
): void {
  db.prepare<{
    kind: string;
    key: string;
    at: string;
    errorKind: string;
    error: string;
    answerHash: string | null;
  }>(
    `INSERT INTO djen_sources
       (kind, key, last_checked_at, last_outcome, last_error_kind, last_error, consecutive_failures,
        last_answer_hash)
     VALUES (@kind, @key, @at, 'failed', @errorKind, @error, 1, @answerHash)
     ON CONFLICT (kind, key) DO UPDATE SET
       last_checked_at = @at, last_outcome = 'failed', last_error_kind = @errorKind,
       last_error = @error, consecutive_failures = consecutive_failures + 1,
       last_answer_hash = @answerHash`,
  ).run({ kind, key, at, errorKind: error.kind, error: error.message, answerHash });
}

/** Every source ever asked for, cases first, in key order. */
export function listDjenSources(db: Db): DjenSourceRow[] {
  return db
    .prepare<[], DjenSourceRow>(`SELECT ${COLUMNS} FROM djen_sources ORDER BY kind, key`)
    .all();
}
