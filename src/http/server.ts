import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isIP } from "node:net";
import type { Logger } from "../log.js";
import { hostForUrl, hostOfHeader, type ListenAddress, listenProblem } from "./listen-address.js";

/**
 * The process's one HTTP server: `/mcp` today, health and metrics beside it later. Each part
 * registers its routes; the server does what every route needs first: the Host and Origin
 * checks (DNS-rebinding protection), the bearer token, and bounds on body size and request time.
 */

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

export interface Route {
  /** The exact path, e.g. "/mcp"; with `prefix`, every path under it ("/calendar/"). */
  path: string;
  /**
   * The route takes every path starting with `path`. What follows it may be a secret (a feed's
   * token): the server never logs it, only `path` and "…".
   */
  prefix?: boolean;
  /**
   * bearer: the token is required, and without one configured the route answers 503;
   * bearer-if-set: required when one is configured; public: never asked.
   */
  auth: "bearer" | "bearer-if-set" | "public";
  handle: RouteHandler;
}

export interface HttpServerOptions {
  listen: ListenAddress;
  /** MCP_HTTP_TOKEN; null: none configured (then only loopback addresses are allowed). */
  token: string | null;
  /** Browser origins allowed besides the server's own, e.g. "https://mcp.example.com". */
  allowedOrigins: readonly string[];
  /** Host names a request may be addressed to besides the listen address (a reverse proxy's). */
  allowedHosts?: readonly string[];
  /** Larger request bodies are refused with 413. */
  maxBodyBytes: number;
  logger: Logger;
  /** Time to receive a whole request, headers and body. */
  requestTimeoutMs?: number;
}

export interface HttpServer {
  /** Adds a route; routes may be added before or after start. */
  route(route: Route): void;
  /** Listens; resolves with the base URL (`http://127.0.0.1:PORT`). */
  start(): Promise<string>;
  /** Stops listening and closes open connections (streams in flight included). */
  close(): Promise<void>;
}

export class HttpStartError extends Error {
  override readonly name = "HttpStartError";
}

const HEADERS_TIMEOUT_MS = 10_000;

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Equal-length digests, so the comparison takes the same time whatever the guess. */
function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

export function tokenMatches(expected: string, header: string | undefined): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/iu.exec(header ?? "");
  const given = match?.[1] ?? "";
  // Compared even when absent, so a missing header costs the same as a wrong one.
  return timingSafeEqual(digest(expected), digest(given)) && given !== "";
}

function normalizeOrigin(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.origin === "null" ? null : url.origin;
  } catch {
    return null;
  }
}

function ownOrigins(host: string, port: number): string[] {
  const hosts = new Set([hostForUrl(host), "127.0.0.1", "localhost", "[::1]"]);
  return [...hosts].map((h) => `http://${h}:${port}`);
}

/**
 * The names a request's `Host` may carry. A DNS-rebinding page reaches the server under the
 * attacker's own name (its address made to resolve here), so a name is accepted only when it is
 * the listen address's, `localhost`, or configured (http.allowedHosts, the hosts of
 * http.allowedOrigins); an IP address is never a rebound name, so any is accepted (a server on
 * 0.0.0.0 is reached by its addresses).
 */
function hostNames(options: HttpServerOptions, origins: readonly string[]): Set<string> {
  const names = [
    options.listen.host,
    "localhost",
    ...(options.allowedHosts ?? []),
    ...origins.map((o) => new URL(o).hostname),
  ];
  return new Set(names.map((name) => hostOfHeader(name) ?? name.toLowerCase()));
}

/**
 * The path of a request target, without its query: origin-form ("/calendar/x.ics?a=1") as it is,
 * absolute-form ("http://host/path", a proxy's) by its path. Never read against a base URL, which
 * takes "//calendar/<token>.ics" for a host named "calendar". Null for anything else ("*").
 */
export function requestPath(target: string | undefined): string | null {
  const raw = target ?? "/";
  if (raw.startsWith("/")) {
    const end = raw.search(/[?#]/u);
    return end === -1 ? raw : raw.slice(0, end);
  }
  try {
    const url = new URL(raw);
    return url.protocol === "http:" || url.protocol === "https:" ? url.pathname : null;
  } catch {
    return null;
  }
}

/** A request turned away before its route: the answer, and a warning for the log if any. */
interface Refusal {
  status: number;
  error: string;
  headers?: Record<string, string>;
  /** Logged as a warning, with the request's origin and loggable path. */
  warning?: string;
}

function authRefusal(given: boolean): Refusal {
  return {
    status: 401,
    error: given
      ? "the bearer token is wrong"
      : "this endpoint needs Authorization: Bearer <MCP_HTTP_TOKEN>",
    headers: {
      "www-authenticate": given
        ? 'Bearer realm="datajud-monitor", error="invalid_token"'
        : 'Bearer realm="datajud-monitor"',
    },
  };
}

/**
 * Why a request for `route` is refused, in the order checked: a browser origin not allowed (DNS
 * rebinding included: such a page never reaches a route), the route off for want of a token, a
 * missing or wrong token, a body larger than the bound. Null: it may go on.
 */
export function routeRefusal(
  req: Pick<IncomingMessage, "headers">,
  path: string,
  route: Pick<Route, "auth">,
  gate: { origins: ReadonlySet<string>; token: string | null; maxBodyBytes: number },
): Refusal | null {
  const origin = req.headers.origin;
  if (origin !== undefined && !gate.origins.has(normalizeOrigin(origin) ?? "")) {
    return {
      status: 403,
      error: `origin ${origin} is not allowed; add it to http.allowedOrigins if it is yours`,
      warning: "HTTP request from an origin not allowed",
    };
  }
  if (route.auth === "bearer" && gate.token === null) {
    return {
      status: 503,
      error: `${path} is off: this server has no MCP_HTTP_TOKEN; set it and restart`,
    };
  }
  if (route.auth !== "public" && gate.token !== null) {
    const header = req.headers.authorization;
    if (!tokenMatches(gate.token, header)) return authRefusal(header !== undefined);
  }
  const length = Number(req.headers["content-length"] ?? 0);
  if (Number.isFinite(length) && length > gate.maxBodyBytes) {
    return {
      status: 413,
      error: `the request body is larger than ${gate.maxBodyBytes} bytes (http.maxBodyBytes)`,
    };
  }
  return null;
}

/** The routes by path, and how a path may be shown in a log line. */
function routeTable() {
  const routes = new Map<string, Route>();
  const prefixRoute = (path: string): Route | undefined => {
    for (const route of routes.values()) {
      if (route.prefix === true && path.startsWith(route.path)) return route;
    }
    return undefined;
  };
  return {
    add: (route: Route) => routes.set(route.path, route),
    find: (path: string): Route | undefined => routes.get(path) ?? prefixRoute(path),
    paths: () => [...routes.keys()],
    /**
     * The path as logs may show it: a route's own path, a prefix route's path and "…" (its tail
     * may be a secret: a feed's token), and nothing of any other path, which may be a mistyped or
     * disguised secret ("//calendar/<token>.ics", percent-encoded letters).
     */
    loggable(path: string | null): string {
      if (path !== null && routes.has(path)) return path;
      const route = path === null ? undefined : prefixRoute(path);
      return route === undefined ? "(no route)" : `${route.path}…`;
    },
  };
}

/** Whether a request's `Host` header names this server (see hostNames). */
function hostGate(names: ReadonlySet<string>): (header: string | undefined) => boolean {
  return (header) => {
    // HTTP/1.0 clients may send none; every browser does.
    if (header === undefined) return true;
    const host = hostOfHeader(header);
    return host !== null && (isIP(host) !== 0 || names.has(host));
  };
}

/** Node's server over `handle`, with its time bounds; a handler that throws answers 500. */
function nodeServer(
  handle: RouteHandler,
  options: Pick<HttpServerOptions, "logger" | "requestTimeoutMs">,
  loggable: (path: string | null) => string,
): Server {
  const created = createServer((req, res) => {
    Promise.resolve(handle(req, res)).catch((error: unknown) => {
      options.logger.error(
        { err: error, path: loggable(requestPath(req.url)) },
        "HTTP request failed",
      );
      sendJson(res, 500, { error: "internal error; the server log has the details" });
    });
  });
  created.requestTimeout = options.requestTimeoutMs ?? 30_000;
  created.headersTimeout = Math.min(HEADERS_TIMEOUT_MS, created.requestTimeout);
  return created;
}

/** Listens, or says why not in words an operator can act on. */
function listenOn(server: Server, listen: ListenAddress): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(
        new HttpStartError(
          `cannot listen on ${hostForUrl(listen.host)}:${listen.port}: ${error.code === "EADDRINUSE" ? "the port is in use; pick another in http.listen" : error.message}`,
        ),
      );
    };
    server.once("error", onError);
    server.listen(listen.port, listen.host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

export function createHttpServer(options: HttpServerOptions): HttpServer {
  const { logger } = options;
  const routes = routeTable();
  let allowed = new Set<string>();
  const configured = options.allowedOrigins.flatMap((o) => normalizeOrigin(o) ?? []);
  const hostAllowed = hostGate(hostNames(options, configured));
  let server: Server | null = null;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = requestPath(req.url);
    if (!hostAllowed(req.headers.host)) {
      // Same-origin GETs carry no Origin: a rebinding page is told apart by the name it used.
      logger.warn(
        { host: req.headers.host, path: routes.loggable(path) },
        "HTTP request to a host name not allowed",
      );
      sendJson(res, 421, {
        error: `this server is not ${req.headers.host ?? ""}; add the name to http.allowedHosts if it is yours (a reverse proxy's)`,
      });
      return;
    }
    const route = path === null ? undefined : routes.find(path);
    if (path === null || route === undefined) {
      sendJson(res, 404, { error: `nothing at ${path ?? String(req.url)}` });
      return;
    }
    const refusal = routeRefusal(req, path, route, {
      origins: allowed,
      token: options.token,
      maxBodyBytes: options.maxBodyBytes,
    });
    if (refusal !== null) {
      if (refusal.warning !== undefined) {
        logger.warn({ origin: req.headers.origin, path: routes.loggable(path) }, refusal.warning);
      }
      sendJson(res, refusal.status, { error: refusal.error }, refusal.headers);
      return;
    }
    await route.handle(req, res);
  };

  return {
    route(route) {
      routes.add(route);
    },
    async start() {
      const problem = listenProblem(options.listen, options.token);
      if (problem !== null) throw new HttpStartError(problem);
      const created = nodeServer(handle, options, routes.loggable);
      await listenOn(created, options.listen);
      server = created;
      const address = created.address();
      const port =
        typeof address === "object" && address !== null ? address.port : options.listen.port;
      allowed = new Set([...ownOrigins(options.listen.host, port), ...configured]);
      const url = `http://${hostForUrl(options.listen.host)}:${port}`;
      logger.info({ url, routes: routes.paths() }, "HTTP server listening");
      return url;
    },
    async close() {
      const current = server;
      server = null;
      if (current === null) return;
      await new Promise<void>((resolve) => {
        current.close(() => resolve());
        current.closeAllConnections();
      });
    },
  };
}
