import type { KeyObject } from "node:crypto";
import type { Logger } from "../log.js";
import { verifyChain } from "../proof/chain.js";
import { signAnchor } from "../proof/record.js";
import { compactUnchangedChecks, deleteChecksBefore } from "../store/checks.js";
import { type Db, immediate, optimize } from "../store/database.js";
import {
  cutLedgerPrefix,
  ledgerAnchor,
  ledgerPrefix,
  sealLedger,
  subjectsWithEntriesBefore,
} from "../store/ledger.js";

const DAY_MS = 86_400_000;

/**
 * The daily retention job: unchanged checks that are no longer a case's latest are folded into
 * their run's tally (a count per run instead of a row per case); with `days` above 0, checks and
 * tallies older than that go (each case keeps its latest). The planner's statistics follow.
 */
export function pruneOldChecks(db: Db, now: number, days: number, logger: Logger): number {
  const cutoff = days > 0 ? new Date(now - days * DAY_MS).toISOString() : null;
  const { folded, deleted } = immediate(db, () => ({
    folded: compactUnchangedChecks(db),
    deleted: cutoff === null ? 0 : deleteChecksBefore(db, cutoff),
  }));
  optimize(db);
  logger.info({ folded, deleted, cutoff }, "old checks folded and deleted");
  return deleted;
}

export interface LedgerPruning {
  subjects: number;
  entries: number;
  /** Subjects whose old entries no longer verify: kept whole, and logged. */
  broken: string[];
}

/**
 * The record of watching past `days`: each subject's entries before the cutoff are replaced by
 * one anchor signed with `key`, holding the last pruned hash and how many entries it stands for,
 * so what stays still verifies from it. A prefix that no longer verifies is not anchored (that
 * would sign over a tampering): it stays, and the error says which subject.
 */
export function pruneLedger(
  db: Db,
  now: number,
  days: number,
  key: KeyObject,
  logger: Logger,
): LedgerPruning {
  const result: LedgerPruning = { subjects: 0, entries: 0, broken: [] };
  if (days <= 0) return result;
  const cutoff = new Date(now - days * DAY_MS).toISOString();
  const madeAt = new Date(now).toISOString();
  immediate(db, () => {
    sealLedger(db);
    for (const subject of subjectsWithEntriesBefore(db, cutoff)) {
      const prefix = ledgerPrefix(db, subject, cutoff);
      const last = prefix.at(-1);
      if (last === undefined) continue;
      const before = ledgerAnchor(db, subject);
      if (verifyChain(prefix, before?.hash ?? null) !== null) {
        result.broken.push(subject);
        continue;
      }
      const anchor = signAnchor(
        subject,
        {
          hash: last.hash,
          entries: (before?.entries ?? 0) + prefix.length,
          firstAt: before?.firstAt ?? prefix[0]?.at ?? null,
          lastAt: last.at,
          madeAt,
        },
        key,
      );
      cutLedgerPrefix(db, subject, last.seq, anchor);
      result.subjects++;
      result.entries += prefix.length;
    }
  });
  if (result.broken.length > 0) {
    logger.error(
      { subjects: result.broken },
      "record of watching: old entries that no longer verify were kept, not anchored; run proof verify on an export of each",
    );
  }
  logger.info(
    { subjects: result.subjects, entries: result.entries, cutoff },
    "old entries of the record of watching anchored",
  );
  return result;
}
