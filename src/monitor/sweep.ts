import { followAbort } from "../abort.js";
import { parseCnjNumber } from "../datajud/cnj-number.js";
import { lookupIndices, preferIndex } from "../datajud/courts.js";
import { DataJudError } from "../datajud/errors.js";
import { LookupPlan } from "../datajud/lookup-plan.js";
import type { Logger } from "../log.js";
import type { SweepTally } from "../policy/health.js";
import {
  type CaseCheckPatch,
  type CaseRow,
  getCase,
  syncWatchedCases,
  updateCaseAfterCheck,
} from "../store/cases.js";
import { insertChange } from "../store/changes.js";
import { type CheckOutcome, type NewCheck, recordCheck } from "../store/checks.js";
import { type Db, immediate } from "../store/database.js";
import { listInstances, upsertInstance } from "../store/instances.js";
import {
  acquireLease,
  holderIsDeadOnHost,
  leaseHolder,
  releaseLease,
  renewLease,
} from "../store/lease.js";
import { applyMovementPlan, listStoredMovements } from "../store/movements.js";
import { finishRun, markStaleRunsCrashed, startRun } from "../store/runs.js";
import { realSystem, type System } from "../system.js";
import type { Clock } from "../time/clock.js";
import type { WatchedCase } from "../watchlist/parse-watchlist.js";
import type { DataJudGateway, FingerprintedCase, ReadCase } from "./detect/datajud-gateway.js";
import { type CaseDiff, diffCase, isRealChange, type StoredInstance } from "./detect/diff.js";
import {
  judgeFingerprint,
  judgeNotFound,
  type PriorState,
  suspectAnswers,
} from "./detect/judge.js";
import type { CaseReport, RunReport } from "./run-report.js";

export interface SweepSettings {
  fullRereadDays: number;
  notFoundThreshold: number;
  /** Also report a case's first check (its current state) to its watchers. */
  notifyOnBaseline?: boolean;
}

export interface SweepDeps {
  db: Db;
  gateway: DataJudGateway;
  clock: Clock;
  logger: Logger;
  settings: SweepSettings;
  /** DataJud HTTP requests sent so far by this process, for the report. */
  datajudRequests: () => number;
  /**
   * What happens to committed changes: summaries, the outbox, delivery. Runs under the lease,
   * after every detected change of this sweep is in the database; skipped on a dry run.
   */
  afterDetection?: (signal: AbortSignal, sweep: SweepTally) => Promise<AfterDetection>;
  /** Identifies this process in the lease (default: pid@host:random). */
  holder?: string;
  random?: () => number;
  /** This process and its host, for the lease and its renewal timer (default: the real ones). */
  host?: Pick<System, "hostname" | "pid" | "isAlive" | "every">;
}

export interface AfterDetection {
  llmCalls: number;
  emailsQueued: number;
  emailsSent: number;
}

export interface SweepOptions {
  /** The whole watchlist: kept in sync with the database. */
  watchlist: readonly WatchedCase[];
  /** The cases to check now (default: all of the watchlist). */
  selected?: readonly WatchedCase[];
  force: boolean;
  dryRun: boolean;
  trigger: "schedule" | "manual" | "demo" | "startup";
  signal?: AbortSignal;
}

export class LeaseBusyError extends Error {
  override readonly name = "LeaseBusyError";
  constructor(holder: string, expiresAt: string) {
    super(
      `another sweep holds the database (${holder}, until ${expiresAt}); wait for it to finish, or stop the other monitor process`,
    );
  }
}

const LEASE_TTL_MS = 10 * 60_000;

interface Checked {
  report: CaseReport;
}

function describe(error: unknown): { kind: string; message: string } {
  if (error instanceof DataJudError) return { kind: error.kind, message: error.message };
  return { kind: "internal", message: error instanceof Error ? error.message : String(error) };
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

function priorOf(row: CaseRow | undefined): PriorState {
  return {
    seenBefore: row?.firstSeenAt != null,
    storedFingerprint: row?.lastFingerprint ?? null,
    lastFullReadAt: row?.lastFullReadAt ?? null,
    consecutiveNotFound: row?.consecutiveNotFound ?? 0,
    goneAt: row?.goneAt ?? null,
  };
}

/**
 * One sweep: fingerprints every selected case court by court, reads in full only what moved,
 * and commits each case's check (and change, if any) in one transaction before anything else
 * happens with it. The daemon's tick and `monitor run-once` both call this.
 */
export async function runSweep(deps: SweepDeps, options: SweepOptions): Promise<RunReport> {
  const { db, clock, logger } = deps;
  const random = deps.random ?? Math.random;
  const host = deps.host ?? realSystem;
  const hostName = host.hostname();
  const holder =
    deps.holder ??
    leaseHolder(
      host.pid,
      hostName,
      Math.floor(random() * 0xffffffff)
        .toString(16)
        .padStart(8, "0"),
    );
  const startedAt = new Date(clock.now()).toISOString();
  const requestsBefore = deps.datajudRequests();
  const write = !options.dryRun;

  if (write) {
    const lease = acquireLease(db, {
      holder,
      now: clock.now(),
      ttlMs: LEASE_TTL_MS,
      holderIsDead: (other) => holderIsDeadOnHost(other, hostName, host.isAlive),
    });
    if (!lease.ok) throw new LeaseBusyError(lease.holder, lease.expiresAt);
  }
  // This sweep stops when the caller aborts or when a lease renewal fails (we stalled past its
  // expiry and another process took it).
  const stop = new AbortController();
  const unfollow = followAbort(options.signal, stop);
  const stopRenewing = write
    ? host.every(LEASE_TTL_MS / 3, () => {
        if (!renewLease(db, holder, clock.now(), LEASE_TTL_MS)) {
          logger.error({ holder }, "sweep lease lost to another process; stopping this sweep");
          stop.abort(new Error("lease lost"));
        }
      })
    : undefined;
  const signal = stop.signal;

  try {
    let runId: number | null = null;
    if (write) {
      immediate(db, () => {
        // Only one sweep runs at a time (the lease), so any run still "running" died mid-way.
        markStaleRunsCrashed(db);
        syncWatchedCases(
          db,
          options.watchlist.map((c) => ({
            number: c.number,
            digits: c.digits,
            court: c.court,
            label: c.label,
            watchers: c.notify,
          })),
          startedAt,
        );
        runId = startRun(db, { startedAt, trigger: options.trigger });
      });
    }
    const context: CourtContext = { deps, options: { ...options, signal }, runId, write };
    const reports: CaseReport[] = [];
    let interrupted = false;
    // One request per index for every case waiting for it: grouped by the index each case is
    // asked next, not by the court it is filed under.
    const plan = new LookupPlan<Lookup>();
    for (const watched of options.selected ?? options.watchlist) {
      const row = getCase(db, watched.digits, watched.court);
      plan.add({ watched, row }, indicesOf(watched, row));
    }
    for (let step = plan.next(); step !== undefined; step = plan.next()) {
      if (signal.aborted) {
        interrupted = true;
        break;
      }
      const checked = await checkIndex(context, plan, step.index, step.items);
      reports.push(...checked.results.map((r) => r.report));
      if (checked.interrupted) {
        interrupted = true;
        break;
      }
    }
    let after: AfterDetection = { llmCalls: 0, emailsQueued: 0, emailsSent: 0 };
    if (write && runId !== null && deps.afterDetection && !signal.aborted) {
      const tally: SweepTally = {
        runId,
        startedAt,
        checked: reports.length,
        failed: reports.filter((r) => r.outcome === "failed").length,
        interrupted,
      };
      try {
        after = await deps.afterDetection(signal, tally);
      } catch (error) {
        // Stopped mid-summary or mid-send: what is committed stays, the next run completes it.
        if (!signal.aborted) throw error;
        interrupted = true;
      }
    }
    const report: RunReport = {
      startedAt,
      finishedAt: new Date(clock.now()).toISOString(),
      checked: reports.length,
      changed: reports.filter((r) => r.outcome === "changed").length,
      failed: reports.filter((r) => r.outcome === "failed").length,
      datajudRequests: deps.datajudRequests() - requestsBefore,
      ...after,
      dryRun: options.dryRun,
      interrupted,
      cases: reports,
    };
    if (write && runId !== null) {
      const id = runId;
      // Unchanged cases are the bulk of every run and are already rows in `checks`; keeping them
      // out of the stored report stops `runs` from growing by the watchlist's size per sweep.
      const stored = { ...report, cases: report.cases.filter((c) => c.outcome !== "unchanged") };
      immediate(db, () => finishRun(db, id, { finishedAt: report.finishedAt, report: stored }));
    }
    logger.info(
      {
        checked: report.checked,
        changed: report.changed,
        failed: report.failed,
        datajudRequests: report.datajudRequests,
        interrupted,
        dryRun: options.dryRun,
      },
      "sweep finished",
    );
    return report;
  } finally {
    stopRenewing?.();
    unfollow();
    if (write) releaseLease(db, holder);
  }
}

interface CourtContext {
  deps: SweepDeps;
  options: SweepOptions;
  runId: number | null;
  write: boolean;
}

/**
 * Asks one index about the cases waiting for it. A case DataJud answered cleanly without is
 * queued at its next candidate index when it has one (its check is recorded there), and is
 * "not found" only when no candidate is left; a failed answer is a failed check for every case
 * asked, never a reason to look elsewhere.
 */
async function checkIndex(
  ctx: CourtContext,
  plan: LookupPlan<Lookup>,
  index: string,
  lookups: readonly Lookup[],
): Promise<{ results: Checked[]; interrupted: boolean }> {
  const { deps, options } = ctx;
  const signal = options.signal;
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
      { court: index, cases: lookups.length, error: describe(error) },
      "DataJud fingerprint query failed",
    );
    const results = together(ctx, () =>
      lookups.map((l) => recordFailure(ctx, l.watched, l.row, error)),
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
  const results: Checked[] = [];
  const toRead: Array<{ lookup: Lookup; fingerprint: FingerprintedCase }> = [];
  const now = deps.clock.now();
  together(ctx, () => {
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
        results.push(recordFailure(ctx, watched, row, missing));
        continue;
      }
      if (!fp.found && suspect.has(answerOf(fp))) {
        const vanished = new DataJudError(
          "bad_response",
          "every case of this answer seen before is missing from it at once: read as a broken DataJud answer, not as cases that left; will retry",
          { retryable: true },
        );
        results.push(recordFailure(ctx, watched, row, vanished));
        continue;
      }
      if (!fp.found) {
        const next = plan.notFound(lookup);
        if (next === null) results.push(recordNotFound(ctx, watched, row, fp));
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
        force: options.force,
      });
      if (verdict.action === "unchanged") {
        results.push(recordUnchanged(ctx, watched, row, fp, index));
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
      { court: index, cases: toRead.length, error: describe(error) },
      "DataJud full read failed",
    );
    results.push(...toRead.map((t) => recordFailure(ctx, t.lookup.watched, t.lookup.row, error)));
    return { results, interrupted: false };
  }
  const fullByNumber = new Map(full.map((f) => [f.cnjNumber, f]));
  for (const { lookup, fingerprint } of toRead) {
    const { watched, row } = lookup;
    const read = fullByNumber.get(watched.number);
    if (!read?.found) {
      // Seen by the fingerprint query a moment ago: a vanished record is DataJud flux, not an absence.
      const flux = new DataJudError(
        "bad_response",
        "DataJud returned the case's fingerprint but not its record; will retry next sweep",
        { retryable: true },
      );
      results.push(recordFailure(ctx, watched, row, flux));
      continue;
    }
    results.push(recordRead(ctx, watched, row, fingerprint, read, index));
  }
  return { results, interrupted: false };
}

/** One DataJud answer: the cases of one batch request share its provenance. */
function answerOf(fp: FingerprintedCase): string {
  return `${fp.provenance.url}|${fp.provenance.fetchedAt}`;
}

/**
 * The checks of one court's answer that need no read, committed together: one commit instead of
 * one per case (most of an unchanged sweep's cost). Nothing found is at stake: a crash here only
 * loses check rows, and the next sweep checks those cases again. Changes keep their own
 * transaction (commitRead).
 */
function together<T>(ctx: CourtContext, fn: () => T): T {
  return ctx.write ? immediate(ctx.deps.db, fn) : fn();
}

function nowIso(ctx: CourtContext): string {
  return new Date(ctx.deps.clock.now()).toISOString();
}

function report(
  watched: WatchedCase,
  outcome: CheckOutcome,
  newMovements: number,
  error: string | null,
): Checked {
  return { report: { number: watched.number, court: watched.court, outcome, newMovements, error } };
}

/** The case row, created on the fly for a dry run or a case not yet synced. */
function caseIdOf(
  ctx: CourtContext,
  watched: WatchedCase,
  row: CaseRow | undefined,
): number | null {
  if (row) return row.id;
  if (!ctx.write) return null;
  return getCase(ctx.deps.db, watched.digits, watched.court)?.id ?? null;
}

type CheckFields = Omit<NewCheck, "runId" | "caseId" | "checkedAt">;

/** A check without new records: the check row and the case's counters, in one transaction. */
function writeCheck(
  ctx: CourtContext,
  watched: WatchedCase,
  row: CaseRow | undefined,
  check: CheckFields,
  patch: (at: string) => CaseCheckPatch,
): void {
  const caseId = caseIdOf(ctx, watched, row);
  const runId = ctx.runId;
  if (!ctx.write || caseId === null || runId === null) return;
  const at = nowIso(ctx);
  immediate(ctx.deps.db, () => {
    recordCheck(ctx.deps.db, { runId, caseId, checkedAt: at, ...check });
    updateCaseAfterCheck(ctx.deps.db, caseId, {
      lastCheckedAt: at,
      lastOutcome: check.outcome,
      ...patch(at),
    });
  });
}

function recordFailure(
  ctx: CourtContext,
  watched: WatchedCase,
  row: CaseRow | undefined,
  error: unknown,
): Checked {
  const { kind, message } = describe(error);
  writeCheck(
    ctx,
    watched,
    row,
    {
      outcome: "failed",
      fingerprint: null,
      newMovements: 0,
      errorKind: kind,
      error: message,
      datajudFetchedAt: null,
    },
    () => ({ lastError: message, consecutiveFailures: (row?.consecutiveFailures ?? 0) + 1 }),
  );
  return report(watched, "failed", 0, message);
}

function recordNotFound(
  ctx: CourtContext,
  watched: WatchedCase,
  row: CaseRow | undefined,
  fp: FingerprintedCase,
): Checked {
  const verdict = judgeNotFound(priorOf(row), ctx.deps.settings.notFoundThreshold);
  writeCheck(
    ctx,
    watched,
    row,
    {
      outcome: "not_found",
      fingerprint: null,
      newMovements: 0,
      errorKind: null,
      error: null,
      datajudFetchedAt: fp.provenance.fetchedAt,
    },
    (at) => ({
      lastError: null,
      consecutiveFailures: 0,
      consecutiveNotFound: verdict.consecutiveNotFound,
      ...(verdict.declareGone ? { goneAt: at } : {}),
    }),
  );
  if (verdict.declareGone) {
    ctx.deps.logger.warn(
      { number: watched.number, court: watched.court, answers: verdict.consecutiveNotFound },
      "case no longer found in DataJud",
    );
  }
  return report(watched, "not_found", 0, null);
}

function recordUnchanged(
  ctx: CourtContext,
  watched: WatchedCase,
  row: CaseRow | undefined,
  fp: FingerprintedCase,
  index: string,
): Checked {
  writeCheck(
    ctx,
    watched,
    row,
    {
      outcome: "unchanged",
      fingerprint: fp.fingerprint,
      newMovements: 0,
      errorKind: null,
      error: null,
      datajudFetchedAt: fp.provenance.fetchedAt,
    },
    (at) => ({
      lastSeenAt: at,
      lastError: null,
      consecutiveFailures: 0,
      consecutiveNotFound: 0,
      foundIn: index,
    }),
  );
  return report(watched, "unchanged", 0, null);
}

function storedInstances(db: Db, caseId: number | null): StoredInstance[] {
  if (caseId === null) return [];
  return listInstances(db, caseId).map((row) => ({
    recordId: row.recordId,
    record: row.record,
    movements: listStoredMovements(db, row.id),
  }));
}

function recordRead(
  ctx: CourtContext,
  watched: WatchedCase,
  row: CaseRow | undefined,
  fp: FingerprintedCase,
  read: ReadCase,
  index: string,
): Checked {
  const { db } = ctx.deps;
  const caseId = caseIdOf(ctx, watched, row);
  const prior = priorOf(row);
  const stored = storedInstances(db, caseId);
  const diff = diffCase(stored, read.records);
  const outcome: CheckOutcome = !prior.seenBefore
    ? "baseline"
    : isRealChange(diff)
      ? "changed"
      : "unchanged";
  const newMovements = outcome === "changed" ? diff.newMovements.length : 0;
  if (ctx.write && caseId !== null && ctx.runId !== null) {
    commitRead(ctx, caseId, ctx.runId, row, fp, diff, outcome, index);
  }
  if (outcome === "changed") {
    ctx.deps.logger.info(
      { number: watched.number, court: watched.court, kinds: diff.kinds, newMovements },
      "case changed",
    );
  }
  return report(watched, outcome, newMovements, null);
}

/** Everything one read found, in one transaction: the change is stored before anyone acts on it. */
function commitRead(
  ctx: CourtContext,
  caseId: number,
  runId: number,
  row: CaseRow | undefined,
  fp: FingerprintedCase,
  diff: CaseDiff,
  outcome: CheckOutcome,
  index: string,
): void {
  const { db } = ctx.deps;
  const at = nowIso(ctx);
  const reportBaseline = outcome === "baseline" && ctx.deps.settings.notifyOnBaseline === true;
  immediate(db, () => {
    const changeId =
      outcome === "changed" || reportBaseline
        ? insertChange(db, {
            caseId,
            runId,
            detectedAt: at,
            kinds: outcome === "changed" ? diff.kinds : ["baseline"],
            details: {
              newInstances: diff.newInstances,
              fieldChanges: diff.fieldChanges,
              missingInstances: diff.missingInstances,
              newMovementIds: diff.newMovements.map((m) => m.movement.id),
              provenance: fp.provenance,
            },
            newMovements: diff.newMovements.length,
          })
        : null;
    for (const { record, plan } of diff.instances) {
      const instance = fp.instances.find((i) => i.id === record.id);
      const { instanceId } = upsertInstance(db, {
        caseId,
        record,
        fingerprint: instance?.fingerprint ?? fp.fingerprint ?? "",
        at,
        changeId,
      });
      applyMovementPlan(db, { caseId, instanceId, plan, at, changeId });
    }
    recordCheck(db, {
      runId,
      caseId,
      checkedAt: at,
      outcome,
      fingerprint: fp.fingerprint,
      newMovements: outcome === "changed" ? diff.newMovements.length : 0,
      errorKind: null,
      error: null,
      datajudFetchedAt: fp.provenance.fetchedAt,
    });
    updateCaseAfterCheck(db, caseId, {
      lastCheckedAt: at,
      lastSeenAt: at,
      lastFullReadAt: at,
      lastFingerprint: fp.fingerprint,
      lastOutcome: outcome,
      lastError: null,
      consecutiveFailures: 0,
      consecutiveNotFound: 0,
      goneAt: null,
      foundIn: index,
      ...(row?.firstSeenAt ? {} : { firstSeenAt: at }),
      ...(outcome === "changed" ? { lastChangedAt: at } : {}),
    });
  });
}
