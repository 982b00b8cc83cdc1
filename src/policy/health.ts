import { z } from "zod";
import type { Db } from "../store/database.js";
import {
  closeIncident,
  type HealthIncident,
  openIncident,
  openIncidentOf,
} from "../store/health-incidents.js";
import { failedStreakBefore, sweepVerdictsBefore } from "../store/runs.js";

/**
 * Monitor health for `mail.admin`, with hysteresis: an incident opens (one e-mail) only after
 * N failed sweeps in a row or a refused key, and closes (one e-mail, to the same address) on the
 * first sweep that works again. The open incident is a row in `health_incidents`, so a recovery is
 * never mailed without the failure e-mail before it.
 */

export const AuthRejectedAlert = z.object({
  type: z.literal("auth_rejected"),
  /** The first check refused after the last check DataJud answered: identifies the incident. */
  since: z.string(),
  lastError: z.string().nullable(),
  /** Watched cases whose latest check was refused for the key. */
  affectedCases: z.number().int().nonnegative(),
});
export type AuthRejectedAlert = z.infer<typeof AuthRejectedAlert>;

export const AuthRecoveredAlert = z.object({
  type: z.literal("auth_recovered"),
  /** The incident's start: the first refused check. */
  since: z.string(),
  recoveredAt: z.string(),
});
export type AuthRecoveredAlert = z.infer<typeof AuthRecoveredAlert>;

export const SweepsFailingAlert = z.object({
  type: z.literal("sweeps_failing"),
  /** When the first failed sweep of the streak started. */
  since: z.string(),
  failedSweeps: z.number().int().positive(),
  /** The latest failed check of the sweep that opened the incident. */
  lastErrorKind: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type SweepsFailingAlert = z.infer<typeof SweepsFailingAlert>;

export const SweepsRecoveredAlert = z.object({
  type: z.literal("sweeps_recovered"),
  since: z.string(),
  recoveredAt: z.string(),
  /** Failed sweeps in a row before this one, when known. */
  failedSweeps: z.number().int().nonnegative().optional(),
});
export type SweepsRecoveredAlert = z.infer<typeof SweepsRecoveredAlert>;

export type HealthAlert =
  | AuthRejectedAlert
  | AuthRecoveredAlert
  | SweepsFailingAlert
  | SweepsRecoveredAlert;

/** The sweep that just ran. Its run row is still 'running', so its verdict is passed in. */
export interface SweepVerdictInput {
  runId: number;
  startedAt: string;
  checked: number;
  failed: number;
  interrupted: boolean;
}

/** What the checks say about the key now: null when DataJud has answered since any refusal. */
export interface AuthState {
  since: string;
  lastError: string | null;
  affectedCases: number;
}

export interface HealthInput {
  /** `mail.admin`, trimmed; "" when unset: nothing opens and a recovery closes silently. */
  admin: string;
  nowIso: string;
  failedSweepsThreshold: number;
  sweep: SweepVerdictInput | null;
  auth: AuthState | null;
}

export interface HealthFinding {
  dedupeKey: string;
  recipient: string;
  alert: HealthAlert;
}

function latestFailedCheck(
  db: Db,
  runId: number,
): { errorKind: string | null; error: string | null } | undefined {
  return db
    .prepare<[number], { errorKind: string | null; error: string | null }>(
      `SELECT error_kind AS errorKind, error FROM checks WHERE run_id = ? AND outcome = 'failed'
       ORDER BY checked_at DESC, id DESC LIMIT 1`,
    )
    .get(runId);
}

/** A recovery is mailed to whoever heard of the failure; an unset `mail.admin` mails nothing. */
function recovery(
  input: HealthInput,
  incident: HealthIncident,
  key: string,
  alert: HealthAlert,
): HealthFinding[] {
  if (input.admin === "") return [];
  return [
    {
      dedupeKey: `admin:${key}:${incident.startedAt}:${incident.recipient.toLowerCase()}`,
      recipient: incident.recipient,
      alert,
    },
  ];
}

function evaluateAuth(db: Db, input: HealthInput): HealthFinding[] {
  const open = openIncidentOf(db, "auth_rejected");
  const auth = input.auth;
  if (auth === null) {
    if (open === undefined) return [];
    closeIncident(db, open.id, input.nowIso);
    return recovery(input, open, "auth-recovered", {
      type: "auth_recovered",
      since: open.startedAt,
      recoveredAt: input.nowIso,
    });
  }
  if (open !== undefined || input.admin === "") return [];
  openIncident(db, {
    kind: "auth_rejected",
    startedAt: auth.since,
    openedAt: input.nowIso,
    recipient: input.admin,
    details: { lastError: auth.lastError, affectedCases: auth.affectedCases },
  });
  return [
    {
      // The key queued before incidents were recorded: an upgrade does not mail it again.
      dedupeKey: `admin:auth:${auth.since}:${input.admin.toLowerCase()}`,
      recipient: input.admin,
      alert: { type: "auth_rejected", ...auth },
    },
  ];
}

function evaluateSweeps(db: Db, input: HealthInput): HealthFinding[] {
  const sweep = input.sweep;
  // An interrupted sweep says nothing about DataJud, nor does one that checked nothing.
  if (sweep === null || sweep.interrupted || sweep.checked === 0) return [];
  const open = openIncidentOf(db, "sweeps_failing");
  if (sweep.failed < sweep.checked) {
    if (open === undefined) return [];
    closeIncident(db, open.id, input.nowIso);
    const { failedSweeps } = failedStreakBefore(db, sweep.runId);
    return recovery(input, open, "sweeps-recovered", {
      type: "sweeps_recovered",
      since: open.startedAt,
      recoveredAt: input.nowIso,
      ...(failedSweeps > 0 ? { failedSweeps } : {}),
    });
  }
  // The key e-mail already says why every check fails, and what to do.
  if (open !== undefined || input.admin === "" || openIncidentOf(db, "auth_rejected")) return [];
  const before = sweepVerdictsBefore(db, sweep.runId, input.failedSweepsThreshold - 1);
  const leading = before.findIndex((v) => !v.failed);
  if (1 + (leading === -1 ? before.length : leading) < input.failedSweepsThreshold) return [];

  // The streak may be longer than the threshold (mail.admin was set mid-outage): date it fully.
  const streak = failedStreakBefore(db, sweep.runId);
  const since = streak.since ?? sweep.startedAt;
  const last = latestFailedCheck(db, sweep.runId);
  const alert: SweepsFailingAlert = {
    type: "sweeps_failing",
    since,
    failedSweeps: streak.failedSweeps + 1,
    lastErrorKind: last?.errorKind ?? null,
    lastError: last?.error ?? null,
  };
  openIncident(db, {
    kind: "sweeps_failing",
    startedAt: since,
    openedAt: input.nowIso,
    recipient: input.admin,
    details: { failedSweeps: alert.failedSweeps, runId: sweep.runId },
  });
  return [
    {
      dedupeKey: `admin:sweeps:${since}:${input.admin.toLowerCase()}`,
      recipient: input.admin,
      alert,
    },
  ];
}

/**
 * Opens and closes health incidents and returns the e-mails that say so. Writes: call it inside
 * the transaction that queues those e-mails, so an incident and its e-mail exist together. The key
 * comes first, so a sweep failing for the key does not also open a sweeps incident.
 */
export function evaluateHealth(db: Db, input: HealthInput): HealthFinding[] {
  const threshold = input.failedSweepsThreshold;
  if (!Number.isInteger(threshold) || threshold < 1) {
    throw new RangeError("failedSweepsThreshold must be a positive integer");
  }
  return [...evaluateAuth(db, input), ...evaluateSweeps(db, input)];
}
