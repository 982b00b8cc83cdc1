import { isUnstamped } from "../../datajud/normalize.js";

export interface PriorState {
  /** We hold at least one stored record of this case. */
  seenBefore: boolean;
  storedFingerprint: string | null;
  lastFullReadAt: string | null;
  consecutiveNotFound: number;
  goneAt: string | null;
}

export type FingerprintVerdict =
  | {
      action: "read";
      reason:
        | "first_check"
        | "fingerprint_moved"
        | "full_reread_due"
        | "forced"
        | "reappeared"
        | "unstamped";
    }
  | { action: "unchanged" };

/** Whether a case's full record must be read, from its fingerprint alone. */
export function judgeFingerprint(
  prior: PriorState,
  fingerprint: string,
  options: { now: number; fullRereadDays: number; force: boolean },
): FingerprintVerdict {
  if (!prior.seenBefore) return { action: "read", reason: "first_check" };
  if (options.force) return { action: "read", reason: "forced" };
  if (prior.goneAt !== null || prior.consecutiveNotFound > 0)
    return { action: "read", reason: "reappeared" };
  // No update times (the STJ's partial answers): only the record's content tells whether it moved.
  if (isUnstamped(fingerprint)) return { action: "read", reason: "unstamped" };
  if (prior.storedFingerprint !== fingerprint)
    return { action: "read", reason: "fingerprint_moved" };
  const lastRead = prior.lastFullReadAt === null ? 0 : Date.parse(prior.lastFullReadAt);
  // The guard against a record that changed without DataJud moving its update times.
  if (options.now - lastRead >= options.fullRereadDays * 86_400_000) {
    return { action: "read", reason: "full_reread_due" };
  }
  return { action: "unchanged" };
}

export interface NotFoundVerdict {
  consecutiveNotFound: number;
  /** True on the answer that crosses the threshold: the case is now considered gone. */
  declareGone: boolean;
}

/**
 * A clean "not found" for a case we have seen is usually DataJud reindexing; only several in a row
 * declare it gone. A DataJud failure never reaches here.
 */
export function judgeNotFound(prior: PriorState, threshold: number): NotFoundVerdict {
  const consecutiveNotFound = prior.consecutiveNotFound + 1;
  return {
    consecutiveNotFound,
    declareGone: prior.seenBefore && prior.goneAt === null && consecutiveNotFound >= threshold,
  };
}

/** Fewer cases seen before than this in one answer, and a clean "not found" is taken as said. */
const SUSPECT_MIN_SEEN = 2;

export interface AnsweredCase {
  /** Which DataJud answer (one batch request) the case's result came from. */
  answer: string;
  found: boolean;
  /** Seen in DataJud before and not already declared gone. */
  seenBefore: boolean;
}

/**
 * The answers whose "not found" is not believed: those in which every case seen before (two or
 * more) is missing at once. Cases do leave DataJud, but not all of a batch in one sweep; that is a
 * broken or reindexing answer, a failed check, never a mass disappearance.
 */
export function suspectAnswers(cases: readonly AnsweredCase[]): Set<string> {
  const seen = new Map<string, { seen: number; missing: number }>();
  for (const c of cases) {
    if (!c.seenBefore) continue;
    const tally = seen.get(c.answer) ?? { seen: 0, missing: 0 };
    tally.seen++;
    if (!c.found) tally.missing++;
    seen.set(c.answer, tally);
  }
  const suspect = new Set<string>();
  for (const [answer, tally] of seen) {
    if (tally.seen >= SUSPECT_MIN_SEEN && tally.missing === tally.seen) suspect.add(answer);
  }
  return suspect;
}
