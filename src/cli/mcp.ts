import { acknowledgementsOn } from "../ack/ack-token.js";
import type { DataJudHttpClient } from "../datajud/http-client.js";
import { type ListenAddress, parseListenAddress } from "../http/listen-address.js";
import { createHttpServer, type HttpServer, HttpStartError, type Route } from "../http/server.js";
import { mcpHttpRoute } from "../mcp/http-route.js";
import { createMonitorDeps } from "../mcp/monitor-deps.js";
import { createDataJudServer, type DataJudServerOptions } from "../mcp/server.js";
import { BoundedStdioServerTransport } from "../mcp/stdio-transport.js";
import { closeDatabase, type Db, databaseExists, openDatabase } from "../store/database.js";
import { realSystem, type System } from "../system.js";
import { calendarBook } from "../time/court-calendar.js";
import { loadWatchlist, type Watchlist } from "../watchlist/parse-watchlist.js";
import { type CliIo, type Command, EXIT, programOf, systemOf, UsageError } from "./command.js";
import {
  createDataJud,
  createDjen,
  type DataJudRuntime,
  djenViewOf,
  loadRuntime,
  MissingApiKeyError,
  type Runtime,
  sharedDataJudBudget,
} from "./runtime.js";

/**
 * The monitor's database, opened for writing, for DataJud's budget shared with the daemon and any
 * `run-once` on it (store/datajud-grants.ts); null when there is none yet (no other process has
 * used it: nothing to share) or this user cannot write it, said in the log with what follows.
 */
function budgetDatabase(runtime: Runtime): Db | null {
  const path = runtime.config.paths.db;
  try {
    if (!databaseExists(path)) return null;
    return openDatabase(path);
  } catch (error) {
    runtime.logger.warn(
      { db: path, error: error instanceof Error ? error.message : String(error) },
      "cannot write the monitor's database to share DataJud's budget with the daemon: this process keeps to datajud.mcpSharePercent of datajud.requestsPerMinute on its own",
    );
    return null;
  }
}

/**
 * DataJud's client sharing the budget through the monitor's database; where that cannot be
 * written but exists (a daemon may use it), a limiter of the MCP tools' share alone, so this
 * process never adds the whole budget beside the daemon's.
 */
function sharedDataJud(
  runtime: Runtime,
  system: System,
): { datajud: DataJudRuntime; close(): void } {
  const { config, logger } = runtime;
  if (config.datajud.apiKey === null) throw new MissingApiKeyError();
  const db = budgetDatabase(runtime);
  if (db !== null) {
    const shared = sharedDataJudBudget(() => db, config, system, logger);
    return {
      datajud: createDataJud(config, logger, globalThis.fetch, system, undefined, shared),
      close: () => closeDatabase(db),
    };
  }
  let exists = false;
  try {
    exists = databaseExists(config.paths.db);
  } catch {
    exists = true;
  }
  const own = exists
    ? {
        ...config,
        datajud: {
          ...config.datajud,
          requestsPerMinute: Math.max(
            1,
            Math.floor((config.datajud.requestsPerMinute * config.datajud.mcpSharePercent) / 100),
          ),
        },
      }
    : config;
  return { datajud: createDataJud(own, logger, globalThis.fetch, system), close: () => undefined };
}

/** The DataJud client, or why there is none (no key): the server starts either way. */
export function optionalDataJud(
  runtime: Runtime,
  system: System = realSystem,
): {
  datajud: DataJudRuntime | null;
  unavailable?: string;
  close(): void;
} {
  try {
    return sharedDataJud(runtime, system);
  } catch (error) {
    if (!(error instanceof MissingApiKeyError)) throw error;
    // A client that cannot connect only says "Connection closed"; a tool error says what to do.
    runtime.logger.warn("DATAJUD_API_KEY is not set: the DataJud tools will answer a config error");
    return { datajud: null, unavailable: error.message, close: () => undefined };
  }
}

/** The history tools' dependencies from the configuration, for `monitor mcp` and the daemon. */
export function monitorDepsFor(
  runtime: Runtime,
  http: DataJudHttpClient | null,
  watchlist: () => Promise<Watchlist | null>,
  system: System = realSystem,
): ReturnType<typeof createMonitorDeps> {
  const { config } = runtime;
  return createMonitorDeps({
    dbPath: config.paths.db,
    watchlist,
    datajud: http,
    summarizer: {
      model: config.summarizer.apiKey === null ? null : config.summarizer.model,
      runTokenBudget: config.summarizer.runTokenBudget,
      dailyTokenBudget: config.summarizer.dailyTokenBudget,
    },
    timezone: config.schedule.timezone,
    clock: system.clock,
    djen: djenViewOf(config),
  });
}

/** The origin of acknowledgement.publicBaseUrl, when acknowledgement links are on. */
function publicOrigins(config: Runtime["config"]): string[] {
  const base = config.acknowledgement.publicBaseUrl;
  return acknowledgementsOn(config.acknowledgement) && base !== null ? [new URL(base).origin] : [];
}

/**
 * The process's HTTP server with MCP at /mcp, a new MCP server per request, and `routes` beside
 * it (the daemon's health and metrics). Throws HttpStartError (refused address, port in use).
 */
export async function startMcpHttp(
  runtime: Runtime,
  listen: ListenAddress,
  server: DataJudServerOptions,
  routes: readonly Route[] = [],
): Promise<{ http: HttpServer; url: string }> {
  const { config, logger } = runtime;
  const http = createHttpServer({
    listen,
    token: config.http.token,
    // The acknowledgement page is reached, and its button posted, at the public base URL.
    allowedOrigins: [...config.http.allowedOrigins, ...publicOrigins(config)],
    allowedHosts: [
      ...config.http.allowedHosts,
      ...publicOrigins(config).map((o) => new URL(o).hostname),
    ],
    maxBodyBytes: config.http.maxBodyBytes,
    logger,
  });
  http.route(
    mcpHttpRoute({
      createServer: () => createDataJudServer(server),
      maxBodyBytes: config.http.maxBodyBytes,
    }),
  );
  for (const route of routes) http.route(route);
  if (config.http.token === null) {
    logger.warn("MCP_HTTP_TOKEN is not set: /mcp answers 503 until it is");
  }
  const url = await http.start();
  return { http, url: `${url}/mcp` };
}

function waitForStop(io: CliIo): Promise<void> {
  return new Promise((resolve) => {
    if (io.signal.aborted) resolve();
    io.signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

export const mcpCommand: Command = {
  name: "mcp",
  summary:
    "Serve the DataJud tools and the monitor's history over MCP stdio (Claude Desktop / Code)",
  usage: "datajud-monitor mcp [--http [HOST:]PORT]",
  details: [
    "DataJud tools: get_case, list_movements, search_cases, list_courts, fingerprint_cases, read_cases.",
    "DJEN: search_publications, read_publications, unless djen.enabled is false.",
    "calculate_deadline: a period counted on the court's calendar (as datajud-monitor prazo).",
    "The monitor's history (its database, MONITOR_DB): list_watched_cases, recent_changes,",
    "get_case_history, rate_status, source_freshness, list_party_hits; prompt weekly_review.",
    "All read-only.",
    "Logs go to stderr; stdout carries only the MCP protocol.",
    "--http [HOST:]PORT  serve MCP over Streamable HTTP at /mcp instead (host 127.0.0.1 by default);",
    "                    needs MCP_HTTP_TOKEN, which clients send as Authorization: Bearer <token>.",
    "                    Prints the endpoint URL on stdout and serves until SIGTERM/SIGINT.",
    "The DataJud tools need DATAJUD_API_KEY (CNJ's public key); without it the server still starts",
    "and those tools answer an error (kind config) saying how to set it.",
    "Exit codes: 0 stopped (stdin closed, SIGTERM or SIGINT), 2 bad config, or --http without",
    "MCP_HTTP_TOKEN or on an address it cannot listen on.",
  ],
  options: { http: { type: "string" } },
  async run(args, io) {
    let listen: ListenAddress | null = null;
    if (typeof args.values.http === "string") {
      const parsed = parseListenAddress(args.values.http);
      if (!parsed.ok) throw new UsageError(`--http ${parsed.error}`);
      listen = parsed.value;
    }
    const runtime = loadRuntime(io, "mcp");
    if (!runtime) return EXIT.usage;
    if (listen !== null && runtime.config.http.token === null) {
      io.stderr.write(
        `${programOf(io)} mcp: --http needs MCP_HTTP_TOKEN (or MCP_HTTP_TOKEN_FILE, or a systemd credential): every client must send it as Authorization: Bearer <token>; generate one with \`openssl rand -hex 32\`\n`,
      );
      return EXIT.usage;
    }
    const system = systemOf(io);
    const { datajud, unavailable, close: closeBudget } = optionalDataJud(runtime, system);
    const monitor = monitorDepsFor(
      runtime,
      datajud?.http ?? null,
      async () => {
        const result = await loadWatchlist(runtime.config.paths.watchlist);
        return result.ok ? result.watchlist : null;
      },
      system,
    );
    const djen = createDjen(runtime.config, runtime.logger, globalThis.fetch, system);
    const options: DataJudServerOptions = {
      reader: datajud?.reader ?? null,
      djen,
      calendars: calendarBook(runtime.config.calendar.closures),
      ...(unavailable === undefined ? {} : { unavailable }),
      monitor: monitor.deps,
    };
    if (listen !== null) {
      let started: Awaited<ReturnType<typeof startMcpHttp>>;
      try {
        started = await startMcpHttp(runtime, listen, options);
      } catch (error) {
        monitor.close();
        closeBudget();
        if (!(error instanceof HttpStartError)) throw error;
        io.stderr.write(`${programOf(io)} mcp: ${error.message}\n`);
        return EXIT.usage;
      }
      io.stdout.write(`${started.url}\n`);
      await waitForStop(io);
      await started.http.close();
      monitor.close();
      closeBudget();
      runtime.logger.info(
        { requests: datajud?.http.requestCount ?? 0, djenRequests: djen?.requestCount ?? 0 },
        "MCP server stopped",
      );
      return EXIT.ok;
    }
    const server = createDataJudServer(options);
    const transport = new BoundedStdioServerTransport({ logger: runtime.logger });
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once("end", () => resolve());
      io.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await server.connect(transport);
    runtime.logger.info("MCP server ready on stdio");
    await closed;
    await server.close();
    monitor.close();
    closeBudget();
    runtime.logger.info(
      { requests: datajud?.http.requestCount ?? 0, djenRequests: djen?.requestCount ?? 0 },
      "MCP server stopped",
    );
    return EXIT.ok;
  },
};
