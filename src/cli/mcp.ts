import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { DataJudHttpClient } from "../datajud/http-client.js";
import { createMonitorDeps } from "../mcp/monitor-deps.js";
import { createDataJudServer } from "../mcp/server.js";
import { loadWatchlist, type Watchlist } from "../watchlist/parse-watchlist.js";
import { type Command, EXIT } from "./command.js";
import {
  createDataJud,
  type DataJudRuntime,
  loadRuntime,
  MissingApiKeyError,
  type Runtime,
} from "./runtime.js";

/** The DataJud client, or why there is none (no key): the server starts either way. */
export function optionalDataJud(runtime: Runtime): {
  datajud: DataJudRuntime | null;
  unavailable?: string;
} {
  try {
    return { datajud: createDataJud(runtime.config, runtime.logger) };
  } catch (error) {
    if (!(error instanceof MissingApiKeyError)) throw error;
    // A client that cannot connect only says "Connection closed"; a tool error says what to do.
    runtime.logger.warn("DATAJUD_API_KEY is not set: the DataJud tools will answer a config error");
    return { datajud: null, unavailable: error.message };
  }
}

/** The history tools' dependencies from the configuration, for `monitor mcp` and the daemon. */
export function monitorDepsFor(
  runtime: Runtime,
  http: DataJudHttpClient | null,
  watchlist: () => Promise<Watchlist | null>,
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
  });
}

export const mcpCommand: Command = {
  name: "mcp",
  summary:
    "Serve the DataJud tools and the monitor's history over MCP stdio (Claude Desktop / Code)",
  usage: "monitor mcp",
  details: [
    "DataJud tools: get_case, list_movements, search_cases, list_courts, fingerprint_cases, read_cases.",
    "The monitor's history (its database, MONITOR_DB): list_watched_cases, recent_changes,",
    "get_case_history, rate_status; prompt weekly_review. All read-only.",
    "Logs go to stderr; stdout carries only the MCP protocol.",
    "The DataJud tools need DATAJUD_API_KEY (CNJ's public key); without it the server still starts",
    "and those tools answer an error (kind config) saying how to set it.",
  ],
  options: {},
  async run(_args, io) {
    const runtime = loadRuntime(io, "mcp");
    if (!runtime) return EXIT.usage;
    const { datajud, unavailable } = optionalDataJud(runtime);
    const monitor = monitorDepsFor(runtime, datajud?.http ?? null, async () => {
      const result = await loadWatchlist(runtime.config.paths.watchlist);
      return result.ok ? result.watchlist : null;
    });
    const server = createDataJudServer({
      reader: datajud?.reader ?? null,
      ...(unavailable === undefined ? {} : { unavailable }),
      monitor: monitor.deps,
    });
    const transport = new StdioServerTransport();
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
    runtime.logger.info({ requests: datajud?.http.requestCount ?? 0 }, "MCP server stopped");
    return EXIT.ok;
  },
};
