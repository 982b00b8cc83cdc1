import type { Db } from "../store/database.js";
import { escalationCounts, waitingEscalations } from "../store/escalations.js";

/*
 * `monitor status` on escalation (docs/channels.md, Escalation): how many steps wait, were sent,
 * were stopped by an acknowledgement or expired, and the next ones due.
 */

export interface EscalationStatus {
  waiting: number;
  /** Steps queued to the outbox (sent, or being sent with the rest). */
  sent: number;
  /** Steps that never went: their alert was acknowledged first. */
  stopped: number;
  /** Steps that never went: their alert's links expired first, unacknowledged. */
  expired: number;
  /** Steps that were due but could go nowhere (their endpoint left the configuration). */
  unsent: number;
  nextDueAt: string | null;
  /** The next steps due, earliest first. */
  next: Array<{
    dueAt: string;
    step: number;
    target: string;
    subject: string;
    caseId: number | null;
  }>;
}

const LISTED = 5;

/** The escalation's counts at `now`; absent when no alert ever had a chain. */
export function escalationStatus(db: Db, now: Date): EscalationStatus | undefined {
  const at = now.toISOString();
  const counts = escalationCounts(db, at);
  const all = counts.waiting + counts.queued + counts.stopped + counts.expired + counts.unsent;
  if (all === 0) return undefined;
  return {
    waiting: counts.waiting,
    sent: counts.queued,
    stopped: counts.stopped,
    expired: counts.expired,
    unsent: counts.unsent,
    nextDueAt: counts.nextDueAt,
    next: waitingEscalations(db, at, LISTED).map((s) => ({
      dueAt: s.dueAt,
      step: s.step,
      target: s.target,
      subject: s.subject,
      caseId: s.caseId,
    })),
  };
}

/** The lines: the counts, then each step waiting with when it is due. */
export function escalationLines(status: EscalationStatus, when: (iso: string) => string): string[] {
  const next = status.nextDueAt === null ? "" : `; next due ${when(status.nextDueAt)}`;
  const unsent =
    status.unsent === 0
      ? ""
      : `, ${status.unsent} NOT sent (endpoint gone: monitor history says which)`;
  const lines = [
    `escalation steps: ${status.waiting} waiting, ${status.sent} sent, ${status.stopped} stopped by an acknowledgement, ${status.expired} expired unacknowledged${unsent}${next}`,
  ];
  for (const s of status.next) {
    lines.push(`  ${when(s.dueAt)} step ${s.step} to ${s.target}: ${s.subject}`);
  }
  return lines;
}
