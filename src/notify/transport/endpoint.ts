/*
 * An endpoint alerts are delivered to besides e-mail: a signed webhook or a chat channel. Its
 * URL, token and secret are secrets (a chat webhook URL is a capability: whoever has it can post
 * to the channel), so they are only ever shown as the endpoint's name, channel and host.
 */

export const CHANNELS = ["webhook", "slack", "teams", "telegram"] as const;
export type Channel = (typeof CHANNELS)[number];

export type Endpoint =
  | { name: string; channel: "webhook"; url: string; secrets: readonly string[] }
  | { name: string; channel: "slack"; url: string }
  | { name: string; channel: "teams"; url: string }
  | { name: string; channel: "telegram"; apiBase: string; token: string; chatId: string };

export const TELEGRAM_API_BASE = "https://api.telegram.org";

/** Where a POST to the endpoint goes. */
export function endpointUrl(endpoint: Endpoint): URL {
  if (endpoint.channel === "telegram") {
    return new URL(`${endpoint.apiBase.replace(/\/+$/u, "")}/bot${endpoint.token}/sendMessage`);
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
  if (endpoint.channel === "telegram") values.push(endpoint.token);
  else values.push(endpoint.url);
  if (endpoint.channel === "webhook") values.push(...endpoint.secrets);
  try {
    const url = endpointUrl(endpoint);
    if (url.pathname.length > 1) values.push(url.pathname);
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
