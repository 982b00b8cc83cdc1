import type { LookupAddress, LookupAllOptions } from "node:dns";
import { lookup as dnsLookup } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/*
 * One POST to a webhook or chat endpoint, and nothing a hostile or broken endpoint could turn
 * against us:
 * - HTTPS only, except plain HTTP to this machine's loopback (127.0.0.0/8, ::1, localhost), for
 *   tests and a receiver on the same host.
 * - Only public (globally routable unicast) addresses, unless the configuration allows a private
 *   network by CIDR: this machine, the LAN and the cloud's metadata address (169.254.169.254) are
 *   not reachable by writing a URL (SSRF). The address is checked inside the lookup the socket
 *   connects with, so a name that resolves to a public address when checked and to a private one
 *   a moment later (DNS rebinding) still connects only where it was checked.
 * - Redirects are never followed (a 3xx is an answer like a 4xx: fix the URL).
 * - A deadline for the whole exchange, and at most `maxResponseBytes` of the answer read; the
 *   answer's body is only ever shown, cut to one clean line, never parsed or acted on.
 * - Errors name the host and what failed, never the URL: chat URLs and tokens are capabilities.
 */

export interface EndpointLimits {
  /** The whole exchange, connect to last byte read. */
  timeoutMs: number;
  /** Most bytes of the answer read; the rest is dropped. */
  maxResponseBytes: number;
  /** CIDRs (10.0.0.0/8, fd00::/8) whose addresses may be targets although not public. */
  allowedPrivateNetworks: readonly string[];
}

export const DEFAULT_ENDPOINT_LIMITS: EndpointLimits = {
  timeoutMs: 15_000,
  maxResponseBytes: 64 * 1024,
  allowedPrivateNetworks: [],
};

export type PostFailure = "blocked" | "dns" | "refused" | "timeout" | "tls" | "network" | "url";

export type PostOutcome =
  | {
      kind: "answered";
      status: number;
      /** The start of the answer's body, one clean line: for people, never for decisions. */
      body: string;
      /**
       * The answer's body as received (up to maxResponseBytes): read only for the id a chat
       * platform gave our message (endpoint-delivery.ts), never shown, logged or stored.
       */
      text?: string;
      /** Retry-After in seconds when the answer carried one in that form. */
      retryAfterSeconds: number | null;
    }
  | { kind: "failed"; failure: PostFailure; message: string };

type Resolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const BODY_SHOWN = 300;
const LOOPBACK_NAMES = new Set(["localhost", "localhost."]);

function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/u, "$1").toLowerCase();
}

function isLoopbackHost(host: string): boolean {
  if (LOOPBACK_NAMES.has(host)) return true;
  return ipaddr.isValid(host) && ipaddr.process(host).range() === "loopback";
}

function parseNetworks(cidrs: readonly string[]): Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> {
  return cidrs.map((cidr) => ipaddr.parseCIDR(cidr));
}

/**
 * Whether an address may be connected to: a public one always; loopback only when the URL itself
 * named this machine; any other only inside an allowed network.
 */
export function addressProblem(
  address: string,
  options: { loopbackNamed: boolean; allowedPrivateNetworks: readonly string[] },
): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range === "unicast") return null;
  if (range === "loopback" && options.loopbackNamed) return null;
  for (const [network, bits] of parseNetworks(options.allowedPrivateNetworks)) {
    if (network.kind() === ip.kind() && ip.match(network, bits)) return null;
  }
  return `${ip.toString()} is a ${range} address, not a public one; allow its network in notify.allowedPrivateNetworks if this endpoint is yours`;
}

/**
 * What is wrong with an endpoint URL before any connection; null when it may be used. The
 * message names the host at most, never the path or query (they carry tokens).
 */
export function endpointUrlProblem(
  url: URL,
  limits: Pick<EndpointLimits, "allowedPrivateNetworks">,
): string | null {
  const host = bareHost(url);
  if (host === "") return "the URL names no host";
  if (url.protocol === "http:") {
    if (!isLoopbackHost(host)) {
      return `plain http:// is refused for ${host}: use https:// (http:// only reaches this machine's loopback)`;
    }
    return null;
  }
  if (url.protocol !== "https:") return `the URL must start with https:// (host ${host})`;
  if (ipaddr.isValid(host)) {
    return addressProblem(host, {
      loopbackNamed: isLoopbackHost(host),
      allowedPrivateNetworks: limits.allowedPrivateNetworks,
    });
  }
  return null;
}

/** A lookup that refuses, for the connection itself, any address the limits do not allow. */
export function guardedLookup(
  loopbackNamed: boolean,
  allowedPrivateNetworks: readonly string[],
  resolve: Resolver = dnsLookup as Resolver,
): LookupFunction {
  return ((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    const all = (options as { all?: boolean }).all === true;
    resolve(hostname, { ...(options as object), all: true }, (error, addresses) => {
      if (error !== null) {
        callback(error);
        return;
      }
      for (const entry of addresses) {
        const problem = addressProblem(entry.address, { loopbackNamed, allowedPrivateNetworks });
        if (problem !== null) {
          const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${problem}`);
          refused.code = "EBLOCKED";
          callback(refused);
          return;
        }
      }
      const first = addresses[0];
      if (first === undefined) {
        const none: NodeJS.ErrnoException = new Error(`${hostname} has no address`);
        none.code = "ENOTFOUND";
        callback(none);
        return;
      }
      if (all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  }) as LookupFunction;
}

function failureOf(error: NodeJS.ErrnoException): PostFailure {
  const code = error.code ?? "";
  if (code === "EBLOCKED") return "blocked";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "dns";
  if (code === "ECONNREFUSED") return "refused";
  if (code === "ETIMEDOUT" || code === "ETIMEOUT") return "timeout";
  if (code.startsWith("ERR_TLS") || code.includes("CERT") || code === "EPROTO") return "tls";
  return "network";
}

function cleanLine(text: string, max: number): string {
  const clean = text
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
  return Array.from(clean).slice(0, max).join("");
}

function retryAfterOf(response: IncomingMessage): number | null {
  const value = response.headers["retry-after"];
  if (typeof value !== "string" || !/^\d{1,6}$/u.test(value.trim())) return null;
  return Number(value.trim());
}

export interface PostRequest {
  url: URL;
  body: string;
  /** Content-Type and the like; Host, Content-Length and User-Agent are ours. */
  headers: Readonly<Record<string, string>>;
  limits: EndpointLimits;
  signal?: AbortSignal;
  /** DNS, for tests; the socket still connects only to what it returned and was checked. */
  resolve?: Resolver;
}

const USER_AGENT = "datajud-monitor (webhook)";

/** One POST, never throwing: an answer (any status) or why there was none. */
export function postToEndpoint(request: PostRequest): Promise<PostOutcome> {
  const { url, limits } = request;
  const problem = endpointUrlProblem(url, limits);
  if (problem !== null)
    return Promise.resolve({ kind: "failed", failure: "url", message: problem });
  const host = bareHost(url);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const body = Buffer.from(request.body, "utf8");

  return new Promise<PostOutcome>((resolvePromise) => {
    let settled = false;
    const settle = (outcome: PostOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
      req.destroy();
      resolvePromise(outcome);
    };
    const req = send(url, {
      method: "POST",
      headers: {
        ...request.headers,
        "content-length": String(body.length),
        "user-agent": USER_AGENT,
      },
      lookup: guardedLookup(isLoopbackHost(host), limits.allowedPrivateNetworks, request.resolve),
      // One connection per attempt: a kept-alive socket would skip the address check next time.
      agent: false,
    });
    const timer = setTimeout(() => {
      settle({
        kind: "failed",
        failure: "timeout",
        message: `${host} did not answer within ${limits.timeoutMs} ms`,
      });
    }, limits.timeoutMs);
    const onAbort = (): void =>
      settle({ kind: "failed", failure: "network", message: `sending to ${host} was stopped` });
    request.signal?.addEventListener("abort", onAbort, { once: true });
    if (request.signal?.aborted === true) onAbort();

    req.on("error", (error: NodeJS.ErrnoException) => {
      const failure = failureOf(error);
      const detail = failure === "blocked" ? error.message : (error.code ?? "connection error");
      settle({ kind: "failed", failure, message: `${host}: ${cleanLine(detail, BODY_SHOWN)}` });
    });
    req.on("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (): void => {
        const text = Buffer.concat(chunks).toString("utf8");
        settle({
          kind: "answered",
          status: response.statusCode ?? 0,
          body: cleanLine(text, BODY_SHOWN),
          text,
          retryAfterSeconds: retryAfterOf(response),
        });
      };
      response.on("data", (chunk: Buffer) => {
        const room = limits.maxResponseBytes - size;
        if (room > 0) chunks.push(chunk.subarray(0, room));
        size += chunk.length;
        // Enough read: the status is what counts; the rest is not waited for.
        if (size >= limits.maxResponseBytes) finish();
      });
      response.on("end", finish);
      response.on("error", finish);
    });
    req.end(body);
  });
}
