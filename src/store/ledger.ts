import { entryHash, type LedgerEntry, type UnsealedEntry } from "../proof/chain.js";
import type { Anchor } from "../proof/record.js";
import type { Db } from "./database.js";

/*
 * The proof-of-watching record (migration 20): triggers append an entry for every check and
 * delivery step in the transaction that writes it; `sealLedger` chains them in order. Entries
 * are never updated once sealed and never deleted but by `pruneLedgerBefore`, which leaves a
 * signed anchor where it cut.
 */

const ENTRY_COLUMNS = `seq, subject, at, kind, source, query, outcome, answer_hash AS answerHash,
  detail, prev_hash AS prevHash, hash`;

/** The newest sealed hash of each subject in `subjects`, or of an anchor when all were pruned. */
function lastHashes(db: Db, subjects: readonly string[]): Map<string, string> {
  const last = new Map<string, string>();
  const entry = db.prepare<[string], { hash: string }>(
    "SELECT hash FROM ledger WHERE subject = ? AND hash IS NOT NULL ORDER BY seq DESC LIMIT 1",
  );
  const anchor = db.prepare<[string], { hash: string }>(
    "SELECT hash FROM ledger_anchors WHERE subject = ?",
  );
  for (const subject of subjects) {
    const hash = entry.get(subject)?.hash ?? anchor.get(subject)?.hash;
    if (hash !== undefined) last.set(subject, hash);
  }
  return last;
}

/**
 * Chains every entry not sealed yet, oldest first, to its subject's newest sealed one. Call it
 * inside a write transaction (the sweep's end, the daemon's minute tick, an export): a crash
 * between append and seal leaves entries unsealed, and the next seal takes them in order.
 */
export function sealLedger(db: Db): number {
  const pending = db
    .prepare<[], UnsealedEntry>(
      `SELECT seq, subject, at, kind, source, query, outcome, answer_hash AS answerHash, detail
       FROM ledger WHERE hash IS NULL ORDER BY seq`,
    )
    .all();
  if (pending.length === 0) return 0;
  const last = lastHashes(db, [...new Set(pending.map((e) => e.subject))]);
  const seal = db.prepare<{ seq: number; prevHash: string | null; hash: string }>(
    "UPDATE ledger SET prev_hash = @prevHash, hash = @hash WHERE seq = @seq AND hash IS NULL",
  );
  for (const entry of pending) {
    const prevHash = last.get(entry.subject) ?? null;
    const hash = entryHash(entry, prevHash);
    seal.run({ seq: entry.seq, prevHash, hash });
    last.set(entry.subject, hash);
  }
  return pending.length;
}

/** A subject's sealed entries at or after `sinceIso` (all of them when null), oldest first. */
export function ledgerEntries(db: Db, subject: string, sinceIso: string | null): LedgerEntry[] {
  // Entries are ordered by seq, not by `at`: `since` starts at the first entry written at or
  // after it, so the export is one unbroken stretch of the chain.
  const first =
    sinceIso === null
      ? null
      : (db
          .prepare<[string, string], { seq: number }>(
            "SELECT min(seq) AS seq FROM ledger WHERE subject = ? AND at >= ? AND hash IS NOT NULL",
          )
          .get(subject, sinceIso)?.seq ?? null);
  if (sinceIso !== null && first === null) return [];
  return db
    .prepare<[string, number], LedgerEntry>(
      `SELECT ${ENTRY_COLUMNS} FROM ledger
       WHERE subject = ? AND seq >= ? AND hash IS NOT NULL ORDER BY seq`,
    )
    .all(subject, first ?? 0);
}

export function ledgerAnchor(db: Db, subject: string): Anchor | null {
  return (
    db
      .prepare<[string], Anchor>(
        `SELECT hash, entries, first_at AS firstAt, last_at AS lastAt, made_at AS madeAt,
           public_key AS publicKey, signature
         FROM ledger_anchors WHERE subject = ?`,
      )
      .get(subject) ?? null
  );
}

/** Subjects with entries written before `iso`: the ones retention may cut. */
export function subjectsWithEntriesBefore(db: Db, iso: string): string[] {
  return db
    .prepare<[string], { subject: string }>(
      "SELECT DISTINCT subject FROM ledger WHERE at < ? AND hash IS NOT NULL ORDER BY subject",
    )
    .all(iso)
    .map((r) => r.subject);
}

/** The prefix of a subject's chain written before `iso`, oldest first. */
export function ledgerPrefix(db: Db, subject: string, iso: string): LedgerEntry[] {
  // The prefix ends before the first entry at or after `iso`, so what stays is one unbroken
  // stretch even where a failure's time (the database's clock) is out of order.
  const keepFrom =
    db
      .prepare<[string, string], { seq: number | null }>(
        "SELECT min(seq) AS seq FROM ledger WHERE subject = ? AND at >= ?",
      )
      .get(subject, iso)?.seq ?? null;
  return db
    .prepare<[string, number], LedgerEntry>(
      `SELECT ${ENTRY_COLUMNS} FROM ledger
       WHERE subject = ? AND hash IS NOT NULL AND seq < ? ORDER BY seq`,
    )
    .all(subject, keepFrom ?? Number.MAX_SAFE_INTEGER);
}

/** Replaces a subject's pruned prefix by its anchor: the entries go, the anchor stays signed. */
export function cutLedgerPrefix(db: Db, subject: string, throughSeq: number, anchor: Anchor): void {
  db.prepare<[string, number]>("DELETE FROM ledger WHERE subject = ? AND seq <= ?").run(
    subject,
    throughSeq,
  );
  db.prepare<{ subject: string } & Anchor>(
    `INSERT INTO ledger_anchors (subject, hash, entries, first_at, last_at, made_at, public_key, signature)
     VALUES (@subject, @hash, @entries, @firstAt, @lastAt, @madeAt, @publicKey, @signature)
     ON CONFLICT (subject) DO UPDATE SET hash = @hash, entries = @entries, first_at = @firstAt,
       last_at = @lastAt, made_at = @madeAt, public_key = @publicKey, signature = @signature`,
  ).run({ subject, ...anchor });
}

/** A case's checks written since `sinceIso` (all when null) and its newest hash: a receipt's line. */
export function ledgerReceipt(
  db: Db,
  subject: string,
  sinceIso: string | null,
): { checks: number; head: string | null } {
  const checks =
    db
      .prepare<[string, string], { n: number }>(
        `SELECT count(*) AS n FROM ledger
         WHERE subject = ? AND kind IN ('datajud_check', 'djen_check') AND at >= ?`,
      )
      .get(subject, sinceIso ?? "")?.n ?? 0;
  const head =
    db
      .prepare<[string], { hash: string }>(
        "SELECT hash FROM ledger WHERE subject = ? AND hash IS NOT NULL ORDER BY seq DESC LIMIT 1",
      )
      .get(subject)?.hash ?? null;
  return { checks, head };
}

/** A subject's checks written at or after `sinceIso`, by source and outcome (a receipt's tally). */
export interface CheckTally {
  datajud: number;
  datajudChanged: number;
  datajudFailed: number;
  djen: number;
  djenFailed: number;
}

export function checkTally(db: Db, subject: string, sinceIso: string): CheckTally {
  const rows = db
    .prepare<[string, string], { source: string; outcome: string; n: number }>(
      `SELECT source, outcome, count(*) AS n FROM ledger
       WHERE subject = ? AND kind IN ('datajud_check', 'djen_check') AND at >= ?
       GROUP BY source, outcome`,
    )
    .all(subject, sinceIso);
  const tally: CheckTally = {
    datajud: 0,
    datajudChanged: 0,
    datajudFailed: 0,
    djen: 0,
    djenFailed: 0,
  };
  for (const r of rows) {
    if (r.source === "datajud") {
      tally.datajud += r.n;
      if (r.outcome === "changed") tally.datajudChanged += r.n;
      if (r.outcome === "failed") tally.datajudFailed += r.n;
    } else if (r.source === "djen") {
      tally.djen += r.n;
      if (r.outcome === "failed") tally.djenFailed += r.n;
    }
  }
  return tally;
}
