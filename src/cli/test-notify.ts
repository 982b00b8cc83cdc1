import { randomUUID } from "node:crypto";
import type { ConfiguredEndpoint } from "../config/endpoints.js";
import type { MonitorConfig } from "../config/load-config.js";
import { scrubSecrets } from "../config/secrets.js";
import { deliverToEndpoint, type EndpointDelivery } from "../notify/outbox/endpoint-delivery.js";
import { movementEvent } from "../notify/render/build-event.js";
import { sampleAlertContent } from "../notify/render/sample-alert.js";
import { describeEndpoint, type Endpoint } from "../notify/transport/endpoint.js";
import { eventId } from "../notify/transport/webhook-signature.js";
import { cloudApiNumber, E164, phoneNumberProblem } from "../phone-number.js";
import { enableCommand } from "../policy/endpoint-health.js";
import { recordedEndpointStates } from "../store/endpoint-state.js";
import { type Clock, dateNow } from "../time/clock.js";
import { type Command, EXIT, programOf, systemOf, UsageError } from "./command.js";
import { loadRuntime } from "./runtime.js";

/**
 * The endpoint a `test-notify` argument names: an endpoint's name, or a channel (webhook, slack,
 * teams, telegram, whatsapp) when exactly one endpoint has it.
 */
export function chooseEndpoint(
  endpoints: readonly ConfiguredEndpoint[],
  wanted: string,
): { ok: true; endpoint: ConfiguredEndpoint } | { ok: false; problem: string } {
  const byName = endpoints.find((e) => e.name === wanted);
  if (byName !== undefined) return { ok: true, endpoint: byName };
  const byChannel = endpoints.filter((e) => e.channel === wanted);
  if (byChannel.length === 1 && byChannel[0] !== undefined) {
    return { ok: true, endpoint: byChannel[0] };
  }
  const names = endpoints.map((e) => `${e.name} (${e.channel})`).join(", ");
  if (byChannel.length > 1) {
    return { ok: false, problem: `several ${wanted} endpoints are configured; name one: ${names}` };
  }
  return {
    ok: false,
    problem:
      endpoints.length === 0
        ? 'no endpoint is configured: set WEBHOOK_URL and WEBHOOK_SECRET, or add one under notify.endpoints (docs/channels.md, "Webhooks and chat")'
        : `no endpoint or channel "${wanted.slice(0, 40)}"; configured: ${names}`,
  };
}

/** The sample alert as an event marked `test`, with an id of its own each time. */
export async function sendTestNotification(
  endpoint: ConfiguredEndpoint,
  config: MonitorConfig,
  clock: Clock,
  nonce: string,
  signal?: AbortSignal,
): Promise<EndpointDelivery> {
  const now = dateNow(clock);
  const event = movementEvent(sampleAlertContent(now), {
    id: eventId(`test:${now.toISOString()}:${nonce}`),
    test: true,
  });
  return deliverToEndpoint(endpoint, event, {
    limits: {
      timeoutMs: config.notify.timeoutMs,
      maxResponseBytes: config.notify.maxResponseBytes,
      allowedPrivateNetworks: config.notify.allowedPrivateNetworks,
    },
    clock,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** The endpoint, a whatsapp one addressed to `--to`; a problem to tell when that cannot be. */
function addressed(endpoint: ConfiguredEndpoint, to: unknown): ConfiguredEndpoint | string {
  const given = typeof to === "string" ? to.trim() : null;
  if (endpoint.channel !== "whatsapp") {
    return given === null ? endpoint : "--to is for a whatsapp endpoint only";
  }
  if (given === null) {
    return endpoint.to !== null
      ? endpoint
      : `whatsapp endpoint "${endpoint.name}" has no number of its own (it sends to each watcher's whatsapp: number); give one with --to +5511987654321`;
  }
  if (!E164.test(given)) return `--to: ${phoneNumberProblem(given)}`;
  return { ...endpoint, to: cloudApiNumber(given) };
}

/** When the sweeps' record says a 410 disabled the endpoint; null when it is not (or no database). */
function disabledSince(dbPath: string, endpoint: Endpoint): string | null {
  try {
    return (
      recordedEndpointStates(dbPath).find(
        (s) => s.channel === endpoint.channel && s.name === endpoint.name,
      )?.disabledAt ?? null
    );
  } catch {
    return null;
  }
}

export function describeDelivery(delivery: EndpointDelivery): string {
  const { outcome } = delivery;
  if (outcome.kind === "failed") return `no answer: ${outcome.message}`;
  const body = outcome.body === "" ? "" : `: ${outcome.body}`;
  return `answered HTTP ${outcome.status}${body}`;
}

export const testNotifyCommand: Command = {
  name: "test-notify",
  summary: "Send one sample alert to a webhook or chat endpoint and show what it answered",
  usage: "datajud-monitor test-notify ENDPOINT [--to +5511987654321]",
  details: [
    "ENDPOINT   an endpoint's name under notify.endpoints, webhook for WEBHOOK_URL, or a channel",
    "           (webhook, slack, teams, telegram, whatsapp) when only one endpoint has it",
    "--to       a whatsapp endpoint: send to this number (E.164) instead of its own `to`;",
    "           required for one without `to` (it sends to each watcher's `whatsapp:` number)",
    "",
    "The sample is the recorded TJDFT case of test-email, sent as a webhook event marked",
    '"test": true (signed like every webhook) or as the chat message a real alert makes.',
    "It is sent once, now, and not retried; quiet hours and digests do not apply.",
    "",
    "Exit codes: 0 the endpoint answered 2xx, 1 it refused or could not be reached, 2 bad",
    "config or no such endpoint.",
  ],
  options: { to: { type: "string" } },
  allowPositionals: true,
  async run(args, io) {
    const [wanted, ...extra] = args.positionals;
    if (wanted === undefined || extra.length > 0) {
      throw new UsageError("name one endpoint: datajud-monitor test-notify ENDPOINT");
    }
    const runtime = loadRuntime(io, "test-notify");
    if (!runtime) return 2;
    const { config, secrets } = runtime;
    const unsendable = config.notify.declared.find(
      (e) => e.missing.length > 0 && (e.name === wanted || e.channel === wanted),
    );
    const chosen = chooseEndpoint(config.notify.endpoints, wanted);
    if (!chosen.ok && unsendable !== undefined) {
      io.stderr.write(
        `${programOf(io)} test-notify: ${unsendable.channel} endpoint "${unsendable.name}" is configured, but this process has no ${unsendable.missing.join(" and ")}: give it (environment, ${unsendable.missing[0]}_FILE or a systemd credential) to send to it\n`,
      );
      return EXIT.usage;
    }
    if (!chosen.ok) {
      io.stderr.write(`${programOf(io)} test-notify: ${chosen.problem}\n`);
      return EXIT.usage;
    }
    const endpoint = addressed(chosen.endpoint, args.values.to);
    if (typeof endpoint === "string") {
      io.stderr.write(`${programOf(io)} test-notify: ${endpoint}\n`);
      return EXIT.usage;
    }
    const delivery = await sendTestNotification(
      endpoint,
      config,
      systemOf(io).clock,
      randomUUID(),
      io.signal,
    );
    const line = `${describeEndpoint(endpoint)} ${scrubSecrets(describeDelivery(delivery), secrets)}`;
    if (delivery.verdict.kind === "delivered") {
      io.stdout.write(`test notification delivered: ${line}\n`);
      if (disabledSince(config.paths.db, endpoint) !== null) {
        // The sample went, but the sweeps still hold the endpoint disabled since its 410.
        io.stdout.write(
          `the monitor still holds it disabled (a 410 Gone); to send alerts to it again: ${enableCommand(endpoint.name)}\n`,
        );
      }
      return EXIT.ok;
    }
    const advice =
      delivery.verdict.kind === "gone"
        ? endpoint.channel === "whatsapp"
          ? ` (the WhatsApp access token is invalid or expired: store a new one in the endpoint's variable; the sweeps disable it on such an answer until ${enableCommand(endpoint.name)})`
          : ` (410: the endpoint says it no longer exists; the sweeps disable it on such an answer until ${enableCommand(endpoint.name)})`
        : delivery.verdict.kind === "retry"
          ? " (a real alert would be retried later)"
          : " (a real alert would be retried a few times, then given up)";
    io.stderr.write(`${programOf(io)} test-notify: not delivered: ${line}${advice}\n`);
    return EXIT.failures;
  },
};
