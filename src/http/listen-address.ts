import { isIP } from "node:net";

/** Where the HTTP server listens: `[HOST:]PORT`, host 127.0.0.1 when left out. */
export interface ListenAddress {
  host: string;
  port: number;
}

export const DEFAULT_HOST = "127.0.0.1";

const PORT = /^\d{1,5}$/u;

function parsePort(text: string): number | null {
  if (!PORT.test(text)) return null;
  const port = Number(text);
  return port <= 65_535 ? port : null;
}

/**
 * `8080`, `127.0.0.1:8080`, `localhost:8080`, `[::1]:8080` or `0.0.0.0:8080`; port 0 asks the
 * system for a free one.
 */
export function parseListenAddress(
  input: string,
): { ok: true; value: ListenAddress } | { ok: false; error: string } {
  const text = input.trim();
  const fail = {
    ok: false as const,
    error: `"${input}" is not [HOST:]PORT; write a port (8080, on 127.0.0.1) or a host and port (127.0.0.1:8080, [::1]:8080)`,
  };
  const bracketed = /^\[([^\]]+)\]:(\d+)$/u.exec(text);
  let host = DEFAULT_HOST;
  let portText = text;
  if (bracketed) {
    host = bracketed[1] ?? "";
    portText = bracketed[2] ?? "";
    if (isIP(host) !== 6) return fail;
  } else if (text.includes(":")) {
    const at = text.lastIndexOf(":");
    host = text.slice(0, at);
    portText = text.slice(at + 1);
    // A bare IPv6 address is ambiguous with its port: brackets are required.
    if (host.includes(":") || host === "") return fail;
  }
  const port = parsePort(portText);
  if (port === null) return fail;
  return { ok: true, value: { host, port } };
}

/** Only this machine can reach it: 127.0.0.0/8, ::1 or localhost. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/gu, "").toLowerCase();
  if (bare === "localhost" || bare === "::1") return true;
  return isIP(bare) === 4 && bare.startsWith("127.");
}

/**
 * The host name of a `Host` header ("example.com:8765" -> "example.com", "[::1]:80" -> "::1"),
 * lower case; null when it is no host.
 */
export function hostOfHeader(header: string): string | null {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/u.exec(header);
  if (bracketed) return (bracketed[1] ?? "").toLowerCase();
  const plain = /^([^:[\]]+)(?::\d+)?$/u.exec(header);
  return plain ? (plain[1] ?? "").toLowerCase().replace(/\.$/u, "") : null;
}

export function hostForUrl(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

/**
 * Why the server must not start here, or null. Without a token, only this machine may reach it:
 * anyone else who can reach the port would read the firm's cases.
 */
export function listenProblem(listen: ListenAddress, token: string | null): string | null {
  if (token !== null || isLoopback(listen.host)) return null;
  return `refusing to listen on ${hostForUrl(listen.host)}:${listen.port} without MCP_HTTP_TOKEN: anyone who can reach that address could read the monitor's cases; set MCP_HTTP_TOKEN (e.g. \`openssl rand -hex 32\`) or listen on 127.0.0.1 behind a TLS reverse proxy`;
}
