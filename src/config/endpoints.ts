import {
  type Endpoint,
  endpointSecretValues,
  TELEGRAM_API_BASE,
  WHATSAPP_API_BASE,
} from "../notify/transport/endpoint.js";
import { endpointUrlProblem } from "../notify/transport/http-endpoint.js";
import { webhookSecretKey } from "../notify/transport/webhook-signature.js";
import { cloudApiNumber } from "../phone-number.js";
import { DEFAULT_WEBHOOK_EVENTS, type EndpointFile, type EVENT_TYPES } from "./config-schema.js";
import { type EnvContext, readEnvValue } from "./secrets.js";

/*
 * The endpoints of the configuration made usable: each variable an endpoint names read like any
 * secret (X, X_FILE, a systemd credential), its URL and secret checked, and every such value
 * handed to the logger for redaction. Errors say which endpoint and which variable, never a value.
 *
 * An endpoint exists because the configuration names it (notify.endpoints, or the firm-wide
 * WEBHOOK_URL), not because this process holds its secret: every process queues its alerts (a
 * `run-once` through a wrapper without the chat token as much as the daemon), and only a process
 * with all of its variables sends them. A variable that is not set is not an error; one that is
 * set and wrong (an unreadable _FILE, a bad URL or secret) is.
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

/** An endpoint as the configuration names it: where its alerts go, and whether this process can send. */
export interface DeclaredEndpoint {
  name: string;
  channel: Endpoint["channel"];
  events: readonly EventType[];
  delivery: "instant" | "digest";
  digestSchedule: string | null;
  quietHours: boolean;
  /** The variables its URL, token and secret are read from. */
  variables: readonly string[];
  /** Of those, the ones this process does not have: it queues the alerts, and sends none. */
  missing: readonly string[];
  /** WhatsApp without `to`: it sends each watcher's alerts to their own number. */
  perWatcher?: boolean;
}

export const FIRM_WEBHOOK = "webhook";

/**
 * What a chat endpoint gets unless its `events` say otherwise: not the operator's alerts, nor
 * the acknowledgements of urgent alerts (a firm's channel opts in to those).
 */
export const CHAT_EVENTS: readonly EventType[] = DEFAULT_WEBHOOK_EVENTS.filter(
  (t) => t !== "operator.alert" && t !== "alert.acknowledged",
);

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
  /** The endpoints this process can send to: every variable read and checked. */
  endpoints: ConfiguredEndpoint[];
  /** Every endpoint the configuration names, sendable here or not. */
  declared: DeclaredEndpoint[];
  secrets: string[];
  errors: string[];
}

type Read = { value: string; source: string } | "missing";

function read(name: string, variable: string, ctx: EnvContext, errors: string[]): Read | null {
  const lookup = readEnvValue(variable, ctx);
  if (!lookup.ok) {
    errors.push(`notify.endpoints.${name}: ${lookup.error}`);
    return null;
  }
  if (lookup.found === undefined) return "missing";
  return { value: lookup.found.value.trim(), source: lookup.found.source };
}

/** What one endpoint of the configuration came to: declared always; sendable when all was read. */
interface Found {
  declared: DeclaredEndpoint;
  endpoint: ConfiguredEndpoint | null;
}

function declaredOf(
  endpoint: Omit<DeclaredEndpoint, "missing" | "variables">,
  reads: ReadonlyArray<[string, Read]>,
): DeclaredEndpoint {
  return {
    name: endpoint.name,
    channel: endpoint.channel,
    events: endpoint.events,
    delivery: endpoint.delivery,
    digestSchedule: endpoint.digestSchedule,
    quietHours: endpoint.quietHours,
    ...(endpoint.perWatcher === true ? { perWatcher: true } : {}),
    variables: reads.map(([variable]) => variable),
    missing: reads.filter(([, r]) => r === "missing").map(([variable]) => variable),
  };
}

function checked(
  endpoint: ConfiguredEndpoint,
  allowedPrivateNetworks: readonly string[],
  where: string,
  errors: string[],
): ConfiguredEndpoint | null {
  let url: URL;
  try {
    url = new URL(
      endpoint.channel === "telegram" || endpoint.channel === "whatsapp"
        ? endpoint.apiBase
        : endpoint.url,
    );
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

type Value = Exclude<Read, "missing">;

/**
 * What an endpoint came to, one shape for every channel: declared always, with the variables it
 * names; sendable (`sendable` builds it from their values) when every one of them was read.
 */
function foundOf<K extends string>(
  policy: Omit<DeclaredEndpoint, "missing" | "variables">,
  reads: Record<K, [variable: string, read: Read]>,
  sendable: (values: Record<K, Value>) => ConfiguredEndpoint,
): Found {
  const entries = Object.entries(reads) as Array<[K, [string, Read]]>;
  const declared = declaredOf(
    policy,
    entries.map(([, pair]) => pair),
  );
  const values = {} as Record<K, Value>;
  for (const [key, [, read]] of entries) {
    if (read === "missing") return { declared, endpoint: null };
    values[key] = read;
  }
  return { declared, endpoint: sendable(values) };
}

/** A WhatsApp endpoint (the Cloud API): its token, sender number, template and recipient. */
function whatsappFromFile(
  name: string,
  file: Extract<EndpointFile, { channel: "whatsapp" }>,
  ctx: EnvContext,
  errors: string[],
): Found | null {
  const token = read(name, file.tokenVariable, ctx, errors);
  if (token === null) return null;
  const policy = {
    name,
    channel: "whatsapp" as const,
    events: file.events ?? CHAT_EVENTS,
    ...chatTiming(file),
    // Without `to`, each watcher's alerts go to the number of their `whatsapp:`.
    ...(file.to === undefined ? { perWatcher: true } : {}),
  };
  return foundOf(policy, { token: [file.tokenVariable, token] }, (v) => ({
    ...policy,
    apiBase: (file.apiBase ?? WHATSAPP_API_BASE).replace(/\/+$/u, ""),
    token: v.token.value,
    phoneNumberId: String(file.phoneNumberId).trim(),
    to: file.to === undefined ? null : cloudApiNumber(file.to),
    template: { name: file.template.name.trim(), language: file.template.language.trim() },
    ...(file.ackTemplate === undefined
      ? {}
      : {
          ackTemplate: {
            name: file.ackTemplate.name.trim(),
            language: file.ackTemplate.language.trim(),
          },
        }),
    source: v.token.source,
  }));
}

function fromFile(
  name: string,
  file: EndpointFile,
  ctx: EnvContext,
  errors: string[],
): Found | null {
  switch (file.channel) {
    case "webhook": {
      const url = read(name, file.urlVariable, ctx, errors);
      const secret = read(name, file.secretVariable, ctx, errors);
      if (url === null || secret === null) return null;
      const policy = {
        name,
        channel: "webhook" as const,
        events: file.events ?? DEFAULT_WEBHOOK_EVENTS,
        ...MACHINE_TIMING,
      };
      return foundOf(
        policy,
        { url: [file.urlVariable, url], secret: [file.secretVariable, secret] },
        (v) => ({
          ...policy,
          url: v.url.value,
          secrets: [v.secret.value],
          source: `${v.url.source}, ${v.secret.source}`,
        }),
      );
    }
    case "slack":
    case "teams": {
      const url = read(name, file.urlVariable, ctx, errors);
      if (url === null) return null;
      const policy = {
        name,
        channel: file.channel,
        events: file.events ?? CHAT_EVENTS,
        ...chatTiming(file),
      };
      return foundOf(policy, { url: [file.urlVariable, url] }, (v) => ({
        ...policy,
        url: v.url.value,
        source: v.url.source,
      }));
    }
    case "telegram": {
      const token = read(name, file.tokenVariable, ctx, errors);
      if (token === null) return null;
      const policy = {
        name,
        channel: "telegram" as const,
        events: file.events ?? CHAT_EVENTS,
        ...chatTiming(file),
      };
      return foundOf(policy, { token: [file.tokenVariable, token] }, (v) => ({
        ...policy,
        apiBase: (file.apiBase ?? TELEGRAM_API_BASE).replace(/\/+$/u, ""),
        token: v.token.value,
        chatId: String(file.chatId).trim(),
        source: v.token.source,
      }));
    }
    case "whatsapp":
      return whatsappFromFile(name, file, ctx, errors);
  }
}

/**
 * The firm-wide webhook when the configuration file does not declare it: WEBHOOK_URL or
 * WEBHOOK_SECRET set in this process declares it (either alone: declared, and not sendable here).
 */
function firmFromEnvironment(
  webhookUrl: string | null,
  webhookSecret: string | null,
  sources: Readonly<Record<string, string>>,
): Found | null {
  if (webhookUrl === null && webhookSecret === null) return null;
  const policy = {
    name: FIRM_WEBHOOK,
    channel: "webhook" as const,
    events: DEFAULT_WEBHOOK_EVENTS,
    ...MACHINE_TIMING,
  };
  const fromEnv = (value: string | null): Read =>
    value === null ? "missing" : { value, source: "" };
  return foundOf(
    policy,
    {
      url: ["WEBHOOK_URL", fromEnv(webhookUrl)],
      secret: ["WEBHOOK_SECRET", fromEnv(webhookSecret)],
    },
    (v) => ({
      ...policy,
      url: v.url.value,
      secrets: [v.secret.value],
      source: `${sources["notify.webhookUrl"] ?? "WEBHOOK_URL"}, ${sources["notify.webhookSecret"] ?? "WEBHOOK_SECRET"}`,
    }),
  );
}

/**
 * Every endpoint: the firm-wide webhook first (`notify.endpoints.webhook` in the file, else
 * WEBHOOK_URL and WEBHOOK_SECRET), then the configuration's, by name.
 */
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
  const declared: DeclaredEndpoint[] = [];
  const { webhookUrl, webhookSecret, allowedPrivateNetworks } = settings;
  const keep = (found: Found | null, where: string): void => {
    if (found === null) return;
    if (found.endpoint !== null) {
      const ok = checked(found.endpoint, allowedPrivateNetworks, where, errors);
      if (ok === null) return;
      endpoints.push(ok);
    }
    declared.push(found.declared);
  };
  const firmFile = settings.endpoints[FIRM_WEBHOOK];
  if (firmFile === undefined) {
    keep(
      firmFromEnvironment(webhookUrl, webhookSecret, sources),
      `WEBHOOK_URL (${sources["notify.webhookUrl"] ?? "environment"})`,
    );
  }
  const named = Object.entries(settings.endpoints).sort(([a], [b]) =>
    a === FIRM_WEBHOOK ? -1 : b === FIRM_WEBHOOK ? 1 : 0,
  );
  for (const [name, file] of named) {
    if (name === FIRM_WEBHOOK && file.channel !== "webhook") {
      errors.push(
        `notify.endpoints.${name}: "${FIRM_WEBHOOK}" is the firm-wide webhook, which hears of every case: it must be channel: webhook, or call this endpoint something else`,
      );
      continue;
    }
    keep(fromFile(name, file, ctx, errors), `notify.endpoints.${name}`);
  }
  const secrets = endpoints.flatMap(endpointSecretValues);
  return { endpoints, declared, secrets, errors };
}
