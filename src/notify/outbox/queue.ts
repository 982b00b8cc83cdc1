import { endpointDelivery, endpointsFor } from "../../policy/endpoint-policy.js";
import {
  type AlertDelivery,
  type DeliveryTiming,
  deliveryOf,
  type MailPolicy,
} from "../../policy/mail-policy.js";
import { ensureAcknowledgement } from "../../store/acknowledgements.js";
import type { Db } from "../../store/database.js";
import { insertOutboxRow, type OutboxKind } from "../../store/outbox.js";
import type { Channel } from "./channels.js";
import { alertMessageId } from "./message-ids.js";
import type { MessageType } from "./message-types.js";

/*
 * The one way into the outbox. Every message (a movement alert, a publication and its
 * correction, an operator alert, a status report, a test) is queued by `queueMessage`: one row per
 * endpoint, one dedupe key (what the message is about, ':', the endpoint), one delivery-time rule
 * (policy/mail-policy.ts `deliveryOf`: alone or in a digest, and not before when) and one
 * Message-ID (from the dedupe key, so a resend repeats it). A kind of message only says what it
 * is about and what it carries.
 */

// The channels an outbox row can be addressed to, and what sends each: channels.ts.
export { CHANNELS, type Channel, isChannel } from "./channels.js";

/** Where one row goes: a channel and the address there (for "email", a plain e-mail address). */
export interface Endpoint {
  channel: Channel;
  address: string;
  /** A per-watcher endpoint's row: the watcher's number there (E.164). */
  target?: string;
}

/**
 * An endpoint in a dedupe key: an e-mail address in lower case, anything else `channel:address`
 * (a webhook or chat endpoint's address is its name in the configuration).
 */
export function endpointKey(endpoint: Endpoint): string {
  const address = endpoint.address.trim();
  if (endpoint.channel === "email") return address.toLowerCase();
  const target = endpoint.target === undefined ? "" : `:${endpoint.target}`;
  return `${endpoint.channel}:${address}${target}`;
}

/** The dedupe key of a message's row for one endpoint: unique in the outbox. */
export function dedupeKey(messageKey: string, endpoint: Endpoint): string {
  return `${messageKey}:${endpointKey(endpoint)}`;
}

export function emailEndpoints(addresses: readonly string[]): Endpoint[] {
  return addresses.map((address) => ({ channel: "email", address }));
}

/**
 * Rows queued, by endpoint: "email" counts every e-mail row, `channel:name` the rows of one
 * webhook or chat endpoint. What the run report counts per channel and per endpoint.
 */
export type Queued = Readonly<Record<string, number>>;

export const NOTHING_QUEUED: Queued = Object.freeze({});

function queuedKey(endpoint: Endpoint): string {
  return endpoint.channel === "email" ? "email" : `${endpoint.channel}:${endpoint.address}`;
}

export function addQueued(...all: readonly Queued[]): Queued {
  const out: Record<string, number> = {};
  for (const q of all) {
    for (const [k, n] of Object.entries(q)) if (n > 0) out[k] = (out[k] ?? 0) + n;
  }
  return out;
}

/** Every row counted, whatever its channel. */
export function queuedRows(q: Queued): number {
  return Object.values(q).reduce((a, n) => a + n, 0);
}

/** The e-mail rows alone: what `emailsQueued` has always meant. */
export function queuedEmails(q: Queued): number {
  return q.email ?? 0;
}

/** Per channel: `{ email: 3, webhook: 3, slack: 3 }`. */
export function queuedByChannel(q: Queued): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, n] of Object.entries(q)) {
    const channel = k.split(":")[0] ?? k;
    out[channel] = (out[channel] ?? 0) + n;
  }
  return out;
}

/** The rows of one webhook or chat endpoint. */
export function queuedFor(q: Queued, channel: string, name: string): number {
  return q[`${channel}:${name}`] ?? 0;
}

/** One message before it is addressed: what it is about, what it carries, when it may go. */
export interface OutboxMessage {
  /** "alert" (a movement or a publication) becomes "digest" for a watcher who gets digests. */
  kind: Exclude<OutboxKind, "digest">;
  /** What `payload` is: stored in the row, and read back through that type's schema. */
  type: MessageType;
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
  /**
   * The acknowledgement (store/acknowledgements.ts) every row but a webhook's asks for, made
   * before: an escalation step asks for its alert's. Absent: an urgent alert makes its own.
   */
  acknowledgement?: number;
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
  // A per-watcher endpoint has no number of its own: it follows the watchers (perWatcher below).
  const shared = configured.filter((e) => e.perWatcher !== true);
  return endpointsFor(message.event.type, message.event.channels, shared).map((e) => ({
    channel: e.channel,
    address: e.name,
  }));
}

/**
 * The rows of per-watcher endpoints: each e-mail watcher of the message with a `whatsapp:`
 * number gets it there too, through every per-watcher endpoint that takes the message's event.
 * A message without an event (a status report, operator mail) stays e-mail only.
 */
function perWatcher(
  context: QueueContext,
  message: OutboxMessage,
  endpoints: readonly Endpoint[],
): Endpoint[] {
  const policy = context.policy;
  const event = message.event;
  if (policy === undefined || event === undefined) return [];
  const takers = (policy.endpoints ?? []).filter(
    (e) => e.perWatcher === true && e.events.includes(event.type),
  );
  if (takers.length === 0) return [];
  const out: Endpoint[] = [];
  for (const e of endpoints) {
    if (e.channel !== "email") continue;
    const number = policy.watcher(e.address)?.whatsapp ?? null;
    if (number === null) continue;
    for (const t of takers) out.push({ channel: t.channel, address: t.name, target: number });
  }
  return out;
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

const HOUR_MS = 3_600_000;

/**
 * Whether a message asks whoever gets it to acknowledge it: an urgent alert (the alert policy's
 * urgency), when the policy turns acknowledgements on. A webhook is a machine: its rows never
 * carry a link.
 */
function asksAcknowledgement(context: QueueContext, message: OutboxMessage): boolean {
  return (
    context.policy?.acknowledgement !== undefined &&
    message.kind === "alert" &&
    message.timing.rule === "alert" &&
    message.timing.urgent
  );
}

/**
 * Queues `message` to each endpoint, one row each (an endpoint listed twice, or blank, is
 * skipped). Call it in the transaction that records what the message reports, so a crash keeps
 * both or neither. Returns the rows that were new, by endpoint: queueing the same message again
 * (a retried run) adds nothing.
 */
export function queueMessage(
  context: QueueContext,
  message: OutboxMessage,
  endpoints: readonly Endpoint[],
): Queued {
  const seen = new Set<string>();
  const createdAt = context.at.toISOString();
  const queued: Record<string, number> = {};
  const all = [
    ...endpoints,
    ...routed(context, message),
    ...perWatcher(context, message, endpoints),
  ];
  const validHours = context.policy?.acknowledgement?.validHours ?? 0;
  let ackId: number | null = null;
  // Made with the first row that carries its link, in the caller's transaction.
  const acknowledgement = (): number => {
    ackId ??= ensureAcknowledgement(context.db, {
      alertKey: message.key,
      caseId: message.caseId,
      changeId: message.changeId,
      subject: message.subject,
      channels: message.event?.channels ?? [],
      createdAt,
      expiresAt: new Date(context.at.getTime() + validHours * HOUR_MS).toISOString(),
    });
    return ackId;
  };
  const asks = asksAcknowledgement(context, message);
  for (const raw of all) {
    const endpoint: Endpoint = {
      channel: raw.channel,
      address: raw.address.trim(),
      ...(raw.target === undefined ? {} : { target: raw.target }),
    };
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
      messageType: message.type,
      dedupeKey: key,
      subject: message.subject,
      messageId: alertMessageId(key, context.domain),
      payload: message.payload,
      createdAt,
      nextAttemptAt: delivery.notBefore,
      target: endpoint.target ?? null,
      // A row folded into a digest carries its own link there, as one sent alone does.
      ackId:
        endpoint.channel === "webhook"
          ? null
          : (message.acknowledgement ?? (asks ? acknowledgement() : null)),
    });
    if (inserted) queued[queuedKey(endpoint)] = (queued[queuedKey(endpoint)] ?? 0) + 1;
  }
  return queued;
}
