import { oneLine } from "../../text.js";
import { correctionLines, renderSubject } from "../render/alert.js";
import type { AlertContent } from "../render/alert-content.js";
import type { AcknowledgementNotice, CorrectionNotice } from "../render/build-event.js";
import type { CaseChecked } from "../render/case-checked.js";
import { type DjenGapWarning, renderDjenGapSubject } from "../render/djen-gap.js";
import { type EscalationNotice, escalationSubject } from "../render/escalation.js";
import { type AdminAlert, renderAdminSubject } from "../render/operator-mail.js";
import {
  type PublicationAlertContent,
  renderPublicationSubject,
} from "../render/publication-alert.js";
import { type Receipt, renderReceiptSubject } from "../render/receipt.js";
import { renderStatusReportSubject, type StatusReport } from "../render/status-report.js";
import { caseThreadKey } from "./message-ids.js";
import type { OutboxMessage } from "./queue.js";

/*
 * Each kind of message the outbox carries, as `queueMessage` (queue.ts) takes it: what it is
 * about (the first part of its dedupe key), what it carries and when it may go out.
 */

/**
 * A change of a case, for its watchers. The key holds when the change was detected and the case's
 * number and court, so a rebuilt database never reuses a Message-ID for another change.
 */
export function movementAlert(change: {
  changeId: number;
  caseId: number;
  detectedAt: string;
  content: AlertContent;
  /** The webhook and chat endpoints the case routes to (the watchlist's channels). */
  channels?: readonly string[];
}): OutboxMessage {
  const { content } = change;
  // A change that is only corrections reaches the webhooks and chats as its case.correction
  // events (correctionNotices), not as a case.movement with nothing new in it.
  const news =
    content.newMovements.length > 0 ||
    content.changeKinds.some((k) => k !== "corrected_movements") ||
    content.corrections.length === 0;
  return {
    kind: "alert",
    type: "movement",
    key: movementAlertKey(change),
    subject: renderSubject(content),
    payload: content,
    changeId: change.changeId,
    caseId: change.caseId,
    timing: { rule: "alert", urgent: content.urgent },
    ...(news ? { event: { type: "case.movement", channels: change.channels ?? [] } } : {}),
  };
}

function movementAlertKey(change: { changeId: number; detectedAt: string; content: AlertContent }) {
  const { content } = change;
  return `alert:${change.changeId}:${change.detectedAt}:${caseThreadKey(content.caseNumber, content.court)}`;
}

/**
 * Each correction a change reports, as its own case.correction event for the webhook and chat
 * endpoints the case routes to (the e-mail carries them in the change's alert): queue them with
 * no e-mail endpoint, in the transaction that queues the alert. One per corrected movement, keyed
 * by the alert's key and the movement, so a retried run queues none twice.
 */
export function correctionNotices(change: {
  changeId: number;
  caseId: number;
  detectedAt: string;
  content: AlertContent;
  channels?: readonly string[];
}): OutboxMessage[] {
  const { content } = change;
  return content.corrections.map((fix, i) => {
    const narrowed: AlertContent = { ...content, newMovements: [], corrections: [fix] };
    const urgent = correctionLines(narrowed)[0]?.reading.urgent != null;
    const notice: CorrectionNotice = { notice: "case.correction", content: narrowed };
    return {
      kind: "alert",
      type: "correction",
      key: `correction:${movementAlertKey(change).slice("alert:".length)}:${fix.instance}:${fix.after.id || i}`,
      subject: renderSubject(narrowed),
      payload: notice,
      changeId: change.changeId,
      caseId: change.caseId,
      timing: { rule: "alert", urgent },
      event: { type: "case.correction", channels: change.channels ?? [] },
    };
  });
}

/** The key of a DJEN publication's alert: the prefix of the rows of everyone told of it. */
export function publicationKey(djenId: string): string {
  return `publication:${djenId}`;
}

/**
 * What a publication's notice is about: the publication, its cancellation, or one move of its
 * deadline estimate (each revision mailed once).
 */
function publicationNoticeKey(content: PublicationAlertContent): string {
  switch (content.notice) {
    case "published":
      return publicationKey(content.djenId);
    case "cancelled":
      return `publication-cancelled:${content.djenId}`;
    case "re-estimated":
      return `publication-estimate:${content.djenId}:${content.estimateRevision ?? 0}`;
  }
}

/**
 * A DJEN publication (notice "published"), or a correction to those told of it: DJEN cancelled
 * it, or its deadline estimate moved. A correction is as pressing as the alert it corrects: a
 * deadline that is not one, or moved.
 */
export function publicationAlert(
  content: PublicationAlertContent,
  caseId: number | null,
  channels: readonly string[] = [],
): OutboxMessage {
  return {
    kind: "alert",
    type: "publication",
    key: publicationNoticeKey(content),
    subject: renderPublicationSubject(content),
    payload: content,
    changeId: null,
    caseId,
    timing: { rule: "alert", urgent: content.urgent || content.notice !== "published" },
    event: {
      type:
        content.notice === "cancelled"
          ? "publication.cancelled"
          : content.notice === "re-estimated"
            ? "publication.reestimated"
            : "publication.published",
      channels,
    },
  };
}

/**
 * A DataJud act made available in the DJe that DJEN, asked completely for the case and the day,
 * did not return: once per movement, at once while a period could run (else after quiet hours),
 * never in a digest (it is a warning, not news of the case); to the case's webhooks and chats as
 * a publication.missing event, unless `channels` is null (a muted case: nobody hears).
 */
export function djenGapMessage(
  warning: DjenGapWarning,
  movementRowId: number,
  caseId: number,
  channels: readonly string[] | null = null,
): OutboxMessage {
  return {
    kind: "alert",
    type: "djen-gap",
    key: `djen-gap:${movementRowId}:${caseThreadKey(warning.caseNumber, warning.court)}`,
    subject: renderDjenGapSubject(warning),
    payload: warning,
    changeId: null,
    caseId,
    timing: warning.urgent ? { rule: "now" } : { rule: "after-quiet-hours" },
    ...(channels === null ? {} : { event: { type: "publication.missing", channels } }),
  };
}

/** What a case.checked event is about: the case and the day, so there is one per case per day. */
export function caseCheckedKey(caseNumber: string, court: string, day: string): string {
  return `checked:${caseThreadKey(caseNumber, court)}:${day}`;
}

/**
 * That a watched case was checked on a day (case.checked): for the webhook and chat endpoints
 * that ask for it, never by e-mail; a chat's quiet hours and digest hold it like any alert.
 */
export function caseCheckedMessage(
  checked: CaseChecked,
  caseId: number,
  channels: readonly string[],
): OutboxMessage {
  return {
    kind: "alert",
    type: "case-checked",
    key: caseCheckedKey(checked.caseNumber, checked.court, checked.day),
    subject: oneLine(`Verificado em ${checked.day}: ${checked.caseNumber}`, 200),
    payload: checked,
    changeId: null,
    caseId,
    timing: { rule: "alert", urgent: false },
    event: { type: "case.checked", channels },
  };
}

/**
 * The party radar's news of a new lawsuit: one per watched party and case number, whatever item
 * or alias brought it (the key holds the party and the case, not the DJEN item).
 */
export function partyMatchAlert(
  content: PublicationAlertContent,
  channels: readonly string[] = [],
): OutboxMessage {
  const party = content.radar?.partyKey ?? "unknown";
  const digits = content.caseNumber?.replace(/\D/gu, "") ?? content.djenId;
  return {
    kind: "alert",
    type: "publication",
    key: `party:${party}:${digits}`,
    subject: renderPublicationSubject(content),
    payload: content,
    changeId: null,
    caseId: null,
    timing: { rule: "alert", urgent: content.urgent },
    event: { type: "party.match", channels },
  };
}

/** What an operator alert is about: each finding is mailed once, however many sweeps see it. */
function operatorKey(alert: AdminAlert): string {
  switch (alert.type) {
    case "auth_rejected":
      return `admin:auth:${alert.since}`;
    case "auth_recovered":
      return `admin:auth-recovered:${alert.since}`;
    case "sweeps_failing":
      return `admin:sweeps:${alert.since}`;
    case "sweeps_recovered":
      return `admin:sweeps-recovered:${alert.since}`;
    case "djen_failing":
      return `admin:djen:${alert.since}`;
    case "djen_recovered":
      return `admin:djen-recovered:${alert.since}`;
    case "case_failing":
      return `admin:failing:${caseThreadKey(alert.caseNumber, alert.court)}:${alert.failingSince}`;
    case "case_gone":
      return `admin:gone:${caseThreadKey(alert.caseNumber, alert.court)}:${alert.goneAt}`;
    case "endpoint_disabled":
      return `admin:endpoint-disabled:${alert.channel}:${alert.name}:${alert.since}`;
    case "endpoint_dead":
      return `admin:endpoint-dead:${alert.channel}:${alert.name}:${alert.since}`;
    case "endpoint_unsendable":
      return `admin:endpoint-unsendable:${alert.channel}:${alert.name}:${alert.since}`;
    case "court_silent":
      return `admin:court-silent:${alert.court}:${alert.since}`;
    case "watchlist_invalid":
      return `admin:watchlist:${alert.since}`;
    case "watchlist_recovered":
      return `admin:watchlist-recovered:${alert.since}`;
  }
}

/** A problem only a person can fix (mail.admin), sent at once. */
export function operatorAlert(alert: AdminAlert, caseId: number | null): OutboxMessage {
  return {
    kind: "admin",
    type: "operator",
    key: operatorKey(alert),
    subject: renderAdminSubject([alert]),
    payload: alert,
    changeId: null,
    caseId,
    timing: { rule: "now" },
    event: { type: "operator.alert", channels: [] },
  };
}

/** The status report of one fire time of a watcher's schedule, held by quiet hours. */
export function statusReport(report: StatusReport, fire: Date): OutboxMessage {
  return {
    kind: "report",
    type: "status-report",
    key: statusReportKey(fire),
    subject: renderStatusReportSubject(report),
    payload: report,
    changeId: null,
    caseId: null,
    timing: { rule: "after-quiet-hours" },
  };
}

export function statusReportKey(fire: Date): string {
  return `report:${fire.toISOString()}`;
}

/** What a watcher's receipt is about: its day (the dedupe key adds the address). */
export function receiptKey(day: string): string {
  return `receipt:${day}`;
}

/**
 * A watcher's daily receipt: an alert like any, so a watcher who gets digests finds it in the
 * next one and one who does not gets it alone (held by quiet hours). E-mail only.
 */
export function receiptMessage(receipt: Receipt): OutboxMessage {
  return {
    kind: "alert",
    type: "receipt",
    key: receiptKey(receipt.day),
    subject: renderReceiptSubject(receipt),
    payload: receipt,
    changeId: null,
    caseId: null,
    timing: { rule: "alert", urgent: false },
  };
}

/** `monitor test-email`'s sample alert; `nonce` makes each run's key (and Message-ID) its own. */
export function testMessage(content: AlertContent, at: Date, nonce: string): OutboxMessage {
  return {
    kind: "test",
    type: "movement",
    key: `test:${at.toISOString()}:${nonce}`,
    subject: renderSubject(content),
    payload: content,
    changeId: null,
    caseId: null,
    timing: { rule: "now" },
  };
}

/**
 * The alert.acknowledged event of an urgent alert, for the webhook and chat endpoints that take
 * it (routed by the case's channels as the alert was): queued with no e-mail endpoint, in the
 * transaction that records the acknowledgement, once per alert (its key names the
 * acknowledgement).
 */
export function acknowledgedMessage(input: {
  ack: {
    id: number;
    alertKey: string;
    caseId: number | null;
    changeId: number | null;
    subject: string;
    channels: readonly string[];
    createdAt: string;
  };
  case: { number: string | null; court: string; label: string | null } | null;
  by: string;
  at: string;
  /** How: "link" (the page's button), "telegram" or "whatsapp" (a reply "ciente"). */
  via: "link" | "telegram" | "whatsapp";
}): OutboxMessage {
  const { ack } = input;
  const notice: AcknowledgementNotice = {
    notice: "alert.acknowledged",
    alertKey: ack.alertKey,
    subject: ack.subject,
    queuedAt: ack.createdAt,
    case: input.case,
    acknowledgedAt: input.at,
    acknowledgedBy: input.by,
    via: input.via,
  };
  return {
    kind: "alert",
    type: "acknowledgement",
    key: `acknowledged:${ack.id}`,
    subject: `Ciente: ${ack.subject}`,
    payload: notice,
    changeId: ack.changeId,
    caseId: ack.caseId,
    timing: { rule: "now" },
    event: { type: "alert.acknowledged", channels: ack.channels },
  };
}

/**
 * One step of an unacknowledged urgent alert's escalation chain: the alert again, told as an
 * escalation, to the step's watcher or endpoint (and, as alert.escalated, to the endpoints the
 * case routes to that take it). Once per alert and step (its key names both); it goes at once,
 * alone, and asks for the alert's own acknowledgement, so anyone's stops the chain.
 */
export function escalationMessage(input: {
  ack: {
    id: number;
    caseId: number | null;
    changeId: number | null;
    channels: readonly string[];
  };
  notice: EscalationNotice;
}): OutboxMessage {
  const { ack, notice } = input;
  return {
    kind: "alert",
    type: "escalation",
    key: `escalation:${ack.id}:${notice.step}`,
    subject: escalationSubject(notice),
    payload: notice,
    changeId: ack.changeId,
    caseId: ack.caseId,
    timing: { rule: "now" },
    event: { type: "alert.escalated", channels: ack.channels },
    acknowledgement: ack.id,
  };
}
