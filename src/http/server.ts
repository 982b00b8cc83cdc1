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

export function createHttpServer(options: HttpServerOptions): HttpServer {
  const { logger } = options;
  const routes = new Map<string, Route>();
  let allowed = new Set<string>();
  const configured = options.allowedOrigins.flatMap((o) => normalizeOrigin(o) ?? []);
  const names = hostNames(options, configured);
  const hostAllowed = (header: string | undefined): boolean => {
    // HTTP/1.0 clients may send none; every browser does.
    if (header === undefined) return true;
    const host = hostOfHeader(header);
    return host !== null && (isIP(host) !== 0 || names.has(host));
  };
  let server: Server | null = null;

  const refuseAuth = (res: ServerResponse, given: boolean): void => {
    sendJson(
      res,
      401,
      {
        error: given
          ? "the bearer token is wrong"
          : "this endpoint needs Authorization: Bearer <MCP_HTTP_TOKEN>",
      },
      {
        "www-authenticate": given
          ? 'Bearer realm="datajud-monitor", error="invalid_token"'
          : 'Bearer realm="datajud-monitor"',
      },
    );
  };

  const prefixRoute = (path: string): Route | undefined => {
    for (const route of routes.values()) {
      if (route.prefix === true && path.startsWith(route.path)) return route;
    }
    return undefined;
  };
  /**
   * The path as logs may show it: a route's own path, a prefix route's path and "…" (its tail may
   * be a secret: a feed's token), and nothing of any other path, which may be a mistyped or
   * disguised secret ("//calendar/<token>.ics", percent-encoded letters).
   */
  const loggable = (path: string | null): string => {
    if (path !== null && routes.has(path)) return path;
    const route = path === null ? undefined : prefixRoute(path);
    return route === undefined ? "(no route)" : `${route.path}…`;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = requestPath(req.url);
    if (!hostAllowed(req.headers.host)) {
      // Same-origin GETs carry no Origin: a rebinding page is told apart by the name it used.
      logger.warn(
        { host: req.headers.host, path: loggable(path) },
        "HTTP request to a host name not allowed",
      );
      sendJson(res, 421, {
        error: `this server is not ${req.headers.host ?? ""}; add the name to http.allowedHosts if it is yours (a reverse proxy's)`,
      });
      return;
    }
    const route = path === null ? undefined : (routes.get(path) ?? prefixRoute(path));
    if (path === null || route === undefined) {
      sendJson(res, 404, { error: `nothing at ${path ?? String(req.url)}` });
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowed.has(normalizeOrigin(origin) ?? "")) {
      // A browser page from elsewhere (DNS rebinding included) never reaches a route.
      logger.warn({ origin, path: loggable(path) }, "HTTP request from an origin not allowed");
      sendJson(res, 403, {
        error: `origin ${origin} is not allowed; add it to http.allowedOrigins if it is yours`,
      });
      return;
    }
    if (route.auth === "bearer" && options.token === null) {
      sendJson(res, 503, {
        error: `${path} is off: this server has no MCP_HTTP_TOKEN; set it and restart`,
      });
      return;
    }
    if (route.auth !== "public" && options.token !== null) {
      const header = req.headers.authorization;
      if (!tokenMatches(options.token, header)) {
        refuseAuth(res, header !== undefined);
        return;
      }
    }
    const length = Number(req.headers["content-length"] ?? 0);
    if (Number.isFinite(length) && length > options.maxBodyBytes) {
      sendJson(res, 413, {
        error: `the request body is larger than ${options.maxBodyBytes} bytes (http.maxBodyBytes)`,
      });
      return;
    }
    await route.handle(req, res);
  };

  return {
    route(route) {
      routes.set(route.path, route);
    },
    async start() {
      const problem = listenProblem(options.listen, options.token);
      if (problem !== null) throw new HttpStartError(problem);
      const created = createServer((req, res) => {
        handle(req, res).catch((error: unknown) => {
          logger.error({ err: error, path: loggable(requestPath(req.url)) }, "HTTP request failed");
          sendJson(res, 500, { error: "internal error; the server log has the details" });
        });
      });
      created.requestTimeout = options.requestTimeoutMs ?? 30_000;
      created.headersTimeout = Math.min(HEADERS_TIMEOUT_MS, created.requestTimeout);
      await new Promise<void>((resolve, reject) => {
        const onError = (error: NodeJS.ErrnoException): void => {
          reject(
            new HttpStartError(
              `cannot listen on ${hostForUrl(options.listen.host)}:${options.listen.port}: ${error.code === "EADDRINUSE" ? "the port is in use; pick another in http.listen" : error.message}`,
            ),
          );
        };
        created.once("error", onError);
        created.listen(options.listen.port, options.listen.host, () => {
          created.off("error", onError);
          resolve();
        });
      });
      server = created;
      const address = created.address();
      const port =
        typeof address === "object" && address !== null ? address.port : options.listen.port;
      allowed = new Set([...ownOrigins(options.listen.host, port), ...configured]);
      const url = `http://${hostForUrl(options.listen.host)}:${port}`;
      logger.info({ url, routes: [...routes.keys()] }, "HTTP server listening");
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
