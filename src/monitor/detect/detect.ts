import { setMaxListeners } from "node:events";
import { followAbort } from "../../abort.js";
import { parseCnjNumber } from "../../datajud/cnj-number.js";
import { lookupIndices, preferIndex } from "../../datajud/courts.js";
import { DataJudError } from "../../datajud/errors.js";
import { LookupPlan } from "../../datajud/lookup-plan.js";
import type { Logger } from "../../log.js";
import { type CaseRow, getCase } from "../../store/cases.js";
import type { CheckOutcome } from "../../store/checks.js";
import type { Db } from "../../store/database.js";
import type { Clock } from "../../time/clock.js";
import type { WatchedCase } from "../../watchlist/parse-watchlist.js";
import type { SweepRun } from "../run.js";
import type { CaseReport } from "../run-report.js";
import { tellListener } from "../sweep-events.js";
import { type BatchJob, BatchScheduler, runJobs } from "./batch-scheduler.js";
import type { DataJudGateway, FingerprintedCase, ReadCase } from "./datajud-gateway.js";
import { judgeFingerprint, suspectAnswers } from "./judge.js";
import {
  type CheckContext,
  type CheckSettings,
  commitTogether,
  describeError,
  priorOf,
  recordFailure,
  recordNotFound,
  recordRead,
  recordUnchanged,
} from "./record-check.js";
import { UnreachableStop } from "./unreachable.js";

export interface DetectSettings extends CheckSettings {
  /** Days after which an unchanged case is read in full anyway (schedule.fullRereadDays). */
  fullRereadDays: number;
  /**
   * DataJud requests the sweep keeps going at once (datajud.concurrency): the most batches of
   * full records it holds at once. The DataJud client's gate may let fewer through.
   */
  concurrency: number;
  /** Case numbers per DataJud request (datajud.batchSize). */
  batchSize: number;
}

/** What detection uses: the database, DataJud (through the MCP tools), time, and its listener. */
export interface DetectDeps {
  db: Db;
  gateway: DataJudGateway;
  clock: Clock;
  logger: Logger;
  settings: DetectSettings;
  /** Told as detection goes (batches asked and answered), for progress and metrics. */
  onEvent?: ((event: DetectEvent) => void) | undefined;
}

/** What detection found: one report per case checked, in the order of the cases selected. */
export interface Detected {
  cases: CaseReport[];
  /** Stopped before every selected case was checked. */
  interrupted: boolean;
  /** Why DataJud was not asked about the rest, when it could not be reached at all; else null. */
  unreachable: string | null;
}

/** Which of a case's two DataJud requests: the cheap fingerprint, or the full record. */
export type DetectStep = "fingerprint" | "read";

/**
 * Detection as it goes, for a progress display, metrics or an early stop. Stable: new kinds may
 * be added, these keep their fields.
 */
export type DetectEvent =
  | {
      /** Before the first request: how many cases, by the index each is asked first. */
      type: "planned";
      cases: number;
      byIndex: Record<string, number>;
      /** The same cases by the court the watchlist names for each (a TRF1 number read in TRF6 is trf1's). */
      byCourt: Record<string, number>;
    }
  | { type: "batch-start"; step: DetectStep; index: string; cases: number }
  | {
      type: "batch-end";
      step: DetectStep;
      index: string;
      cases: number;
      /** null: DataJud answered; else the request failed, and so did each of its cases' checks. */
      error: { kind: string; message: string } | null;
      /** Checks recorded from this answer, by outcome; a case sent on to its next index or to a full read has none yet. */
      outcomes: Partial<Record<CheckOutcome, number>>;
    }
  | {
      /**
       * Detection is over: every case asked, or DataJud unreachable, or the sweep stopped. What
       * follows (DJEN, mail) no longer waits on DataJud.
       */
      type: "detection-end";
      interrupted: boolean;
    }
  | {
      /** One case's check recorded (decided, on a dry run), under its watchlist court. */
      type: "case-checked";
      court: string;
      outcome: CheckOutcome;
    };

/** A case on its way through the indices that may hold it. */
interface Lookup {
  watched: WatchedCase;
  row: CaseRow | undefined;
  /**
   * An earlier index's answer missed it together with every other case seen before: if no
   * index has it, that answer is the likelier explanation, and the check fails.
   */
  missedBySuspectAnswer: boolean;
}

interface ToRead {
  lookup: Lookup;
  fingerprint: FingerprintedCase;
}

type Job = BatchJob<Lookup, ToRead>;

/**
 * The indices to ask for a case, where it was last found first: a TRF1 number is asked in TRF1
 * and, only after a clean answer without it, in TRF6 (courts.ts, SUCCESSOR_INDICES).
 */
function indicesOf(watched: WatchedCase, row: CaseRow | undefined): string[] {
  const parsed = parseCnjNumber(watched.number);
  const indices = parsed.ok ? lookupIndices(parsed.value, watched.court) : [watched.court];
  return preferIndex(indices, row?.foundIn ?? null);
}

function tally(reports: readonly CaseReport[]): Partial<Record<CheckOutcome, number>> {
  const counts: Partial<Record<CheckOutcome, number>> = {};
  for (const r of reports) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
  return counts;
}

/** One DataJud answer: the cases of one batch request share its provenance. */
function answerOf(fp: FingerprintedCase): string {
  return `${fp.provenance.url}|${fp.provenance.fetchedAt}`;
}

/**
 * Detection: every selected case is fingerprinted, only what moved is read in full, and each
 * answer's checks (and changes) are committed as it arrives. Up to `settings.concurrency`
 * requests are in flight at once, across courts and across the batches of one court, full reads
 * and fingerprints taking turns; the DataJud client's gate decides how many of them actually go
 * at once.
 */
export async function detectChanges(
  deps: DetectDeps,
  run: SweepRun,
  selected: readonly WatchedCase[],
  force: boolean,
): Promise<Detected> {
  return new Detection(deps, run, selected, force).run();
}

class Detection {
  readonly #deps: DetectDeps;
  readonly #check: CheckContext;
  readonly #force: boolean;
  readonly #run: SweepRun;
  readonly #lookups: Lookup[];
  readonly #plan = new LookupPlan<Lookup>();
  /** Follows the sweep's signal; also aborted by a failure that ends the sweep. */
  readonly #stop = new AbortController();
  /**
   * The signal DataJud queries carry: follows `#stop`, and is also aborted when DataJud cannot
   * be reached, which cancels the queries in flight without stopping the sweep.
   */
  readonly #requests = new AbortController();
  readonly #unreachable = new UnreachableStop(this.#requests);
  readonly #reports = new Map<Lookup, CaseReport>();
  /** Which request goes next (batch-scheduler.ts); this class judges what comes back. */
  readonly #scheduler: BatchScheduler<Lookup, ToRead>;
  #interrupted = false;
  #fatal: { error: unknown } | undefined;

  constructor(deps: DetectDeps, run: SweepRun, selected: readonly WatchedCase[], force: boolean) {
    this.#deps = deps;
    this.#run = run;
    this.#force = force;
    this.#check = {
      db: deps.db,
      clock: deps.clock,
      logger: deps.logger,
      settings: deps.settings,
      runId: run.id,
      write: run.write,
    };
    this.#scheduler = new BatchScheduler(deps.settings.batchSize);
    this.#lookups = selected.map((watched) => ({
      watched,
      row: getCase(deps.db, watched.digits, watched.court),
      missedBySuspectAnswer: false,
    }));
    // One listener per request in flight: more than Node's default of 10 is expected here.
    const listeners = Math.max(10, deps.settings.concurrency * 2 + 10);
    setMaxListeners(listeners, this.#stop.signal, this.#requests.signal);
  }

  async run(): Promise<Detected> {
    const byIndex: Record<string, number> = {};
    const byCourt: Record<string, number> = {};
    // One request per index for every case waiting for it: grouped by the index each case is
    // asked next, not by the court it is filed under.
    for (const lookup of this.#lookups) {
      const indices = indicesOf(lookup.watched, lookup.row);
      this.#plan.add(lookup, indices);
      const first = indices[0] ?? lookup.watched.court;
      byIndex[first] = (byIndex[first] ?? 0) + 1;
      byCourt[lookup.watched.court] = (byCourt[lookup.watched.court] ?? 0) + 1;
    }
    this.#emit({ type: "planned", cases: this.#lookups.length, byIndex, byCourt });
    const unfollow = followAbort(this.#run.signal, this.#stop);
    const unfollowRequests = followAbort(this.#stop.signal, this.#requests);
    try {
      await runJobs({
        concurrency: this.#deps.settings.concurrency,
        signal: this.#stop.signal,
        next: () => this.#nextJob(),
        perform: (job) => this.#perform(job),
      });
      if (this.#stop.signal.aborted) {
        if (!this.#plan.done) this.#interrupted = true;
      } else if (!this.#plan.done && this.#fatal === undefined) {
        // Nothing runs and nothing can start, yet cases wait: a bug, never a quiet partial sweep.
        this.#fatal = { error: new Error("detection stalled with cases still to ask DataJud") };
      }
    } finally {
      unfollowRequests();
      unfollow();
      this.#emit({ type: "detection-end", interrupted: this.#interrupted });
    }
    if (this.#fatal !== undefined) throw this.#fatal.error;
    const cases = this.#lookups.flatMap((l) => {
      const report = this.#reports.get(l);
      return report === undefined ? [] : [report];
    });
    const unreachable = this.#unreachable.reason;
    if (unreachable !== null) {
      this.#deps.logger.error(
        { cases: cases.length, error: unreachable },
        "DataJud could not be reached: the rest of the sweep was not asked",
      );
    }
    return { cases, interrupted: this.#interrupted, unreachable };
  }

  /** The next request: cases the plan says are ready for an index join its batches first. */
  #nextJob(): Job | undefined {
    for (let step = this.#plan.take(); step !== undefined; step = this.#plan.take()) {
      this.#scheduler.fingerprint(step.index, step.items);
    }
    return this.#scheduler.next();
  }

  async #perform(job: Job): Promise<void> {
    try {
      if (job.step === "fingerprint") await this.#fingerprint(job.index, job.lookups);
      else await this.#read(job.index, job.items);
    } catch (error) {
      // Not DataJud's failure (that is a failed check): the database or a bug. The sweep fails
      // as it did before, once the requests still in flight are cancelled.
      if (this.#fatal === undefined) this.#fatal = { error };
      this.#stop.abort(error);
    }
  }

  /**
   * What a failed query means: null when the sweep was stopped (SIGTERM, the lease lost: what is
   * committed stays), else the error its cases' checks fail with. Once DataJud could not be
   * reached, a query cancelled in flight or never sent fails with that reason.
   */
  #failure(error: unknown): unknown | null {
    if (this.#stop.signal.aborted) return null;
    const cancelled =
      this.#requests.signal.aborted ||
      (error instanceof DataJudError && error.kind === "cancelled");
    if (this.#unreachable.failed(error)) return cancelled ? this.#unreachable.error : error;
    return cancelled ? null : error;
  }

  /**
   * One request about a batch of one index's cases, told as it starts and ends. DataJud's answer
   * is recorded by `record`; a failed request is a failed check for every case asked, committed
   * together, and ends their lookups where they are (never "not there, try the next index").
   * False when the sweep was stopped meanwhile: nothing is recorded then.
   */
  async #ask<A>(
    step: DetectStep,
    index: string,
    lookups: readonly Lookup[],
    request: (numbers: string[], signal: AbortSignal) => Promise<A>,
    record: (answer: A) => CaseReport[],
  ): Promise<boolean> {
    const cases = lookups.length;
    this.#emit({ type: "batch-start", step, index, cases });
    // DataJud could not be reached: the rest of the sweep is recorded as failed without asking.
    const notAsked = this.#unreachable.error;
    let answer: A;
    try {
      if (notAsked !== null) throw notAsked;
      answer = await request(
        lookups.map((l) => l.watched.number),
        this.#requests.signal,
      );
      this.#unreachable.answered();
    } catch (thrown) {
      const error = this.#failure(thrown);
      if (error === null) {
        this.#interrupted = true;
        return false;
      }
      const described = describeError(error);
      // Queries not sent or cancelled once DataJud proved unreachable say so once, at the end.
      if (error !== this.#unreachable.error) {
        this.#deps.logger.warn(
          { court: index, cases, error: described },
          step === "fingerprint" ? "DataJud fingerprint query failed" : "DataJud full read failed",
        );
      }
      const reports = commitTogether(this.#check, () =>
        lookups.map((l) => {
          this.#plan.settle(l);
          return this.#keep(l, recordFailure(this.#check, l.watched, l.row, error));
        }),
      );
      this.#emit({
        type: "batch-end",
        step,
        index,
        cases,
        error: described,
        outcomes: tally(reports),
      });
      return true;
    }
    const reports = record(answer);
    this.#emit({ type: "batch-end", step, index, cases, error: null, outcomes: tally(reports) });
    return true;
  }

  /**
   * Fingerprints a batch of the cases waiting for an index. A case DataJud answered cleanly
   * without goes on to its next candidate index when it has one (its check is recorded there).
   */
  async #fingerprint(index: string, lookups: Lookup[]): Promise<void> {
    const answered = await this.#ask(
      "fingerprint",
      index,
      lookups,
      (numbers, signal) => this.#deps.gateway.fingerprint(index, numbers, signal),
      (fingerprints) => this.#judge(index, lookups, fingerprints),
    );
    if (answered) this.#scheduler.fingerprintAnswered(index);
  }

  /** The checks a fingerprint answer settles, committed together; the rest go on. */
  #judge(
    index: string,
    lookups: readonly Lookup[],
    fingerprints: FingerprintedCase[],
  ): CaseReport[] {
    const deps = this.#deps;
    const check = this.#check;
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
    const now = deps.clock.now();
    const reports: CaseReport[] = [];
    commitTogether(check, () => {
      for (const lookup of lookups) {
        const { watched, row } = lookup;
        const fp = byNumber.get(watched.number);
        if (!fp) {
          this.#plan.settle(lookup);
          const missing = new DataJudError(
            "bad_response",
            "DataJud's answer did not include this case; will retry",
            { retryable: true },
          );
          reports.push(this.#keep(lookup, recordFailure(check, watched, row, missing)));
          continue;
        }
        if (!fp.found) {
          const missedBySuspect = lookup.missedBySuspectAnswer || suspect.has(answerOf(fp));
          // The court that took the case over is asked before any answer is doubted: a mass
          // move to a successor index (TRF1 to TRF6) empties the first answer of every case.
          const next = this.#plan.notFound(lookup);
          if (next !== null) {
            lookup.missedBySuspectAnswer = missedBySuspect;
            deps.logger.debug(
              { number: watched.number, from: index, to: next },
              "not in this index; asking the next",
            );
            continue;
          }
          if (missedBySuspect) {
            const vanished = new DataJudError(
              "bad_response",
              "every case of this answer seen before is missing from it at once: read as a broken DataJud answer, not as cases that left; will retry",
              { retryable: true },
            );
            reports.push(this.#keep(lookup, recordFailure(check, watched, row, vanished)));
          } else {
            reports.push(this.#keep(lookup, recordNotFound(check, watched, row, fp)));
          }
          continue;
        }
        this.#plan.settle(lookup);
        const verdict = judgeFingerprint(priorOf(row), fp.fingerprint ?? "", {
          now,
          fullRereadDays: deps.settings.fullRereadDays,
          force: this.#force,
        });
        if (verdict.action === "unchanged") {
          reports.push(this.#keep(lookup, recordUnchanged(check, watched, row, fp, index)));
        } else {
          this.#scheduler.read(index, { lookup, fingerprint: fp });
        }
      }
    });
    return reports;
  }

  /** Full records of the cases of one index that moved, each committed with its change. */
  async #read(index: string, items: ToRead[]): Promise<void> {
    await this.#ask(
      "read",
      index,
      items.map((t) => t.lookup),
      (numbers, signal) => this.#deps.gateway.read(index, numbers, signal),
      (full) => this.#recordReads(index, items, full),
    );
  }

  #recordReads(index: string, items: readonly ToRead[], full: readonly ReadCase[]): CaseReport[] {
    const check = this.#check;
    const fullByNumber = new Map(full.map((f) => [f.cnjNumber, f]));
    const reports: CaseReport[] = [];
    for (const { lookup, fingerprint } of items) {
      const { watched, row } = lookup;
      const read = fullByNumber.get(watched.number);
      if (read?.error) {
        const unread = new DataJudError(
          read.error.kind === "too_large" ? "too_large" : "bad_response",
          read.error.message,
          { retryable: false },
        );
        reports.push(this.#keep(lookup, recordFailure(check, watched, row, unread)));
        continue;
      }
      if (!read?.found) {
        // Seen by the fingerprint query a moment ago: a vanished record is DataJud flux, not an absence.
        const flux = new DataJudError(
          "bad_response",
          "DataJud returned the case's fingerprint but not its record; will retry next sweep",
          { retryable: true },
        );
        reports.push(this.#keep(lookup, recordFailure(check, watched, row, flux)));
        continue;
      }
      reports.push(this.#keep(lookup, recordRead(check, watched, row, fingerprint, read, index)));
    }
    return reports;
  }

  #keep(lookup: Lookup, report: CaseReport): CaseReport {
    this.#reports.set(lookup, report);
    this.#emit({ type: "case-checked", court: report.court, outcome: report.outcome });
    return report;
  }

  #emit(event: DetectEvent): void {
    tellListener(this.#deps.onEvent, event);
  }
}
