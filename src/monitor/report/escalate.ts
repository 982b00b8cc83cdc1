import { calendarsWith, courtAlias } from "../../deadlines/publication-estimate.js";
import { escalationMessage } from "../../notify/outbox/messages.js";
import {
  addQueued,
  type Endpoint,
  NOTHING_QUEUED,
  type Queued,
  queueMessage,
} from "../../notify/outbox/queue.js";
import { EscalationNotice } from "../../notify/render/escalation.js";
import { type EscalationChain, escalationSchedule } from "../../policy/escalation.js";
import type { MailPolicy } from "../../policy/mail-policy.js";
import { type AcknowledgementRow, acknowledgementById } from "../../store/acknowledgements.js";
import { getCaseById } from "../../store/cases.js";
import { immediate } from "../../store/database.js";
import {
  acknowledgementsToPlan,
  alertOfAcknowledgement,
  alertTiming,
  dueEscalations,
  type EscalationRow,
  firstRecipients,
  markEscalationQueued,
  planEscalation,
  stepsOfAlert,
} from "../../store/escalations.js";
import { courtTimeZone } from "../../time/court-zone.js";
import { dateInZone } from "../../time/zoned-time.js";
import { alertLastDay } from "./escalation-dates.js";
import type { MailDeps } from "./mail-deps.js";

/*
 * Escalation of urgent alerts nobody acknowledged (issue 40), run before each delivery (the
 * daemon's minute tick, a sweep's and run-once's deliver phase): each open alert is planned once
 * (its case's chain in the watchlist in force, its last day from the alert as sent, the court's
 * calendar: policy/escalation.ts), then every step now due of an alert still unacknowledged and
 * unexpired is queued once: the step's row marked queued and its outbox rows in one transaction,
 * committed before anything is sent. A step past due when planned goes at once.
 */

type Original = EscalationNotice["original"];

function originalOf(ackId: number, mail: MailDeps): Original | null {
  const stored = alertOfAcknowledgement(mail.db, ackId);
  if (stored === null) return null;
  const read = EscalationNotice.shape.original.safeParse({
    type: stored.messageType,
    content: stored.payload,
  });
  return read.success ? read.data : null;
}

/**
 * The court whose calendar the alert's chain is counted on, and the chain: the watched case's
 * (its own or the defaults'), the defaults' for a publication outside the watchlist; null for a
 * case no longer watched.
 */
function placeOf(
  mail: MailDeps,
  ack: AcknowledgementRow,
  original: Original,
  policy: MailPolicy,
): { court: string; chain: EscalationChain | null } | null {
  const watched = ack.caseId === null ? undefined : getCaseById(mail.db, ack.caseId);
  if (watched !== undefined) {
    return { court: watched.court, chain: policy.escalation(watched.digits, watched.court) };
  }
  if (ack.caseId !== null || original.type !== "publication") return null;
  return { court: courtAlias(original.content.court), chain: policy.defaultEscalation };
}

/** Plans the chain of each open alert not looked at yet (none: it is only marked as looked at). */
function planOpenAlerts(mail: MailDeps, now: Date): void {
  const at = now.toISOString();
  const calendars = mail.calendars ?? calendarsWith();
  let policy: MailPolicy | null = null;
  for (const ack of acknowledgementsToPlan(mail.db, at)) {
    policy ??= mail.policy();
    const original = originalOf(ack.id, mail);
    const found = original === null ? null : placeOf(mail, ack, original, policy);
    if (original === null || found === null || found.chain === null) {
      immediate(mail.db, () => planEscalation(mail.db, ack.id, [], at));
      continue;
    }
    const { court, chain } = found;
    const calendar = calendars({ court });
    const timeZone = courtTimeZone(court);
    const lastDay = alertLastDay(original, dateInZone(Date.parse(ack.createdAt), timeZone));
    // Counted from when the alert first goes out: an alert held for a digest's hour or the end
    // of quiet hours has not asked anyone yet.
    const outAt = alertTiming(mail.db, ack.id).outAt ?? ack.createdAt;
    const steps = escalationSchedule({
      queuedAt: new Date(Math.max(Date.parse(outAt), Date.parse(ack.createdAt))),
      lastDay,
      chain,
      day: (date) => calendar.dayStatus(date),
      timeZone,
    });
    const planned = steps.map((s) => ({
      step: s.step,
      targetKind: s.target.kind,
      target: s.target.kind === "watcher" ? s.target.address : s.target.name,
      dueAt: s.dueAt.toISOString(),
      dueBy: s.dueBy,
      lastDay: lastDay?.date ?? null,
      lastDayKind: lastDay?.kind ?? null,
      lastDayName: lastDay?.name ?? null,
    }));
    immediate(mail.db, () =>
      planEscalation(mail.db, ack.id, planned, at, chainExpiry(ack, planned.at(-1)?.dueAt)),
    );
  }
}

/**
 * The links' expiry that lets the whole chain go: the last step's recipient gets as long as the
 * first reader had (the alert's validHours) from when it is due. Without it, links shorter than
 * the chain (validHours 24 over a weekend; a week against a `before` bound weeks ahead) would
 * expire the alert before anyone else is told.
 */
function chainExpiry(ack: AcknowledgementRow, lastDueAt: string | undefined): string | null {
  if (lastDueAt === undefined) return null;
  const valid = Date.parse(ack.expiresAt) - Date.parse(ack.createdAt);
  return new Date(Date.parse(lastDueAt) + valid).toISOString();
}

/** Where a step goes; a string says why it cannot go anywhere. */
function endpointsOf(step: EscalationRow, policy: MailPolicy): Endpoint[] | string {
  if (step.targetKind === "watcher") return [{ channel: "email", address: step.target }];
  const configured = policy.endpoints?.find((e) => e.name === step.target);
  if (configured === undefined) {
    return `endpoint "${step.target}" is no longer in the configuration (notify.endpoints)`;
  }
  if (configured.perWatcher === true) {
    return `endpoint "${step.target}" sends to each watcher's own number: name the watcher in the chain instead`;
  }
  return [{ channel: configured.channel, address: configured.name }];
}

function noticeOf(
  mail: MailDeps,
  step: EscalationRow,
  ack: AcknowledgementRow,
  original: Original,
  at: string,
): EscalationNotice {
  const all = stepsOfAlert(mail.db, ack.id);
  const watched = ack.caseId === null ? undefined : getCaseById(mail.db, ack.caseId);
  const publication = original.type === "publication" ? original.content : null;
  return {
    notice: "alert.escalated",
    alertKey: ack.alertKey,
    subject: ack.subject,
    queuedAt: ack.createdAt,
    firstSentAt: alertTiming(mail.db, ack.id).firstSentAt,
    escalatedAt: at,
    step: step.step,
    steps: all.length,
    to: step.target,
    firstTo: firstRecipients(mail.db, ack.id),
    earlierSteps: all.filter((s) => s.step < step.step).map((s) => s.target),
    lastDay:
      step.lastDay === null
        ? null
        : { date: step.lastDay, kind: step.lastDayKind ?? "period", name: step.lastDayName },
    dueBy: step.dueBy,
    case:
      watched !== undefined
        ? { number: watched.number, court: watched.court, label: watched.label }
        : publication !== null
          ? { number: publication.caseNumber, court: publication.court, label: null }
          : null,
    original,
  };
}

/** Queues one due step, unless its alert was acknowledged or it was queued meanwhile. */
function queueStep(mail: MailDeps, step: EscalationRow, now: Date, policy: MailPolicy): Queued {
  const at = now.toISOString();
  return immediate(mail.db, () => {
    const ack = acknowledgementById(mail.db, step.ackId);
    if (ack === null || ack.acknowledgedAt !== null || ack.expiresAt <= at) return NOTHING_QUEUED;
    const original = originalOf(ack.id, mail);
    const endpoints =
      original === null ? "the alert's stored message cannot be read" : endpointsOf(step, policy);
    if (
      !markEscalationQueued(mail.db, step.id, at, typeof endpoints === "string" ? endpoints : null)
    ) {
      return NOTHING_QUEUED;
    }
    if (typeof endpoints === "string" || original === null) {
      mail.logger.error({ escalation: step.id, problem: endpoints }, "escalation step not sent");
      return NOTHING_QUEUED;
    }
    const notice = noticeOf(mail, step, ack, original, at);
    return queueMessage(
      { db: mail.db, domain: mail.domain, at: now, policy },
      escalationMessage({ ack, notice }),
      endpoints,
    );
  });
}

/** Plans what is new and queues every step now due; the rows queued, by endpoint. */
export function queueDueEscalations(mail: MailDeps, now: Date): Queued {
  planOpenAlerts(mail, now);
  const due = dueEscalations(mail.db, now.toISOString());
  if (due.length === 0) return NOTHING_QUEUED;
  const policy = mail.policy();
  return addQueued(...due.map((step) => queueStep(mail, step, now, policy)));
}
