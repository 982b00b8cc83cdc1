import type { AlertDelivery } from "../../policy/mail-policy.js";
import type { Db } from "../../store/database.js";
import { enqueueAlert } from "../../store/outbox.js";
import { renderAlert } from "../render/alert.js";
import type { AlertContent } from "../render/alert-content.js";
import { alertMessageId, caseThreadKey } from "./message-ids.js";

const SEND_NOW: AlertDelivery = { kind: "alert", notBefore: null };

export interface QueueAlertsInput {
  db: Db;
  changeId: number;
  caseId: number;
  /** The case's watchers plus the watchlist defaults; duplicates are queued once. */
  recipients: readonly string[];
  content: AlertContent;
  /** When the change was detected: part of the key, so a rebuilt database never reuses a Message-ID. */
  detectedAt: string;
  domain: string;
  createdAt: string;
  /** Per recipient; default: each alert alone, now. */
  delivery?: (recipient: string) => AlertDelivery;
}

/**
 * Queues one alert per watcher of a change; call it in the transaction that stores the summary.
 * Returns how many rows were new (a re-run of the same change queues nothing twice).
 */
export function queueAlerts(input: QueueAlertsInput): number {
  const seen = new Set<string>();
  const rendered = renderAlert(input.content);
  const caseKey = caseThreadKey(input.content.caseNumber, input.content.court);
  let queued = 0;
  for (const raw of input.recipients) {
    const recipient = raw.trim();
    const key = recipient.toLowerCase();
    if (recipient === "" || seen.has(key)) continue;
    seen.add(key);
    const dedupeKey = `alert:${input.changeId}:${input.detectedAt}:${caseKey}:${key}`;
    const delivery = input.delivery?.(recipient) ?? SEND_NOW;
    const inserted = enqueueAlert(input.db, {
      changeId: input.changeId,
      caseId: input.caseId,
      recipient,
      kind: delivery.kind,
      nextAttemptAt: delivery.notBefore,
      dedupeKey,
      subject: rendered.subject,
      messageId: alertMessageId(dedupeKey, input.domain),
      payload: input.content,
      createdAt: input.createdAt,
    });
    if (inserted) queued++;
  }
  return queued;
}
