import { z } from "zod";
import { CHECK_OUTCOMES } from "../store/checks.js";

export const CaseReport = z.strictObject({
  number: z.string(),
  court: z.string(),
  outcome: z.enum(CHECK_OUTCOMES),
  newMovements: z.number().int().nonnegative(),
  error: z.string().nullable(),
});
export type CaseReport = z.infer<typeof CaseReport>;

/** The DJEN phase of a sweep: the sources asked (case numbers, OAB registrations) and what came. */
export const PublicationsReport = z.strictObject({
  checked: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  newPublications: z.number().int().nonnegative(),
  /** Of the new ones: in cases the watchlist does not list (found through an OAB registration). */
  outsideWatchlist: z.number().int().nonnegative(),
  /** Publications stored as published that DJEN now shows cancelled. */
  cancelled: z.number().int().nonnegative(),
  djenRequests: z.number().int().nonnegative(),
  /** Sources due but left unasked when `djen.maxMinutesPerSweep` ran out: asked next, first. */
  deferred: z.number().int().nonnegative().default(0),
  /** Sources not due yet (djen.caseEveryHours, djen.oabEveryHours): not asked, not failed. */
  notDue: z.number().int().nonnegative().default(0),
  /** When the first of them is due; null when none is waiting. */
  nextDueAt: z.string().nullable().default(null),
  /**
   * Set when DJEN could not be reached (refused, DNS, TLS, every attempt timing out) or refused
   * this server's address, and the rest of the phase was not asked: what failed. Null otherwise.
   */
  unreachable: z.string().nullable().default(null),
  failures: z.array(z.strictObject({ source: z.string(), kind: z.string(), error: z.string() })),
});
export type PublicationsReport = z.infer<typeof PublicationsReport>;

/** What became of mail in a sweep's delivery, and what waits in the outbox after it. */
export const MailReport = z.strictObject({
  sent: z.number().int().nonnegative(),
  /** Attempts that failed in this sweep: retried later. */
  failed: z.number().int().nonnegative(),
  /** Given up in this sweep (mail.maxAttempts reached, or a row that cannot be sent). */
  dead: z.number().int().nonnegative(),
  /** Pending after the sweep, for any reason: a digest's hour, quiet hours, a retry. */
  pending: z.number().int().nonnegative(),
  /** Of the pending: failed before, waiting for a retry. */
  retrying: z.number().int().nonnegative(),
  /** The most recent failure: the server and what went wrong (never a password). */
  lastError: z.string().nullable(),
  /** The soonest retry, an ISO instant. */
  nextAttemptAt: z.string().nullable(),
});
export type MailReport = z.infer<typeof MailReport>;

/** A delivery that had nothing to send and nothing waiting. */
export const NOTHING_MAILED: MailReport = Object.freeze({
  sent: 0,
  failed: 0,
  dead: 0,
  pending: 0,
  retrying: 0,
  lastError: null,
  nextAttemptAt: null,
});

/**
 * What became of one webhook or chat endpoint's alerts in a sweep's deliveries, and what waits for
 * it after them. Named by channel and configured name only: never its URL or token.
 */
export const EndpointReport = MailReport.extend({
  channel: z.string(),
  name: z.string(),
  /** disabled (410 until enabled) > dead (given up since its last delivery) > retrying > ok. */
  condition: z.enum(["disabled", "dead", "retrying", "ok"]),
  disabledReason: z.string().nullable(),
  /**
   * The variables (URL, token, secret) the process that ran the sweep does not have: it queued
   * the endpoint's alerts and sent none; a process with them (the daemon) sends them. Empty: none.
   */
  missing: z.array(z.string()).default([]),
  /** Alerts the sweep queued for it (rows; a chat digest's rows are counted one by one). */
  queued: z.number().int().nonnegative().default(0),
});
export type EndpointReport = z.infer<typeof EndpointReport>;

/** Two deliveries' reports of endpoints as one: counts added up, what waits as the later left it. */
export function mergeEndpointReports(
  before: readonly EndpointReport[],
  later: readonly EndpointReport[],
): EndpointReport[] {
  const out = new Map(before.map((e) => [`${e.channel}\u0000${e.name}`, e]));
  for (const e of later) {
    const key = `${e.channel}\u0000${e.name}`;
    const earlier = out.get(key);
    out.set(
      key,
      earlier === undefined
        ? e
        : {
            ...e,
            sent: earlier.sent + e.sent,
            failed: earlier.failed + e.failed,
            dead: earlier.dead + e.dead,
            lastError: e.lastError ?? earlier.lastError,
          },
    );
  }
  return [...out.values()];
}

/** What `monitor run-once --json` prints and the `runs` table keeps (DESIGN.md contract). */
export const RunReport = z.strictObject({
  startedAt: z.string(),
  finishedAt: z.string(),
  checked: z.number().int().nonnegative(),
  changed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  datajudRequests: z.number().int().nonnegative(),
  llmCalls: z.number().int().nonnegative(),
  /** E-mail rows queued (one per message and address); other channels are in `queued`. */
  emailsQueued: z.number().int().nonnegative(),
  emailsSent: z.number().int().nonnegative(),
  dryRun: z.boolean(),
  interrupted: z.boolean(),
  /**
   * Set when DataJud could not be reached at all (refused, DNS, TLS) and the rest of the sweep was
   * not asked: what failed, with DataJud's address. Null otherwise.
   */
  unreachable: z.string().nullable(),
  /**
   * Set when a model call of the sweep went unanswered (summarizer.callTimeoutMs) or failed and
   * the rest of its summaries were written by the rules: what happened. Null otherwise.
   */
  modelUnavailable: z.string().nullable().default(null),
  cases: z.array(CaseReport),
  /** The DJEN phase; null when DJEN is off (or in reports of versions before it). */
  publications: PublicationsReport.nullable().default(null),
  /** Mail delivery; null when nothing was delivered (a dry run, a stopped sweep, older versions). */
  mail: MailReport.nullable().default(null),
  /** Each webhook and chat endpoint with alerts delivered, failed, given up or waiting. */
  endpoints: z.array(EndpointReport).default([]),
  /**
   * Rows queued per channel: `{ "email": 3, "webhook": 3, "slack": 3 }`; a channel with none is
   * absent. `{}` in reports of versions before it.
   */
  queued: z.record(z.string(), z.number().int().nonnegative()).default({}),
});
export type RunReport = z.infer<typeof RunReport>;

/**
 * How a sweep went, for metrics and the heartbeat. failed: DataJud could not be reached, or every
 * case checked failed (with no case checked, every DJEN check failed); partial: some checks failed
 * (they are retried next sweep); interrupted: stopped before its end; error: the sweep itself threw.
 */
export type SweepResult = "ok" | "partial" | "failed" | "interrupted" | "error";

export function sweepResult(report: RunReport): SweepResult {
  if (report.interrupted) return "interrupted";
  if (report.unreachable !== null) return "failed";
  const djen = report.publications ?? { checked: 0, failed: 0 };
  if (report.checked > 0 && report.failed === report.checked) return "failed";
  if (report.checked === 0 && djen.checked > 0 && djen.failed === djen.checked) return "failed";
  return report.failed + djen.failed > 0 ? "partial" : "ok";
}
