/*
 * An endpoint alerts are delivered to besides e-mail: a signed webhook or a chat channel. Its
 * URL, token and secret are secrets (a chat webhook URL is a capability: whoever has it can post
 * to the channel), so they are only ever shown as the endpoint's name, channel and host.
 */

export const CHANNELS = ["webhook", "slack", "teams", "telegram", "whatsapp"] as const;
export type Channel = (typeof CHANNELS)[number];

export type Endpoint =
  | { name: string; channel: "webhook"; url: string; secrets: readonly string[] }
  | { name: string; channel: "slack"; url: string }
  | { name: string; channel: "teams"; url: string }
  | { name: string; channel: "telegram"; apiBase: string; token: string; chatId: string }
  | {
      name: string;
      channel: "whatsapp";
      /** The Graph API server (a proxy, a test fake), without the version. */
      apiBase: string;
      token: string;
      phoneNumberId: string;
      /**
       * The person's number, E.164 without the "+": what the Cloud API's `to` takes. Null: a
       * per-watcher endpoint, whose rows each carry their watcher's number (the outbox's target).
       */
      to: string | null;
      template: { name: string; language: string };
      /** The template with a "Confirmar ciência" URL button, for alerts asking acknowledgement. */
      ackTemplate?: { name: string; language: string } | null;
    };

export const TELEGRAM_API_BASE = "https://api.telegram.org";

/** The WhatsApp Business Cloud API: Meta's Graph API, at a pinned version. */
export const WHATSAPP_API_BASE = "https://graph.facebook.com";
export const WHATSAPP_API_VERSION = "v23.0";

/** Where a POST to the endpoint goes. */
export function endpointUrl(endpoint: Endpoint): URL {
  if (endpoint.channel === "telegram") {
    return new URL(`${endpoint.apiBase.replace(/\/+$/u, "")}/bot${endpoint.token}/sendMessage`);
  }
  if (endpoint.channel === "whatsapp") {
    const id = encodeURIComponent(endpoint.phoneNumberId);
    return new URL(
      `${endpoint.apiBase.replace(/\/+$/u, "")}/${WHATSAPP_API_VERSION}/${id}/messages`,
    );
  }
  return new URL(endpoint.url);
}

/** The host its URL points at: all of the URL that may be shown. */
export function endpointHost(endpoint: Endpoint): string {
  try {
    return endpointUrl(endpoint).host;
  } catch {
    return "an unreadable URL";
  }
}

/** `slack endpoint "equipe" (hooks.slack.com)`: what logs, errors and status may show. */
export function describeEndpoint(endpoint: Endpoint): string {
  return `${endpoint.channel} endpoint "${endpoint.name}" (${endpointHost(endpoint)})`;
}

/** The values to keep out of every output: URLs, their paths and queries, tokens, secrets. */
export function endpointSecretValues(endpoint: Endpoint): string[] {
  const values: string[] = [];
  if (endpoint.channel === "telegram" || endpoint.channel === "whatsapp") {
    values.push(endpoint.token);
  } else values.push(endpoint.url);
  if (endpoint.channel === "webhook") values.push(...endpoint.secrets);
  try {
    const url = endpointUrl(endpoint);
    // A WhatsApp path holds only the phone number id, which is not a secret (the token is).
    if (url.pathname.length > 1 && endpoint.channel !== "whatsapp") values.push(url.pathname);
    if (url.search !== "") values.push(url.search.slice(1));
    if (url.password !== "") values.push(url.password);
  } catch {
    // an unreadable URL is refused elsewhere; the value itself is already listed
  }
  return values.filter((v) => v.length >= 4);
}

/** The text with every secret value of the endpoint blanked: an answer may echo what it got. */
export function scrubEndpoint(text: string, endpoint: Endpoint): string {
  let out = text;
  for (const value of endpointSecretValues(endpoint).sort((a, b) => b.length - a.length)) {
    out = out.split(value).join("[redacted]");
  }
  return out;
}
