import { Cron } from "croner";
import { countText } from "../datajud/glossary.js";
import { RunReport } from "../monitor/run-report.js";
import type { EndpointStatus } from "../policy/endpoint-status.js";
import type { RunRow } from "../store/runs.js";

/**
 * What makes `status` exit 3, "needs attention" (restic's convention for "done, but look"): a
 * cron wrapper or a monitoring check reads the code, a person the reasons. Each reason is
 * something `status` shows and a person can act on, and each clears when fixed.
 */

/** A sweep may start this long after its scheduled time before it counts as overdue. */
export const OVERDUE_GRACE_MS = 15 * 60_000;

export interface AttentionInput {
  now: Date;
  /** The watchlist file's errors (empty: valid), and whether the daemon runs on the last good copy. */
  watchlist: { errors: number; goodCopy: boolean };
  cases: ReadonlyArray<{
    lastOutcome: string | null;
    goneAt: string | null;
    djen: { lastOutcome: string | null } | null;
  }>;
  oab: ReadonlyArray<{ lastOutcome: string | null }>;
  djenUnreachable: boolean;
  /** Health incidents open, as status words them. */
  incidents: readonly string[];
  endpoints: readonly EndpointStatus[];
  /** E-mails that failed and wait for a retry. */
  mailRetrying: number;
  /** E-mails given up with no later e-mail delivered to the same address. */
  mailGivenUp: number;
  lastRun: RunRow | undefined;
  schedule: { cron: string; timezone: string; startJitterSeconds: number };
}

/** When the sweep after one that started at `startedAt` was due, by schedule.cron. */
function nextScheduled(startedAt: string, schedule: AttentionInput["schedule"]): Date | null {
  try {
    const cron = new Cron(schedule.cron, { timezone: schedule.timezone, paused: true });
    const next = cron.nextRun(new Date(startedAt));
    cron.stop();
    return next;
  } catch {
    return null;
  }
}

function lastSweepReason(input: AttentionInput): string | null {
  const run = input.lastRun;
  if (run === undefined) return null;
  if (run.status === "crashed") return "the last sweep ended without a report (its process died)";
  if (run.status === "finished") {
    const parsed = RunReport.safeParse(run.report);
    const report = parsed.success ? parsed.data : null;
    if (
      report !== null &&
      !report.interrupted &&
      (report.unreachable !== null || (report.checked > 0 && report.failed === report.checked))
    ) {
      return "the last sweep failed: DataJud answered for no case";
    }
  }
  const due = nextScheduled(run.startedAt, input.schedule);
  const graceMs = OVERDUE_GRACE_MS + input.schedule.startJitterSeconds * 1000;
  if (due !== null && input.now.getTime() > due.getTime() + graceMs) {
    return `no sweep since the one that started ${run.startedAt}: one was due at ${due.toISOString()} (schedule.cron); is the daemon running?`;
  }
  return null;
}

/** Why `status` needs attention, one short reason each; empty: all is well (exit 0). */
export function attentionReasons(input: AttentionInput): string[] {
  const out: string[] = [];
  const { watchlist } = input;
  if (watchlist.errors > 0) {
    out.push(
      `the watchlist file has ${countText(watchlist.errors, "error", "errors")}; ${watchlist.goodCopy ? "the daemon runs on its last good copy" : "no good copy is kept: the daemon will not start"}`,
    );
  }
  const failing = input.cases.filter((c) => c.goneAt === null && c.lastOutcome === "failed");
  if (failing.length > 0) out.push(`${countText(failing.length, "case", "cases")} failing`);
  const gone = input.cases.filter((c) => c.goneAt !== null).length;
  if (gone > 0) out.push(`${countText(gone, "case", "cases")} gone from DataJud`);
  const djen =
    input.cases.filter((c) => c.djen?.lastOutcome === "failed").length +
    input.oab.filter((o) => o.lastOutcome === "failed").length;
  if (djen > 0) out.push(`${countText(djen, "DJEN check", "DJEN checks")} failing`);
  if (input.djenUnreachable) out.push("DJEN could not be reached");
  out.push(...input.incidents);
  for (const e of input.endpoints) {
    if (e.condition === "disabled" || e.condition === "dead") {
      out.push(`${e.channel} endpoint "${e.name}" ${e.condition}`);
    }
  }
  if (input.mailRetrying > 0) {
    out.push(`${countText(input.mailRetrying, "e-mail", "e-mails")} failed, waiting for a retry`);
  }
  if (input.mailGivenUp > 0) {
    out.push(
      `${countText(input.mailGivenUp, "e-mail", "e-mails")} given up, none delivered to that address since`,
    );
  }
  const sweep = lastSweepReason(input);
  if (sweep !== null) out.push(sweep);
  return out;
}
