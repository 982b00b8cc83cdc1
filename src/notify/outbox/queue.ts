import { endpointDelivery, endpointsFor } from "../../policy/endpoint-policy.js";
import {
  type AlertDelivery,
  type DeliveryTiming,
  deliveryOf,
  type MailPolicy,
} from "../../policy/mail-policy.js";
import type { Db } from "../../store/database.js";
import { insertOutboxRow, type OutboxKind } from "../../store/outbox.js";
import { alertMessageId } from "./message-ids.js";

/*
 * The one way into the outbox. Every message (a movement alert, a publication and its
 * correction, an operator alert, a status report, a test) is queued by `queueMessage`: one row per
 * endpoint, one dedupe key (what the message is about, ':', the endpoint), one delivery-time rule
 * (policy/mail-policy.ts `deliveryOf`: alone or in a digest, and not before when) and one
 * Message-ID (from the dedupe key, so a resend repeats it). A kind of message only says what it
 * is about and what it carries.
 */

/**
 * The channels an outbox row can be addressed to. A new channel (a webhook, a chat) is a name
 * here and a renderer and sender of its own in the drain; it queues through `queueMessage` too.
 */
export const CHANNELS = ["email", "webhook", "slack", "teams", "telegram"] as const;
export type Channel = (typeof CHANNELS)[number];

export function isChannel(value: string): value is Channel {
  return (CHANNELS as readonly string[]).includes(value);
}

/** Where one row goes: a channel and the address there (for "email", a plain e-mail address). */
export interface Endpoint {
  channel: Channel;
  address: string;
}

/**
 * An endpoint in a dedupe key: an e-mail address in lower case, anything else `channel:address`
 * (a webhook or chat endpoint's address is its name in the configuration).
 */
export function endpointKey(endpoint: Endpoint): string {
  const address = endpoint.address.trim();
  return endpoint.channel === "email" ? address.toLowerCase() : `${endpoint.channel}:${address}`;
}

/** The dedupe key of a message's row for one endpoint: unique in the outbox. */
export function dedupeKey(messageKey: string, endpoint: Endpoint): string {
  return `${messageKey}:${endpointKey(endpoint)}`;
}

export function emailEndpoints(addresses: readonly string[]): Endpoint[] {
  return addresses.map((address) => ({ channel: "email", address }));
}

/** One message before it is addressed: what it is about, what it carries, when it may go. */
export interface OutboxMessage {
  /** "alert" (a movement or a publication) becomes "digest" for a watcher who gets digests. */
  kind: Exclude<OutboxKind, "digest">;
  /**
   * What the message is about, the same for each of its endpoints (`alert:<change id>:<detected
   * at>:<case>`, `publication:<DJEN id>`, ...); its dedupe key is this, ":" and the endpoint.
   */
  key: string;
  subject: string;
  /** Everything its renderer needs, computed now, so a resend renders the same message. */
  payload: unknown;
  changeId: number | null;
  caseId: number | null;
  timing: DeliveryTiming;
  /**
   * The webhook event type it is, and the endpoints (by name) its case routes to: the configured
   * endpoints that take it get a row each too (policy/endpoint-policy.ts). Absent: e-mail only.
   */
  event?: { type: string; channels: readonly string[] };
}

export interface QueueContext {
  db: Db;
  /** The domain of our Message-IDs. */
  domain: string;
  /** When it is queued: the rows' creation time, from which delivery times are reckoned. */
  at: Date;
  /** The watchlist's watchers and mail settings; absent: everything goes out at once, alone. */
  policy?: MailPolicy | undefined;
}

/** The endpoints, besides the given ones, that `message` goes to: those its event routes to. */
function routed(context: QueueContext, message: OutboxMessage): Endpoint[] {
  const configured = context.policy?.endpoints;
  if (message.event === undefined || configured === undefined) return [];
  return endpointsFor(message.event.type, message.event.channels, configured).map((e) => ({
    channel: e.channel,
    address: e.name,
  }));
}

/** When a row for a webhook or chat endpoint goes: as that endpoint takes alerts (a webhook at once). */
function endpointTiming(
  context: QueueContext,
  endpoint: Endpoint,
  timing: DeliveryTiming,
): AlertDelivery {
  const settings = context.policy?.endpoints?.find(
    (e) => e.channel === endpoint.channel && e.name === endpoint.address,
  );
  if (settings === undefined || context.policy === undefined || timing.rule !== "alert") {
    return { kind: "alert", notBefore: null };
  }
  return endpointDelivery(settings, context.policy, timing.urgent, context.at);
}

/**
 * Queues `message` to each endpoint, one row each (an endpoint listed twice, or blank, is
 * skipped). Call it in the transaction that records what the message reports, so a crash keeps
 * both or neither. Returns how many rows were new: queueing the same message again (a retried
 * run) adds nothing.
 */
export function queueMessage(
  context: QueueContext,
  message: OutboxMessage,
  endpoints: readonly Endpoint[],
): number {
  const seen = new Set<string>();
  const createdAt = context.at.toISOString();
  let queued = 0;
  for (const raw of [...endpoints, ...routed(context, message)]) {
    const endpoint: Endpoint = { channel: raw.channel, address: raw.address.trim() };
    const who = endpointKey(endpoint);
    if (endpoint.address === "" || seen.has(who)) continue;
    seen.add(who);
    const key = dedupeKey(message.key, endpoint);
    const delivery =
      endpoint.channel === "email"
        ? deliveryOf(context.policy, endpoint.address, message.timing, context.at)
        : endpointTiming(context, endpoint, message.timing);
    const inserted = insertOutboxRow(context.db, {
      changeId: message.changeId,
      caseId: message.caseId,
      channel: endpoint.channel,
      recipient: endpoint.address,
      kind: message.kind === "alert" ? delivery.kind : message.kind,
      dedupeKey: key,
      subject: message.subject,
      messageId: alertMessageId(key, context.domain),
      payload: message.payload,
      createdAt,
      nextAttemptAt: delivery.notBefore,
    });
    if (inserted) queued++;
  }
  return queued;
}
