import { z } from "zod";
import { type Endpoint, scrubEndpoint } from "../notify/transport/endpoint.js";
import type {
  EndpointLimits,
  PostOutcome,
  PostRequest,
} from "../notify/transport/http-endpoint.js";
import { TELEGRAM_REPLIES_PATH } from "./telegram-replies.js";

/*
 * Pointing a Telegram bot's webhook at the daemon (`datajud-monitor endpoint telegram-webhook
 * NAME`), so replies "ciente" reach /replies/telegram/<NAME>: the Bot API's setWebhook with the
 * url, the secret_token Telegram will send back in X-Telegram-Bot-Api-Secret-Token, and only
 * message updates (core.telegram.org/bots/api#setwebhook). Telegram answers {"ok": true, ...} or
 * {"ok": false, "description": ...}; what it says is shown with the bot's token blanked.
 */

type TelegramEndpoint = Extract<Endpoint, { channel: "telegram" }>;

const Answer = z.object({ ok: z.boolean(), description: z.string().optional() });

/** Where the bot's updates go: the public base URL's reply webhook for this endpoint. */
export function repliesUrl(publicBaseUrl: string, name: string): string {
  return `${publicBaseUrl.replace(/\/+$/u, "")}${TELEGRAM_REPLIES_PATH}${encodeURIComponent(name)}`;
}

export function setWebhookRequest(
  endpoint: TelegramEndpoint,
  publicBaseUrl: string,
  secret: string,
  limits: EndpointLimits,
): PostRequest {
  return {
    url: new URL(`${endpoint.apiBase.replace(/\/+$/u, "")}/bot${endpoint.token}/setWebhook`),
    body: JSON.stringify({
      url: repliesUrl(publicBaseUrl, endpoint.name),
      secret_token: secret,
      allowed_updates: ["message"],
    }),
    headers: { "content-type": "application/json" },
    limits,
  };
}

/** What Telegram's answer came to: set, or why not (never the bot's token). */
export function setWebhookResult(
  outcome: PostOutcome,
  endpoint: TelegramEndpoint,
): { ok: true } | { ok: false; error: string } {
  if (outcome.kind === "failed") {
    return { ok: false, error: scrubEndpoint(outcome.message, endpoint) };
  }
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(outcome.text ?? "");
  } catch {
    // not JSON: said below by its status and first line
  }
  const answer = Answer.safeParse(parsed);
  if (outcome.status >= 200 && outcome.status < 300 && answer.success && answer.data.ok) {
    return { ok: true };
  }
  const said = answer.success ? (answer.data.description ?? "") : outcome.body;
  return {
    ok: false,
    error: scrubEndpoint(
      `Telegram answered HTTP ${outcome.status}: ${said}`.slice(0, 300),
      endpoint,
    ),
  };
}
