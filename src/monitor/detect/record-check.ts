import { DataJudError } from "../../datajud/errors.js";
import { fingerprintOfRecord, isUnstamped } from "../../datajud/normalize.js";
import type { Logger } from "../../log.js";
import {
  type CaseCheckPatch,
  type CaseRow,
  getCase,
  updateCaseAfterCheck,
} from "../../store/cases.js";
import { insertChange } from "../../store/changes.js";
import { type CheckOutcome, type NewCheck, recordCheck } from "../../store/checks.js";
import { type Db, immediate } from "../../store/database.js";
import { listInstances, upsertInstance } from "../../store/instances.js";
import { applyMovementPlan, listStoredMovements } from "../../store/movements.js";
import { type Clock, isoNow } from "../../time/clock.js";
import type { WatchedCase } from "../../watchlist/parse-watchlist.js";
import type { CaseReport } from "../run-report.js";
import type { FingerprintedCase, ReadCase } from "./datajud-gateway.js";
import { type CaseDiff, diffCase, isRealChange, type StoredInstance } from "./diff.js";
import { judgeNotFound, type PriorState } from "./judge.js";

/*
 * What a check of one case writes: a failure, a not-found answer, an unchanged fingerprint, or a
 * full read with its change. Each is committed before anything else happens with it; a dry run
 * writes nothing and reports the same.
 */

/** What judging one case's answer reads of the configuration. */
export interface CheckSettings {
  /** Clean not-found answers in a row before a case counts as gone (monitor.notFoundThreshold). */
  notFoundThreshold: number;
  /** Also report a case's first check (its current state) to its watchers. */
  notifyOnBaseline?: boolean;
}

/** What the writers need: the database, the run they belong to, and whether to write at all. */
export interface CheckContext {
  db: Db;
  clock: Clock;
  logger: Logger;
  settings: CheckSettings;
  /** null on a dry run. */
  runId: number | null;
  write: boolean;
}

/** What a failed check stores of its error: DataJud's kind, or "internal". */
export function describeError(error: unknown): { kind: string; message: string } {
  if (error instanceof DataJudError) return { kind: error.kind, message: error.message };
  return { kind: "internal", message: error instanceof Error ? error.message : String(error) };
}

export function priorOf(row: CaseRow | undefined): PriorState {
  return {
    seenBefore: row?.firstSeenAt != null,
    storedFingerprint: row?.lastFingerprint ?? null,
    lastFullReadAt: row?.lastFullReadAt ?? null,
    consecutiveNotFound: row?.consecutiveNotFound ?? 0,
    goneAt: row?.goneAt ?? null,
  };
}

/**
 * The checks of one court's answer that need no read, committed together: one commit instead of
 * one per case (most of an unchanged sweep's cost). Nothing found is at stake: a crash here only
 * loses check rows, and the next sweep checks those cases again. Changes keep their own
 * transaction (commitRead).
 */
export function commitTogether<T>(ctx: CheckContext, fn: () => T): T {
  return ctx.write ? immediate(ctx.db, fn) : fn();
}

function nowIso(ctx: CheckContext): string {
  return isoNow(ctx.clock);
}

function caseReport(
  watched: WatchedCase,
  outcome: CheckOutcome,
  newMovements: number,
  error: string | null,
): CaseReport {
  return { number: watched.number, court: watched.court, outcome, newMovements, error };
}

/** The case row, created on the fly for a dry run or a case not yet synced. */
function caseIdOf(
  ctx: CheckContext,
  watched: WatchedCase,
  row: CaseRow | undefined,
): number | null {
  if (row) return row.id;
  if (!ctx.write) return null;
  return getCase(ctx.db, watched.digits, watched.court)?.id ?? null;
}

type CheckFields = Omit<NewCheck, "runId" | "caseId" | "checkedAt">;

/** A check without new records: the check row and the case's counters, in one transaction. */
function writeCheck(
  ctx: CheckContext,
  watched: WatchedCase,
  row: CaseRow | undefined,
  check: CheckFields,
  patch: (at: string) => CaseCheckPatch,
): void {
  const caseId = caseIdOf(ctx, watched, row);
  const runId = ctx.runId;
  if (!ctx.write || caseId === null || runId === null) return;
  const at = nowIso(ctx);
  immediate(ctx.db, () => {
    recordCheck(ctx.db, { runId, caseId, checkedAt: at, ...check });
    updateCaseAfterCheck(ctx.db, caseId, {
      lastCheckedAt: at,
      lastOutcome: check.outcome,
      ...patch(at),
    });
  });
}

export function recordFailure(
  ctx: CheckContext,
  watched: WatchedCase,
  row: CaseRow | undefined,
  error: unknown,
): CaseReport {
  const { kind, message } = describeError(error);
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
  return caseReport(watched, "failed", 0, message);
}

export function recordNotFound(
  ctx: CheckContext,
  watched: WatchedCase,
  row: CaseRow | undefined,
  fp: FingerprintedCase,
): CaseReport {
  const verdict = judgeNotFound(priorOf(row), ctx.settings.notFoundThreshold);
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
    ctx.logger.warn(
      { number: watched.number, court: watched.court, answers: verdict.consecutiveNotFound },
      "case no longer found in DataJud",
    );
  }
  return caseReport(watched, "not_found", 0, null);
}

export function recordUnchanged(
  ctx: CheckContext,
  watched: WatchedCase,
  row: CaseRow | undefined,
  fp: FingerprintedCase,
  index: string,
): CaseReport {
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
  return caseReport(watched, "unchanged", 0, null);
}

function storedInstances(db: Db, caseId: number | null): StoredInstance[] {
  if (caseId === null) return [];
  return listInstances(db, caseId).map((row) => ({
    recordId: row.recordId,
    record: row.record,
    movements: listStoredMovements(db, row.id),
  }));
}

export function recordRead(
  ctx: CheckContext,
  watched: WatchedCase,
  row: CaseRow | undefined,
  fp: FingerprintedCase,
  read: ReadCase,
  index: string,
): CaseReport {
  const { db } = ctx;
  const caseId = caseIdOf(ctx, watched, row);
  const prior = priorOf(row);
  const stored = storedInstances(db, caseId);
  const diff = diffCase(stored, read.records, nowIso(ctx));
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
    ctx.logger.info(
      { number: watched.number, court: watched.court, kinds: diff.kinds, newMovements },
      "case changed",
    );
  }
  return caseReport(watched, outcome, newMovements, null);
}

/** Everything one read found, in one transaction: the change is stored before anyone acts on it. */
function commitRead(
  ctx: CheckContext,
  caseId: number,
  runId: number,
  row: CaseRow | undefined,
  fp: FingerprintedCase,
  diff: CaseDiff,
  outcome: CheckOutcome,
  index: string,
): void {
  const { db } = ctx;
  const at = nowIso(ctx);
  const reportBaseline = outcome === "baseline" && ctx.settings.notifyOnBaseline === true;
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
              lateMovementIds: diff.lateMovements.map((m) => m.movement.id),
              corrections: diff.corrections.map(({ instance, kind, before, after }) => ({
                instance,
                kind,
                before,
                after,
              })),
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
        // A record without update times is known by its content (datajud/normalize.ts).
        fingerprint: isUnstamped(instance?.fingerprint ?? null)
          ? fingerprintOfRecord(record)
          : (instance?.fingerprint ?? fp.fingerprint ?? ""),
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
