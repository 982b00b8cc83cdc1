import { type Clock, dateNow } from "../../time/clock.js";
import { ACK_BUTTON } from "../render/acknowledgement.js";
import { chatDigest, chatMessage } from "../render/chat-message.js";
import type { WebhookEvent } from "../render/webhook-event.js";
import { type Endpoint, endpointUrl, scrubEndpoint } from "../transport/endpoint.js";
import { type Verdict, verdictOf } from "../transport/endpoint-verdict.js";
import {
  type EndpointLimits,
  type PostOutcome,
  type PostRequest,
  postToEndpoint,
} from "../transport/http-endpoint.js";
import { sentMessageId } from "../transport/sent-message-id.js";
import { signWebhook } from "../transport/webhook-signature.js";
import { chatBody } from "./channels.js";

/*
 * One event to one endpoint: the body in the endpoint's own format (the event itself, signed,
 * for a webhook; a short message for a chat), one POST, and what its answer means for the row.
 */

export interface EndpointDeliveryOptions {
  limits: EndpointLimits;
  /** The attempt's time: the webhook timestamp a receiver checks against its clock. */
  clock: Clock;
  signal?: AbortSignal;
  resolve?: PostRequest["resolve"];
  /**
   * Each event's acknowledgement link, in the order of the events (null: its row asks none): a
   * chat shows one alert's as a button, a digest's each under its alert; never a webhook's.
   */
  ackUrls?: readonly (string | null)[];
}

export interface EndpointDelivery {
  outcome: PostOutcome;
  verdict: Verdict;
  /** The chat platform's id of the message, when delivered and its answer said (sent-message-id.ts). */
  sentMessageId: string | null;
}

const JSON_TYPE = { "content-type": "application/json" };

/** One event, or a chat digest of several (webhooks never get digests: one POST per event). */
function requestBody(
  endpoint: Endpoint,
  events: readonly WebhookEvent[],
  now: Date,
  ackUrls: readonly (string | null)[],
): { body: string; headers: Record<string, string> } {
  const [first] = events;
  if (first === undefined) throw new TypeError("nothing to deliver");
  if (endpoint.channel !== "webhook") {
    const ackUrl = ackUrls[0] ?? null;
    const message =
      events.length === 1
        ? {
            ...chatMessage(first),
            ack: ackUrl === null ? null : { label: ACK_BUTTON, url: ackUrl },
          }
        : chatDigest(events, ackUrls);
    const body = JSON.stringify(chatBody(endpoint, message));
    // The Cloud API takes its token as a bearer credential, never in the URL.
    if (endpoint.channel === "whatsapp") {
      return { body, headers: { ...JSON_TYPE, authorization: `Bearer ${endpoint.token}` } };
    }
    return { body, headers: JSON_TYPE };
  }
  if (events.length > 1) throw new TypeError("a webhook gets one event per request");
  const body = JSON.stringify(first);
  const signed = signWebhook({
    id: first.id,
    timestampSeconds: now.getTime() / 1000,
    body,
    secrets: endpoint.secrets,
  });
  return { body, headers: { ...JSON_TYPE, ...signed } };
}

/** One webhook event, one chat message, or (chat only) a digest of several events. */
export async function deliverToEndpoint(
  endpoint: Endpoint,
  event: WebhookEvent | readonly WebhookEvent[],
  options: EndpointDeliveryOptions,
): Promise<EndpointDelivery> {
  let url: URL;
  try {
    url = endpointUrl(endpoint);
  } catch {
    const outcome: PostOutcome = {
      kind: "failed",
      failure: "url",
      message: `the URL of ${endpoint.channel} endpoint "${endpoint.name}" is not a URL`,
    };
    return { outcome, verdict: verdictOf(outcome), sentMessageId: null };
  }
  const events: readonly WebhookEvent[] = Array.isArray(event) ? event : [event as WebhookEvent];
  const { body, headers } = requestBody(
    endpoint,
    events,
    dateNow(options.clock),
    options.ackUrls ?? [],
  );
  const outcome = await postToEndpoint({
    url,
    body,
    headers,
    limits: options.limits,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
  });
  let clean: PostOutcome;
  let id: string | null = null;
  if (outcome.kind === "answered") {
    // The raw answer is read for our message's id, then dropped: only the clean line goes on.
    const { text, ...answered } = outcome;
    const ok = outcome.status >= 200 && outcome.status < 300;
    id = ok && text !== undefined ? sentMessageId(endpoint.channel, text) : null;
    clean = { ...answered, body: scrubEndpoint(outcome.body, endpoint) };
  } else {
    clean = { ...outcome, message: scrubEndpoint(outcome.message, endpoint) };
  }
  return { outcome: clean, verdict: verdictOf(clean, endpoint.channel), sentMessageId: id };
}
