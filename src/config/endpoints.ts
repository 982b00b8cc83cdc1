import { type Endpoint, endpointSecretValues } from "../notify/transport/endpoint.js";
import { endpointUrlProblem } from "../notify/transport/http-endpoint.js";
import { webhookSecretKey } from "../notify/transport/webhook-signature.js";
import { type EndpointFile, EVENT_TYPES } from "./config-schema.js";
import { type EnvContext, readEnvValue } from "./secrets.js";

/*
 * The endpoints of the configuration made usable: each variable an endpoint names read like any
 * secret (X, X_FILE, a systemd credential), its URL and secret checked, and every such value
 * handed to the logger for redaction. Errors say which endpoint and which variable, never a value.
 */

export type EventType = (typeof EVENT_TYPES)[number];

export type ConfiguredEndpoint = Endpoint & {
  /** The event types it is sent. */
  events: readonly EventType[];
  /** Chat: one message per alert, or a digest; a webhook is always instant. */
  delivery: "instant" | "digest";
  /** Cron of a chat digest; null: after every sweep. */
  digestSchedule: string | null;
  /** Chat: held by mail.quietHours; a webhook never is. */
  quietHours: boolean;
  /** Where its secrets came from (variable, file or credential), for `monitor doctor`. */
  source: string;
};

export const FIRM_WEBHOOK = "webhook";

/** What a chat endpoint gets unless its `events` say otherwise: not the operator's alerts. */
export const CHAT_EVENTS: readonly EventType[] = EVENT_TYPES.filter((t) => t !== "operator.alert");

const MACHINE_TIMING = { delivery: "instant", digestSchedule: null, quietHours: false } as const;

function chatTiming(file: {
  delivery?: "instant" | "digest" | undefined;
  digestSchedule?: string | undefined;
  quietHours?: boolean | undefined;
}): Pick<ConfiguredEndpoint, "delivery" | "digestSchedule" | "quietHours"> {
  return {
    delivery: file.delivery ?? "instant",
    digestSchedule: file.digestSchedule?.trim() ?? null,
    quietHours: file.quietHours ?? true,
  };
}

interface Resolved {
  endpoints: ConfiguredEndpoint[];
  secrets: string[];
  errors: string[];
}

function read(
  name: string,
  variable: string,
  ctx: EnvContext,
  errors: string[],
): { value: string; source: string } | null {
  const lookup = readEnvValue(variable, ctx);
  if (!lookup.ok) {
    errors.push(`notify.endpoints.${name}: ${lookup.error}`);
    return null;
  }
  if (lookup.found === undefined) {
    errors.push(
      `notify.endpoints.${name}: ${variable} is not set; set it in the environment, as ${variable}_FILE or as a systemd credential named ${variable}`,
    );
    return null;
  }
  return { value: lookup.found.value.trim(), source: lookup.found.source };
}

function checked(
  endpoint: ConfiguredEndpoint,
  allowedPrivateNetworks: readonly string[],
  where: string,
  errors: string[],
): ConfiguredEndpoint | null {
  let url: URL;
  try {
    url = new URL(endpoint.channel === "telegram" ? endpoint.apiBase : endpoint.url);
  } catch {
    errors.push(`${where}: the URL is not a URL (the value is not shown: it is a secret)`);
    return null;
  }
  const problem = endpointUrlProblem(url, { allowedPrivateNetworks });
  if (problem !== null) {
    errors.push(`${where}: ${problem}`);
    return null;
  }
  if (endpoint.channel === "webhook") {
    try {
      for (const secret of endpoint.secrets) webhookSecretKey(secret);
    } catch (error) {
      errors.push(`${where}: ${(error as Error).message}`);
      return null;
    }
  }
  return endpoint;
}

function fromFile(
  name: string,
  file: EndpointFile,
  ctx: EnvContext,
  errors: string[],
): ConfiguredEndpoint | null {
  switch (file.channel) {
    case "webhook": {
      const url = read(name, file.urlVariable, ctx, errors);
      const secret = read(name, file.secretVariable, ctx, errors);
      if (url === null || secret === null) return null;
      return {
        name,
        channel: "webhook",
        url: url.value,
        secrets: [secret.value],
        events: file.events ?? EVENT_TYPES,
        ...MACHINE_TIMING,
        source: `${url.source}, ${secret.source}`,
      };
    }
    case "slack":
    case "teams": {
      const url = read(name, file.urlVariable, ctx, errors);
      if (url === null) return null;
      return {
        name,
        channel: file.channel,
        url: url.value,
        events: file.events ?? CHAT_EVENTS,
        ...chatTiming(file),
        source: url.source,
      };
    }
    case "telegram": {
      const token = read(name, file.tokenVariable, ctx, errors);
      if (token === null) return null;
      return {
        name,
        channel: "telegram",
        apiBase: (file.apiBase ?? "https://api.telegram.org").replace(/\/+$/u, ""),
        token: token.value,
        chatId: String(file.chatId).trim(),
        events: file.events ?? CHAT_EVENTS,
        ...chatTiming(file),
        source: token.source,
      };
    }
  }
}

/** Every endpoint: the firm-wide WEBHOOK_URL first, then the configuration's, by name. */
export function resolveEndpoints(
  settings: {
    endpoints: Readonly<Record<string, EndpointFile>>;
    webhookUrl: string | null;
    webhookSecret: string | null;
    allowedPrivateNetworks: readonly string[];
  },
  sources: Readonly<Record<string, string>>,
  ctx: EnvContext,
): Resolved {
  const errors: string[] = [];
  const endpoints: ConfiguredEndpoint[] = [];
  const { webhookUrl, webhookSecret, allowedPrivateNetworks } = settings;
  if ((webhookUrl === null) !== (webhookSecret === null)) {
    errors.push(
      webhookUrl === null
        ? "WEBHOOK_SECRET is set without WEBHOOK_URL: set both (or neither)"
        : 'WEBHOOK_URL is set without WEBHOOK_SECRET: every webhook is signed; make one with: echo "whsec_$(openssl rand -base64 32)"',
    );
  } else if (webhookUrl !== null && webhookSecret !== null) {
    const firm = checked(
      {
        name: FIRM_WEBHOOK,
        channel: "webhook",
        url: webhookUrl,
        secrets: [webhookSecret],
        events: EVENT_TYPES,
        ...MACHINE_TIMING,
        source: `${sources["notify.webhookUrl"] ?? "WEBHOOK_URL"}, ${sources["notify.webhookSecret"] ?? "WEBHOOK_SECRET"}`,
      },
      allowedPrivateNetworks,
      `WEBHOOK_URL (${sources["notify.webhookUrl"] ?? "environment"})`,
      errors,
    );
    if (firm !== null) endpoints.push(firm);
  }
  for (const [name, file] of Object.entries(settings.endpoints)) {
    if (name === FIRM_WEBHOOK) {
      errors.push(
        `notify.endpoints.${name}: "${FIRM_WEBHOOK}" is the firm-wide WEBHOOK_URL's name; call this endpoint something else`,
      );
      continue;
    }
    const endpoint = fromFile(name, file, ctx, errors);
    if (endpoint === null) continue;
    const ok = checked(endpoint, allowedPrivateNetworks, `notify.endpoints.${name}`, errors);
    if (ok !== null) endpoints.push(ok);
  }
  const secrets = endpoints.flatMap(endpointSecretValues);
  return { endpoints, secrets, errors };
}
