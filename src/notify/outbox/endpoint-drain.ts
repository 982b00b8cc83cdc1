import type { Logger } from "../../log.js";
import { cloudApiNumber } from "../../phone-number.js";
import { type EndpointAlert, enableCommand } from "../../policy/endpoint-health.js";
import type { MailPolicy } from "../../policy/mail-policy.js";
import { type Db, immediate } from "../../store/database.js";
import {
  disableEndpoint,
  endpointState,
  markEndpointDead,
  markEndpointDelivered,
} from "../../store/endpoint-state.js";
import type { Claimant } from "../../store/lease.js";
import {
  claimOutbox,
  claimOutboxGroup,
  dueOutbox,
  giveUpEndpoint,
  markAllFailed,
  markAllSent,
  type OutboxRow,
  releaseAbandonedClaims,
} from "../../store/outbox.js";
import { type Clock, dateNow, isoNow } from "../../time/clock.js";
import {
  acknowledgedEvent,
  caseCheckedEvent,
  correctionNoticeEvent,
  escalatedEvent,
  movementEvent,
  operatorEvent,
  publicationEvent,
  publicationMissingEvent,
} from "../render/build-event.js";
import type { WebhookEvent } from "../render/webhook-event.js";
import { describeEndpoint, type Endpoint, endpointHost } from "../transport/endpoint.js";
import { isLastAttempt, type Verdict } from "../transport/endpoint-verdict.js";
import type { EndpointLimits } from "../transport/http-endpoint.js";
import { eventId } from "../transport/webhook-signature.js";
import { ENDPOINT_CHANNELS } from "./channels.js";
import { defaultBackoffMs } from "./drain.js";
import { deliverToEndpoint } from "./endpoint-delivery.js";
import { readStoredMessage } from "./message-types.js";
import { operatorAlert } from "./messages.js";
import { emailEndpoints, queuedRows, queueMessage } from "./queue.js";

/*
 * The outbox's rows for webhook and chat endpoints, sent as the e-mail drain sends mail: claim
 * the row (under this process's name), POST, and mark it sent in one statement right after the
 * 2xx. A crash between the 2xx and the mark leaves the row claimed by a dead process; the next
 * drain takes it over at once and sends it again, with the same webhook-id (the event id comes
 * from the row's dedupe key): at most one resend per endpoint per crash, which a receiver that
 * remembers ids absorbs. A chat endpoint's digest rows due together go as one message.
 *
 * An endpoint's state outlives the process (store/endpoint-state.ts): a 410 Gone (for WhatsApp,
 * a token the Graph API refuses: transport/endpoint-verdict.ts) disables it
 * until a person enables it again, and what is queued for it meanwhile is given up unsent; the
 * first alert given up after a delivery makes it dead. Each of the two is told to the operator
 * once (mail.admin and the endpoints that take operator alerts), in the transaction that records
 * it, never once per alert.
 */

export { ENDPOINT_CHANNELS };

const MINUTE_MS = 60_000;
const DEFAULT_CLAIM_MS = 10 * MINUTE_MS;
const BATCH = 50;
const GROUP_MAX = 50;

export interface EndpointDrainOptions {
  db: Db;
  /** The configured endpoints this process can send to, found by channel and name. */
  endpoints: readonly Endpoint[];
  /**
   * Endpoints the configuration names that this process cannot send to (it lacks a variable):
   * their rows are left as they are, due, for a process that can. Any other row without an
   * endpoint is given up (the endpoint was removed from the configuration).
   */
  unsendable?: ReadonlyArray<{ channel: string; name: string }>;
  /** The channels drained, in order (deliver.ts drains one at a time). @default every endpoint channel */
  channels?: readonly string[];
  limits: EndpointLimits;
  /** The process's clock: claims, sends and retries are timed on it. */
  clock: Clock;
  maxAttempts: number;
  backoffMs?: (attempt: number) => number;
  logger: Logger;
  signal?: AbortSignal;
  claimMs?: number;
  claimant: Claimant;
  /** The acknowledgement link of a row that asks for one (ack/ack-link.ts); absent: none. */
  ackLink?: (row: OutboxRow) => string | null;
  /** Who hears that an endpoint was disabled or went dead; absent: nobody (the log says it). */
  operator?: {
    /** `mail.admin`; null: only the endpoints that take operator alerts. */
    admin: string | null;
    /** The domain of our Message-IDs. */
    domain: string;
    policy: () => MailPolicy | undefined;
  };
}

/** Alerts (outbox rows; a chat digest is several) by what became of them. */
export interface EndpointTally {
  sent: number;
  failed: number;
  dead: number;
}

export interface EndpointDrainResult extends EndpointTally {
  /** The same, per endpoint (`channel` and configured `name`). */
  byEndpoint: Array<{ channel: string; name: string } & EndpointTally>;
  /** Operator alerts queued (an endpoint disabled or gone dead): the e-mail drain sends them. */
  operatorAlerts: number;
}

/**
 * The event a row carries, with an id that is the same on every retry of the row; null when its
 * stored message is not one an endpoint takes (a status report, a receipt) or does not read.
 */
export function rowEvent(row: OutboxRow): WebhookEvent | null {
  const meta = { id: eventId(row.dedupeKey), test: row.kind === "test" };
  const read = readStoredMessage(row.messageType, row.payload);
  if (!read.ok) return null;
  const stored = read.message;
  switch (stored.type) {
    case "movement":
      return movementEvent(stored.content, meta);
    case "correction":
      return correctionNoticeEvent(stored.notice, meta);
    case "publication":
      return publicationEvent(stored.content, meta);
    case "operator":
      return operatorEvent(stored.alert, meta);
    case "acknowledgement":
      return acknowledgedEvent(stored.notice, meta);
    case "escalation":
      return escalatedEvent(stored.notice, meta);
    case "djen-gap":
      return publicationMissingEvent(stored.warning, meta);
    case "case-checked":
      return caseCheckedEvent(stored.checked, meta);
    case "status-report":
    case "receipt":
      return null;
  }
}

interface Planned {
  endpoint: Endpoint | null;
  rows: OutboxRow[];
}

/**
 * The endpoint a row goes to: the configured one of its channel and name; for a row of a
 * per-watcher WhatsApp endpoint, that endpoint addressed to the row's own number.
 */
function endpointOf(row: OutboxRow, endpoints: readonly Endpoint[]): Endpoint | null {
  const endpoint =
    endpoints.find((e) => e.channel === row.channel && e.name === row.recipient) ?? null;
  if (endpoint?.channel === "whatsapp" && row.target !== null) {
    return { ...endpoint, to: cloudApiNumber(row.target) };
  }
  return endpoint;
}

/**
 * Whether a digest row goes in a message of its own, at the digest's time: on WhatsApp, an urgent
 * alert that asks for an acknowledgement (the template has one link, and a reply "ciente" to it
 * names that alert alone).
 */
function alone(row: OutboxRow, endpoint: Endpoint): boolean {
  return endpoint.channel === "whatsapp" && row.ackId !== null;
}

/** One POST per row; a chat endpoint's digest rows due together (per number), one message. */
function plan(rows: readonly OutboxRow[], endpoints: readonly Endpoint[]): Planned[] {
  const out: Planned[] = [];
  const digests = new Map<string, Planned>();
  for (const row of rows) {
    const endpoint = endpointOf(row, endpoints);
    if (
      endpoint === null ||
      endpoint.channel === "webhook" ||
      row.kind !== "digest" ||
      alone(row, endpoint)
    ) {
      out.push({ endpoint, rows: [row] });
      continue;
    }
    const key = `${row.channel}|${row.recipient}|${row.target ?? ""}`;
    let group = digests.get(key);
    if (group === undefined || group.rows.length >= GROUP_MAX) {
      group = { endpoint, rows: [] };
      digests.set(key, group);
      out.push(group);
    }
    group.rows.push(row);
  }
  return out;
}

type Outcome = { kind: "sent" | "failed" | "dead"; rows: number } | { kind: "skipped" };

/** Queues the operator's alert that `endpoint` was disabled or went dead (inside the caller's transaction). */
function tellOperator(options: EndpointDrainOptions, alert: EndpointAlert): number {
  const operator = options.operator;
  if (operator === undefined) return 0;
  const admin = operator.admin?.trim() ?? "";
  const policy = operator.policy();
  // Not to the endpoint it is about: it would only fail there again.
  const others = policy?.endpoints?.filter(
    (e) => !(e.channel === alert.channel && e.name === alert.name),
  );
  const queued = queueMessage(
    {
      db: options.db,
      domain: operator.domain,
      at: dateNow(options.clock),
      policy:
        policy === undefined || others === undefined ? policy : { ...policy, endpoints: others },
    },
    operatorAlert(alert, null),
    emailEndpoints(admin === "" ? [] : [admin]),
  );
  return queuedRows(queued);
}

/** What the drain did besides the rows: operator alerts queued. */
interface DrainTally {
  operatorAlerts: number;
}

/** Gives up the due rows of a disabled endpoint without sending them. */
function giveUpDisabled(
  planned: Planned & { endpoint: Endpoint },
  disabledAt: string,
  options: EndpointDrainOptions,
): Outcome {
  const { endpoint } = planned;
  const n = giveUpEndpoint(
    options.db,
    endpoint.channel,
    endpoint.name,
    `not sent: the endpoint is disabled since ${disabledAt} (it answered 410 Gone, or WhatsApp refused its token); re-enable it with ${enableCommand(endpoint.name)}`,
  );
  return n === 0 ? { kind: "skipped" } : { kind: "dead", rows: n };
}

async function send(
  planned: Planned,
  options: EndpointDrainOptions,
  holder: string,
  tally: DrainTally,
): Promise<Outcome> {
  const { db } = options;
  const nowIso = isoNow(options.clock);
  const until = new Date(options.clock.now() + (options.claimMs ?? DEFAULT_CLAIM_MS)).toISOString();
  const first = planned.rows[0];
  if (first === undefined) return { kind: "skipped" };
  if (
    planned.endpoint === null &&
    options.unsendable?.some((e) => e.channel === first.channel && e.name === first.recipient)
  ) {
    return { kind: "skipped" };
  }
  const events = planned.rows.map(rowEvent);
  const target = sendableTo(planned.endpoint, first, events);
  if ("error" in target) {
    if (!claimOutbox(db, first.id, nowIso, until, holder)) return { kind: "skipped" };
    markAllFailed(db, [first.id], { error: target.error, nextAttemptAt: until, dead: true });
    return { kind: "dead", rows: 1 };
  }
  const { endpoint } = target;
  const disabledAt = endpointState(db, endpoint.channel, endpoint.name)?.disabledAt ?? null;
  if (disabledAt !== null) return giveUpDisabled({ ...planned, endpoint }, disabledAt, options);
  const claimedIds = claimRows(db, planned.rows, nowIso, until, holder);
  if (claimedIds.length === 0) return { kind: "skipped" };
  const { verdict, sentMessageId } = await deliverClaimed(
    endpoint,
    planned.rows,
    events,
    claimedIds,
    options,
  );
  if (verdict.kind === "delivered") {
    // Nothing between the 2xx and this mark: a crash in that gap is one resend, same webhook-id.
    markAllSent(db, claimedIds, {
      sentAt: isoNow(options.clock),
      smtpResponse: verdict.response,
      providerMessageId: sentMessageId,
    });
    markEndpointDelivered(db, endpoint);
    options.logger.info(
      { outboxIds: claimedIds, endpoint: describeEndpoint(endpoint) },
      "alert delivered to endpoint",
    );
    return { kind: "sent", rows: claimedIds.length };
  }
  const attempts =
    Math.max(...planned.rows.filter((r) => claimedIds.includes(r.id)).map((r) => r.attempts)) + 1;
  const failed = { endpoint, claimedIds, attempts, test: first.kind === "test", nowIso };
  return recordFailure(failed, verdict, options, tally);
}

/** The endpoint the planned rows go to, or why they can go nowhere (given up at once). */
function sendableTo(
  endpoint: Endpoint | null,
  first: OutboxRow,
  events: ReadonlyArray<WebhookEvent | null>,
): { endpoint: Endpoint } | { error: string } {
  const name = first.recipient.slice(0, 40);
  if (endpoint === null) {
    return { error: `no ${first.channel} endpoint "${name}" in the configuration any more` };
  }
  if (endpoint.channel === "whatsapp" && endpoint.to === null) {
    return {
      error: `whatsapp endpoint "${name}" has no number of its own (no to:) and the row names no watcher's number`,
    };
  }
  if (events.some((e) => e === null)) {
    return { error: "the stored payload is not an alert; it cannot be sent" };
  }
  return { endpoint };
}

/** Claims the rows for this process: a row alone, or a digest's rows together; the ids claimed. */
function claimRows(
  db: Db,
  rows: readonly OutboxRow[],
  nowIso: string,
  until: string,
  holder: string,
): number[] {
  const ids = rows.map((r) => r.id);
  const [only] = ids;
  if (ids.length === 1 && only !== undefined) {
    return claimOutbox(db, only, nowIso, until, holder) ? [only] : [];
  }
  const key = () => `digest:${eventId(ids.join(","))}`;
  return claimOutboxGroup(db, ids, nowIso, until, key, holder).claimedIds;
}

/** POSTs the claimed rows' events (several: one chat digest), each with its acknowledgement link. */
function deliverClaimed(
  endpoint: Endpoint,
  rows: readonly OutboxRow[],
  events: ReadonlyArray<WebhookEvent | null>,
  claimedIds: readonly number[],
  options: EndpointDrainOptions,
): ReturnType<typeof deliverToEndpoint> {
  const ids = rows.map((r) => r.id);
  const claimed = claimedIds
    .map((id) => events[ids.indexOf(id)])
    .filter((e): e is WebhookEvent => e != null);
  const ackUrls = claimedIds.map((id) => {
    const row = rows.find((r) => r.id === id);
    return row === undefined || endpoint.channel === "webhook"
      ? null
      : (options.ackLink?.(row) ?? null);
  });
  return deliverToEndpoint(
    endpoint,
    claimed.length === 1 ? (claimed[0] as WebhookEvent) : claimed,
    {
      limits: options.limits,
      clock: options.clock,
      ackUrls,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    },
  );
}

/** A delivery that failed, as `recordFailure` records it. */
interface FailedDelivery {
  endpoint: Endpoint;
  claimedIds: number[];
  /** This attempt's number: one more than the most any claimed row had. */
  attempts: number;
  /** A `test-notify` row: never retried, never counted against the endpoint. */
  test: boolean;
  nowIso: string;
}

/**
 * Marks the claimed rows failed (retried after the back-off, or Retry-After when later) or dead;
 * a 410 disables the endpoint. The operator hears of a disabled or dead endpoint once.
 */
function recordFailure(
  failed: FailedDelivery,
  verdict: Exclude<Verdict, { kind: "delivered" }>,
  options: EndpointDrainOptions,
  tally: DrainTally,
): Outcome {
  const { db, logger } = options;
  const { endpoint, claimedIds, attempts, nowIso } = failed;
  const dead = isLastAttempt(verdict, attempts, options.maxAttempts) || failed.test;
  const backoff = Math.max(0, (options.backoffMs ?? defaultBackoffMs)(attempts));
  const wait =
    verdict.kind === "retry" && verdict.retryAfterSeconds !== null
      ? Math.max(backoff, verdict.retryAfterSeconds * 1000)
      : backoff;
  const next = new Date(options.clock.now() + wait).toISOString();
  const logged = { outboxIds: claimedIds, endpoint: describeEndpoint(endpoint) };
  const ref = { channel: endpoint.channel, name: endpoint.name, host: endpointHost(endpoint) };
  const givenUp = immediate(db, () => {
    markAllFailed(db, claimedIds, { error: verdict.error, nextAttemptAt: next, dead });
    if (verdict.kind === "gone") {
      const others = giveUpEndpoint(
        db,
        endpoint.channel,
        endpoint.name,
        `the endpoint is disabled: ${verdict.error}`,
      );
      logger.error(
        { ...logged, others },
        `endpoint disabled (410 Gone, or WhatsApp refused its token), its alerts given up; re-enable it with ${enableCommand(endpoint.name)}`,
      );
      if (disableEndpoint(db, endpoint, nowIso, verdict.error)) {
        tally.operatorAlerts += tellOperator(options, {
          type: "endpoint_disabled",
          ...ref,
          since: nowIso,
          lastError: verdict.error,
          givenUp: others,
        });
      }
      return others;
    }
    logger.warn({ ...logged, attempts, dead, error: verdict.error }, "endpoint delivery failed");
    if (dead && !failed.test && markEndpointDead(db, endpoint, nowIso)) {
      tally.operatorAlerts += tellOperator(options, {
        type: "endpoint_dead",
        ...ref,
        since: nowIso,
        attempts,
        lastError: verdict.error,
      });
    }
    return 0;
  });
  return { kind: dead ? "dead" : "failed", rows: claimedIds.length + givenUp };
}

export async function drainEndpoints(options: EndpointDrainOptions): Promise<EndpointDrainResult> {
  const result: EndpointDrainResult = {
    sent: 0,
    failed: 0,
    dead: 0,
    byEndpoint: [],
    operatorAlerts: 0,
  };
  const perEndpoint = new Map<string, EndpointDrainResult["byEndpoint"][number]>();
  const claimant = options.claimant;
  const nowIso = isoNow(options.clock);
  releaseAbandonedClaims(options.db, nowIso, claimant.holderIsDead);
  channels: for (const channel of options.channels ?? ENDPOINT_CHANNELS) {
    const rows: OutboxRow[] = [];
    for (;;) {
      const page = dueOutbox(options.db, channel, nowIso, BATCH, rows.at(-1)?.id ?? 0);
      rows.push(...page);
      if (page.length < BATCH) break;
    }
    for (const planned of plan(rows, options.endpoints)) {
      if (options.signal?.aborted) break channels;
      const outcome = await send(planned, options, claimant.holder, result);
      if (outcome.kind === "skipped") continue;
      result[outcome.kind] += outcome.rows;
      const first = planned.rows[0] as OutboxRow;
      const key = `${first.channel}\u0000${first.recipient}`;
      let tally = perEndpoint.get(key);
      if (tally === undefined) {
        tally = { channel: first.channel, name: first.recipient, sent: 0, failed: 0, dead: 0 };
        perEndpoint.set(key, tally);
        result.byEndpoint.push(tally);
      }
      tally[outcome.kind] += outcome.rows;
    }
  }
  return result;
}
