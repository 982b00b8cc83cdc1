import { chatMessage } from "../render/chat-message.js";
import { renderSlack } from "../render/slack-message.js";
import { renderTeams } from "../render/teams-message.js";
import { renderTelegram } from "../render/telegram-message.js";
import type { WebhookEvent } from "../render/webhook-event.js";
import { type Endpoint, endpointUrl, scrubEndpoint } from "../transport/endpoint.js";
import { type Verdict, verdictOf } from "../transport/endpoint-verdict.js";
import {
  type EndpointLimits,
  type PostOutcome,
  type PostRequest,
  postToEndpoint,
} from "../transport/http-endpoint.js";
import { signWebhook } from "../transport/webhook-signature.js";

/*
 * One event to one endpoint: the body in the endpoint's own format (the event itself, signed,
 * for a webhook; a short message for a chat), one POST, and what its answer means for the row.
 */

export interface EndpointDeliveryOptions {
  limits: EndpointLimits;
  /** The attempt's time: the webhook timestamp a receiver checks against its clock. */
  now: () => Date;
  signal?: AbortSignal;
  resolve?: PostRequest["resolve"];
}

export interface EndpointDelivery {
  outcome: PostOutcome;
  verdict: Verdict;
}

const JSON_TYPE = { "content-type": "application/json" };

function requestBody(
  endpoint: Endpoint,
  event: WebhookEvent,
  now: Date,
): {
  body: string;
  headers: Record<string, string>;
} {
  switch (endpoint.channel) {
    case "webhook": {
      const body = JSON.stringify(event);
      const signed = signWebhook({
        id: event.id,
        timestampSeconds: now.getTime() / 1000,
        body,
        secrets: endpoint.secrets,
      });
      return { body, headers: { ...JSON_TYPE, ...signed } };
    }
    case "slack":
      return { body: JSON.stringify(renderSlack(chatMessage(event))), headers: JSON_TYPE };
    case "teams":
      return { body: JSON.stringify(renderTeams(chatMessage(event))), headers: JSON_TYPE };
    case "telegram":
      return {
        body: JSON.stringify(renderTelegram(chatMessage(event), endpoint.chatId)),
        headers: JSON_TYPE,
      };
  }
}

export async function deliverToEndpoint(
  endpoint: Endpoint,
  event: WebhookEvent,
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
    return { outcome, verdict: verdictOf(outcome) };
  }
  const { body, headers } = requestBody(endpoint, event, options.now());
  const outcome = await postToEndpoint({
    url,
    body,
    headers,
    limits: options.limits,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
  });
  const clean: PostOutcome =
    outcome.kind === "answered"
      ? { ...outcome, body: scrubEndpoint(outcome.body, endpoint) }
      : { ...outcome, message: scrubEndpoint(outcome.message, endpoint) };
  return { outcome: clean, verdict: verdictOf(clean) };
}
