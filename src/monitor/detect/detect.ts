import { parseCnjNumber } from "../../datajud/cnj-number.js";
import { lookupIndices, preferIndex } from "../../datajud/courts.js";
import { DataJudError } from "../../datajud/errors.js";
import { LookupPlan } from "../../datajud/lookup-plan.js";
import { type CaseRow, getCase } from "../../store/cases.js";
import type { WatchedCase } from "../../watchlist/parse-watchlist.js";
import type { SweepRun } from "../run.js";
import type { CaseReport } from "../run-report.js";
import type { SweepDeps } from "../sweep.js";
import type { FingerprintedCase, ReadCase } from "./datajud-gateway.js";
import { judgeFingerprint, suspectAnswers } from "./judge.js";
import {
  type CheckContext,
  commitTogether,
  describeError,
  priorOf,
  recordFailure,
  recordNotFound,
  recordRead,
  recordUnchanged,
} from "./record-check.js";

/** What detection found: one report per case checked, in the order they were answered. */
export interface Detected {
  cases: CaseReport[];
  /** Stopped before every selected case was checked. */
  interrupted: boolean;
}

interface DetectContext {
  deps: SweepDeps;
  check: CheckContext;
  force: boolean;
  signal: AbortSignal;
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof DataJudError && error.kind === "cancelled");
}

/** A case on its way through the indices that may hold it. */
interface Lookup {
  watched: WatchedCase;
  row: CaseRow | undefined;
}

/**
 * The indices to ask for a case, where it was last found first: a TRF1 number is asked in TRF1
 * and, only after a clean answer without it, in TRF6 (courts.ts, SUCCESSOR_INDICES).
 */
function indicesOf(watched: WatchedCase, row: CaseRow | undefined): string[] {
  const parsed = parseCnjNumber(watched.number);
  const indices = parsed.ok ? lookupIndices(parsed.value, watched.court) : [watched.court];
  return preferIndex(indices, row?.foundIn ?? null);
}

/**
 * Detection, index by index: every selected case is fingerprinted, only what moved is read in
 * full, and each case's check (and change, if any) is committed before the next step.
 */
export async function detectChanges(
  deps: SweepDeps,
  run: SweepRun,
  selected: readonly WatchedCase[],
  force: boolean,
): Promise<Detected> {
  const { signal } = run;
  const ctx: DetectContext = {
    deps,
    check: {
      db: deps.db,
      clock: deps.clock,
      logger: deps.logger,
      settings: deps.settings,
      runId: run.id,
      write: run.write,
    },
    force,
    signal,
  };
  const cases: CaseReport[] = [];
  // One request per index for every case waiting for it: grouped by the index each case is
  // asked next, not by the court it is filed under.
  const plan = new LookupPlan<Lookup>();
  for (const watched of selected) {
    const row = getCase(deps.db, watched.digits, watched.court);
    plan.add({ watched, row }, indicesOf(watched, row));
  }
  for (let step = plan.next(); step !== undefined; step = plan.next()) {
    if (signal.aborted) return { cases, interrupted: true };
    const checked = await checkIndex(ctx, plan, step.index, step.items);
    cases.push(...checked.results);
    if (checked.interrupted) return { cases, interrupted: true };
  }
  return { cases, interrupted: false };
}

/**
 * Asks one index about the cases waiting for it. A case DataJud answered cleanly without is
 * queued at its next candidate index when it has one (its check is recorded there), and is
 * "not found" only when no candidate is left; a failed answer is a failed check for every case
 * asked, never a reason to look elsewhere.
 */
async function checkIndex(
  ctx: DetectContext,
  plan: LookupPlan<Lookup>,
  index: string,
  lookups: readonly Lookup[],
): Promise<{ results: CaseReport[]; interrupted: boolean }> {
  const { deps, signal } = ctx;
  let fingerprints: FingerprintedCase[];
  try {
    fingerprints = await deps.gateway.fingerprint(
      index,
      lookups.map((l) => l.watched.number),
      signal,
    );
  } catch (error) {
    if (isAbort(error, signal)) return { results: [], interrupted: true };
    deps.logger.warn(
      { court: index, cases: lookups.length, error: describeError(error) },
      "DataJud fingerprint query failed",
    );
    const results = commitTogether(ctx.check, () =>
      lookups.map((l) => recordFailure(ctx.check, l.watched, l.row, error)),
    );
    return { results, interrupted: false };
  }
  const byNumber = new Map(fingerprints.map((f) => [f.cnjNumber, f]));
  const suspect = suspectAnswers(
    lookups.flatMap(({ watched, row }) => {
      const fp = byNumber.get(watched.number);
      const prior = priorOf(row);
      return fp === undefined
        ? []
        : [
            {
              answer: answerOf(fp),
              found: fp.found,
              seenBefore: prior.seenBefore && prior.goneAt === null,
            },
          ];
    }),
  );
  const results: CaseReport[] = [];
  const toRead: Array<{ lookup: Lookup; fingerprint: FingerprintedCase }> = [];
  const now = deps.clock.now();
  commitTogether(ctx.check, () => {
    for (const lookup of lookups) {
      const { watched, row } = lookup;
      const fp = byNumber.get(watched.number);
      if (!fp) {
        const missing = new DataJudError(
          "bad_response",
          "DataJud's answer did not include this case; will retry",
          {
            retryable: true,
          },
        );
        results.push(recordFailure(ctx.check, watched, row, missing));
        continue;
      }
      if (!fp.found && suspect.has(answerOf(fp))) {
        const vanished = new DataJudError(
          "bad_response",
          "every case of this answer seen before is missing from it at once: read as a broken DataJud answer, not as cases that left; will retry",
          { retryable: true },
        );
        results.push(recordFailure(ctx.check, watched, row, vanished));
        continue;
      }
      if (!fp.found) {
        const next = plan.notFound(lookup);
        if (next === null) results.push(recordNotFound(ctx.check, watched, row, fp));
        else
          deps.logger.debug(
            { number: watched.number, from: index, to: next },
            "not in this index; asking the next",
          );
        continue;
      }
      const verdict = judgeFingerprint(priorOf(row), fp.fingerprint ?? "", {
        now,
        fullRereadDays: deps.settings.fullRereadDays,
        force: ctx.force,
      });
      if (verdict.action === "unchanged") {
        results.push(recordUnchanged(ctx.check, watched, row, fp, index));
      } else {
        toRead.push({ lookup, fingerprint: fp });
      }
    }
  });
  if (toRead.length === 0) return { results, interrupted: false };

  let full: ReadCase[];
  try {
    full = await deps.gateway.read(
      index,
      toRead.map((t) => t.lookup.watched.number),
      signal,
    );
  } catch (error) {
    if (isAbort(error, signal)) return { results, interrupted: true };
    deps.logger.warn(
      { court: index, cases: toRead.length, error: describeError(error) },
      "DataJud full read failed",
    );
    results.push(
      ...toRead.map((t) => recordFailure(ctx.check, t.lookup.watched, t.lookup.row, error)),
    );
    return { results, interrupted: false };
  }
  const fullByNumber = new Map(full.map((f) => [f.cnjNumber, f]));
  for (const { lookup, fingerprint } of toRead) {
    const { watched, row } = lookup;
    const read = fullByNumber.get(watched.number);
    if (read?.error) {
      const unread = new DataJudError(
        read.error.kind === "too_large" ? "too_large" : "bad_response",
        read.error.message,
        { retryable: false },
      );
      results.push(recordFailure(ctx.check, watched, row, unread));
      continue;
    }
    if (!read?.found) {
      // Seen by the fingerprint query a moment ago: a vanished record is DataJud flux, not an absence.
      const flux = new DataJudError(
        "bad_response",
        "DataJud returned the case's fingerprint but not its record; will retry next sweep",
        { retryable: true },
      );
      results.push(recordFailure(ctx.check, watched, row, flux));
      continue;
    }
    results.push(recordRead(ctx.check, watched, row, fingerprint, read, index));
  }
  return { results, interrupted: false };
}

/** One DataJud answer: the cases of one batch request share its provenance. */
function answerOf(fp: FingerprintedCase): string {
  return `${fp.provenance.url}|${fp.provenance.fetchedAt}`;
}
