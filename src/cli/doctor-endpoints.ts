import { lookup } from "node:dns/promises";
import { DEFAULT_WEBHOOK_EVENTS, EVENT_TYPES } from "../config/config-schema.js";
import type { ConfiguredEndpoint } from "../config/endpoints.js";
import type { MonitorConfig } from "../config/load-config.js";
import { describeEndpoint, endpointUrl } from "../notify/transport/endpoint.js";
import { addressProblem } from "../notify/transport/http-endpoint.js";

/*
 * `monitor doctor`'s look at each webhook and chat endpoint, without sending anything: the
 * configuration already refused bad URLs and secrets; this resolves each host and checks every
 * address it gives as a delivery would (public, or in an allowed network), so a name that points
 * inside the firm's network is found before an alert is lost to it.
 */

export type ResolveAll = (host: string) => Promise<Array<{ address: string }>>;

const resolveAll: ResolveAll = (host) => lookup(host, { all: true, verbatim: true });

export interface EndpointFinding {
  ok: boolean;
  line: string;
}

function isLoopbackName(host: string): boolean {
  return (
    host === "localhost" || host === "127.0.0.1" || host === "[::1]" || host.startsWith("127.")
  );
}

async function inspect(
  endpoint: ConfiguredEndpoint,
  allowedPrivateNetworks: readonly string[],
  resolve: ResolveAll,
): Promise<EndpointFinding> {
  const url = endpointUrl(endpoint);
  const host = url.hostname.replace(/^\[(.*)\]$/u, "$1");
  const events =
    endpoint.events.length === EVENT_TYPES.length
      ? "every event"
      : endpoint.events.length === DEFAULT_WEBHOOK_EVENTS.length &&
          DEFAULT_WEBHOOK_EVENTS.every((t) => endpoint.events.includes(t))
        ? "every event but case.checked"
        : `events ${endpoint.events.join(", ")}`;
  const timing =
    endpoint.channel === "webhook"
      ? ""
      : `; ${endpoint.delivery === "digest" ? `digest${endpoint.digestSchedule === null ? " after each sweep" : ` at "${endpoint.digestSchedule}"`}` : "one message per alert"}, quiet hours ${endpoint.quietHours ? "followed" : "ignored"}`;
  const head = `${describeEndpoint(endpoint)}: ${events}${timing}; from ${endpoint.source}`;
  let addresses: Array<{ address: string }>;
  try {
    addresses = await resolve(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "lookup failed";
    return { ok: false, line: `${head}; ${url.host} does not resolve (${code})` };
  }
  const loopbackNamed = isLoopbackName(url.hostname);
  for (const { address } of addresses) {
    const problem = addressProblem(address, { loopbackNamed, allowedPrivateNetworks });
    if (problem !== null) return { ok: false, line: `${head}; ${url.host}: ${problem}` };
  }
  const scheme = url.protocol === "https:" ? "https" : "http to this machine";
  return { ok: true, line: `${head}; ${scheme}, ${addresses.length} address(es) allowed` };
}

export async function inspectEndpoints(
  config: MonitorConfig,
  resolve: ResolveAll = resolveAll,
): Promise<EndpointFinding[]> {
  return Promise.all(
    config.notify.endpoints.map((e) => inspect(e, config.notify.allowedPrivateNetworks, resolve)),
  );
}
