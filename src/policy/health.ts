import { z } from "zod";
import type { HealthIncident, NewHealthIncident } from "../store/health-incidents.js";

/**
 * Monitor health for `mail.admin`, with hysteresis: an incident opens (one e-mail) only after
 * N failed sweeps in a row or a refused key, and closes (one e-mail, to the same address) on the
 * first sweep that works again. The open incident is a row in `health_incidents`, so a recovery is
 * never mailed without the failure e-mail before it. Pure: the store reads the incidents and the
 * sweeps, these functions decide, and the outbox writes both the decision and its e-mail.
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

export const DjenFailingAlert = z.object({
  type: z.literal("djen_failing"),
  /** When the first sweep of the streak started. */
  since: z.string(),
  failedSweeps: z.number().int().positive(),
  /** DJEN answered 403: it refuses this server's address (outside Brazil). Told at once. */
  blocked: z.boolean(),
  /** The last failed source ("case 0713383-43...", "OAB 123456/SP") and its error. */
  lastSource: z.string().nullable(),
  lastErrorKind: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type DjenFailingAlert = z.infer<typeof DjenFailingAlert>;

export const DjenRecoveredAlert = z.object({
  type: z.literal("djen_recovered"),
  since: z.string(),
  recoveredAt: z.string(),
});
export type DjenRecoveredAlert = z.infer<typeof DjenRecoveredAlert>;

export type HealthAlert =
  | AuthRejectedAlert
  | AuthRecoveredAlert
  | SweepsFailingAlert
  | SweepsRecoveredAlert
  | DjenFailingAlert
  | DjenRecoveredAlert;

/**
 * How many cases the sweep that just ran checked, and how many of those checks failed. Its run row
 * is still 'running' when health is judged, so these counts are passed in.
 */
export interface SweepTally {
  runId: number;
  startedAt: string;
  checked: number;
  failed: number;
  /** Stopped before every selected case was checked. */
  interrupted: boolean;
  /** The sweep's DJEN checks; null when DJEN is off. */
  djen?: DjenTally | null;
}

/** How the sweep's DJEN checks went: whether DJEN answered any, and whether it refused us. */
export interface DjenTally {
  checked: number;
  failed: number;
  /** DJEN answered 403: it refuses this server's address (outside Brazil). */
  blocked: boolean;
  lastError: { source: string; kind: string; error: string } | null;
}

/** What the checks say about the key now: null when DataJud has answered since any refusal. */
export interface AuthState {
  since: string;
  lastError: string | null;
  affectedCases: number;
}

/** An open incident, as far as the decisions below need it. */
export type OpenIncident = Pick<HealthIncident, "id" | "startedAt" | "recipient">;

export interface HealthFinding {
  recipient: string;
  alert: HealthAlert;
}

/** What to record and whom to tell; the caller writes all of it in one transaction. */
export interface HealthDecision {
  open: NewHealthIncident | null;
  /** The id of the incident that is over. */
  close: number | null;
  findings: HealthFinding[];
}

const NOTHING: HealthDecision = Object.freeze({ open: null, close: null, findings: [] });

/** A recovery is mailed to whoever heard of the failure; an unset `mail.admin` mails nothing. */
function recovered(admin: string, incident: OpenIncident, alert: HealthAlert): HealthDecision {
  return {
    open: null,
    close: incident.id,
    findings: admin === "" ? [] : [{ recipient: incident.recipient, alert }],
  };
}

export interface KeyHealthInput {
  /** `mail.admin`, trimmed; "" when unset: nothing opens and a recovery closes silently. */
  admin: string;
  nowIso: string;
  auth: AuthState | null;
  open: OpenIncident | undefined;
}

/** The key incident: open while DataJud refuses the key, over at its first answer. */
export function decideKeyHealth(input: KeyHealthInput): HealthDecision {
  const { admin, auth, open } = input;
  if (auth === null) {
    if (open === undefined) return NOTHING;
    return recovered(admin, open, {
      type: "auth_recovered",
      since: open.startedAt,
      recoveredAt: input.nowIso,
    });
  }
  if (open !== undefined || admin === "") return NOTHING;
  return {
    open: {
      kind: "auth_rejected",
      startedAt: auth.since,
      openedAt: input.nowIso,
      recipient: admin,
      details: { lastError: auth.lastError, affectedCases: auth.affectedCases },
    },
    close: null,
    findings: [{ recipient: admin, alert: { type: "auth_rejected", ...auth } }],
  };
}

/**
 * What the sweep can change about the sweeps incident, before anything more is read: "recovery"
 * (DataJud answered, an incident is open), "streak" (every check failed: count the sweeps before)
 * or "none".
 */
export function sweepsHealthQuestion(input: {
  admin: string;
  sweep: SweepTally | null;
  open: OpenIncident | undefined;
  /** The key incident is open (after this sweep's key decision). */
  keyIncidentOpen: boolean;
}): "none" | "recovery" | "streak" {
  const { sweep, open } = input;
  // An interrupted sweep says nothing about DataJud, nor does one that checked nothing.
  if (sweep === null || sweep.interrupted || sweep.checked === 0) return "none";
  if (sweep.failed < sweep.checked) return open === undefined ? "none" : "recovery";
  // The key e-mail already says why every check fails, and what to do.
  if (open !== undefined || input.admin === "" || input.keyIncidentOpen) return "none";
  return "streak";
}

/** A failed streak before a sweep: how many sweeps, and when the first one started. */
export interface FailedStreak {
  failedSweeps: number;
  since: string | null;
}

export function decideSweepsRecovery(input: {
  admin: string;
  nowIso: string;
  open: OpenIncident;
  streakBefore: FailedStreak;
}): HealthDecision {
  const { failedSweeps } = input.streakBefore;
  return recovered(input.admin, input.open, {
    type: "sweeps_recovered",
    since: input.open.startedAt,
    recoveredAt: input.nowIso,
    ...(failedSweeps > 0 ? { failedSweeps } : {}),
  });
}

/**
 * Whether this failed sweep and the ones before it (newest first, at least threshold - 1 of them
 * when there are) make `threshold` failures in a row.
 */
export function streakReachesThreshold(
  before: ReadonlyArray<{ failed: boolean }>,
  threshold: number,
): boolean {
  const leading = before.findIndex((v) => !v.failed);
  return 1 + (leading === -1 ? before.length : leading) >= threshold;
}

export function decideSweepsFailing(input: {
  admin: string;
  nowIso: string;
  sweep: SweepTally;
  /** The whole streak: it may be longer than the threshold (mail.admin was set mid-outage). */
  streakBefore: FailedStreak;
  /** The latest failed check of this sweep. */
  lastFailed: { errorKind: string | null; error: string | null } | undefined;
}): HealthDecision {
  const { sweep, streakBefore, lastFailed } = input;
  const since = streakBefore.since ?? sweep.startedAt;
  const alert: SweepsFailingAlert = {
    type: "sweeps_failing",
    since,
    failedSweeps: streakBefore.failedSweeps + 1,
    lastErrorKind: lastFailed?.errorKind ?? null,
    lastError: lastFailed?.error ?? null,
  };
  return {
    open: {
      kind: "sweeps_failing",
      startedAt: since,
      openedAt: input.nowIso,
      recipient: input.admin,
      details: { failedSweeps: alert.failedSweeps, runId: sweep.runId },
    },
    close: null,
    findings: [{ recipient: input.admin, alert }],
  };
}

/**
 * The DJEN incident: open when every DJEN check of `threshold` counted sweeps in a row failed, at
 * once when DJEN refused this server's address (a 403 will not pass by itself); over at the first
 * sweep in which DJEN answered any check. `streakBefore` counts the sweeps before this one whose
 * DJEN checks all failed.
 */
export function decideDjenHealth(input: {
  admin: string;
  nowIso: string;
  sweep: SweepTally | null;
  open: OpenIncident | undefined;
  threshold: number;
  streakBefore: () => FailedStreak;
}): HealthDecision {
  const { sweep, open, admin } = input;
  const djen = sweep?.djen ?? null;
  if (sweep === null || djen === null || sweep.interrupted || djen.checked === 0) return NOTHING;
  if (djen.failed < djen.checked) {
    if (open === undefined) return NOTHING;
    return recovered(admin, open, {
      type: "djen_recovered",
      since: open.startedAt,
      recoveredAt: input.nowIso,
    });
  }
  if (open !== undefined || admin === "") return NOTHING;
  const streak = input.streakBefore();
  if (!djen.blocked && streak.failedSweeps + 1 < input.threshold) return NOTHING;
  const since = streak.since ?? sweep.startedAt;
  const alert: DjenFailingAlert = {
    type: "djen_failing",
    since,
    failedSweeps: streak.failedSweeps + 1,
    blocked: djen.blocked,
    lastSource: djen.lastError?.source ?? null,
    lastErrorKind: djen.lastError?.kind ?? null,
    lastError: djen.lastError?.error ?? null,
  };
  return {
    open: {
      kind: "djen_failing",
      startedAt: since,
      openedAt: input.nowIso,
      recipient: admin,
      details: { failedSweeps: alert.failedSweeps, blocked: alert.blocked, runId: sweep.runId },
    },
    close: null,
    findings: [{ recipient: admin, alert }],
  };
}

export function assertFailedSweepsThreshold(threshold: number): void {
  if (!Number.isInteger(threshold) || threshold < 1) {
    throw new RangeError("failedSweepsThreshold must be a positive integer");
  }
}
