import { createHash } from "node:crypto";

/*
 * Proof of watching (issue 36): every check of a source and every step of a delivery is an entry
 * of an append-only record, chained per subject (a case's 20 digits, an OAB registration, the
 * operator): each entry's hash covers its fields and the hash of the subject's entry before it.
 * An entry edited afterwards no longer matches its hash; an entry deleted leaves the next one
 * pointing at a hash nobody has. Pure: the store seals, the CLI exports, `proof verify` checks.
 */

/** One entry as stored and exported; `detail` is kept as the exact JSON text that was hashed. */
export interface LedgerEntry {
  seq: number;
  subject: string;
  at: string;
  /** datajud_check, djen_check, delivery */
  kind: string;
  /** datajud, djen, or the delivery's channel (email, webhook, slack...). */
  source: string;
  /** What was asked: the court's index, the DJEN source, the delivery's recipient. */
  query: string;
  outcome: string;
  /** DataJud's fingerprint of the answer, a digest of DJEN's items, a message's id. */
  answerHash: string | null;
  detail: string;
  prevHash: string | null;
  hash: string;
}

export type UnsealedEntry = Omit<LedgerEntry, "prevHash" | "hash">;

export const GENESIS = "genesis";

/**
 * The entry's hash: SHA-256 over its fields in a fixed order (a JSON array, so no field can bleed
 * into the next) and the previous entry's hash. `seq` is not covered: it only orders the rows.
 */
export function entryHash(entry: UnsealedEntry, prevHash: string | null): string {
  const fields = [
    entry.subject,
    entry.at,
    entry.kind,
    entry.source,
    entry.query,
    entry.outcome,
    entry.answerHash,
    entry.detail,
    prevHash ?? GENESIS,
  ];
  return createHash("sha256").update(JSON.stringify(fields), "utf8").digest("hex");
}

/** A digest of what a source answered: the same items give the same digest, in any order. */
export function answerDigest(items: readonly string[]): string {
  const sorted = [...items].sort();
  return createHash("sha256").update(JSON.stringify(sorted), "utf8").digest("hex");
}

export type ChainBreak = {
  /** The first entry that does not hold. */
  seq: number;
  at: string;
  why: string;
};

/**
 * Checks a subject's entries in order: each hash recomputed, each link to the entry before it.
 * `startsAfter` is the hash the first entry must point at: null from the very first entry,
 * an anchor's hash after a pruned prefix, or the hash before an export's `--since`.
 */
export function verifyChain(
  entries: readonly LedgerEntry[],
  startsAfter: string | null,
): ChainBreak | null {
  let expectedPrev = startsAfter;
  let subject: string | null = null;
  for (const entry of entries) {
    if (subject !== null && entry.subject !== subject) {
      return { seq: entry.seq, at: entry.at, why: `belongs to ${entry.subject}, not ${subject}` };
    }
    subject = entry.subject;
    if (entry.prevHash !== expectedPrev) {
      return {
        seq: entry.seq,
        at: entry.at,
        why:
          expectedPrev === null
            ? "points at an earlier entry, but it should be the first"
            : "does not point at the entry before it: an entry between them was removed or changed",
      };
    }
    if (entryHash(entry, entry.prevHash) !== entry.hash) {
      return {
        seq: entry.seq,
        at: entry.at,
        why: "its content does not match its hash: it was changed after it was written",
      };
    }
    expectedPrev = entry.hash;
  }
  return null;
}
