import { loadConfig, type MonitorConfig } from "../config/load-config.js";
import { positionOf } from "../config/setting-position.js";
import { listenProblem } from "../http/listen-address.js";
import { loadWatchlist } from "../watchlist/parse-watchlist.js";
import { formatPositionedError } from "../yaml/positioned-error.js";
import { type Command, EXIT } from "./command.js";
import { statePathProblems } from "./state-paths.js";
import { watchlistOptionsOf } from "./watchlist-input.js";

/**
 * What the daemon refuses at its start beyond the configuration's own rules, so that `validate`
 * passing means the daemon starts: an HTTP server (MCP, health, metrics, the calendar feed) on an
 * address other machines reach, without MCP_HTTP_TOKEN.
 */
export function startProblems(
  config: MonitorConfig,
  sources: Readonly<Record<string, string>>,
): string[] {
  const listen = config.http.listen;
  if (listen === null) return [];
  const problem = listenProblem(listen, config.http.token);
  if (problem === null) return [];
  const source = sources["http.listen"] ?? "";
  const at = positionOf(sources, "http.listen") || (source === "" ? "" : `${source} `);
  const feed = config.calendarFeed.serve ? " (the calendar feed too)" : "";
  return [`${at}http.listen: the daemon would refuse to start${feed}: ${problem}`];
}

export const validateCommand: Command = {
  name: "validate",
  summary: "Check the config and the watchlist; print every error as file:line:col message",
  usage: "datajud-monitor validate",
  details: ["Exit codes: 0 valid, 2 invalid."],
  options: {},
  async run(_args, io) {
    const config = loadConfig({ env: io.env, cwd: io.cwd });
    if (!config.ok) {
      for (const message of config.errors) io.stderr.write(`${message}\n`);
      io.stderr.write(`config: ${config.errors.length} error(s)\n`);
      return EXIT.usage;
    }
    const state = statePathProblems(config.config.paths, config.sources);
    const refused = [...startProblems(config.config, config.sources), ...state.errors];
    if (refused.length > 0) {
      for (const message of refused) io.stderr.write(`${message}\n`);
      io.stderr.write(`config: ${refused.length} error(s)\n`);
      return EXIT.usage;
    }
    const path = config.config.paths.watchlist;
    const watchlist = await loadWatchlist(path, watchlistOptionsOf(config.config));
    if (!watchlist.ok) {
      for (const error of watchlist.errors) io.stderr.write(`${formatPositionedError(error)}\n`);
      io.stderr.write(`${path}: ${watchlist.errors.length} error(s)\n`);
      return EXIT.usage;
    }
    // Valid, but most likely a mistake: told, never failed on (exit 0).
    for (const warning of watchlist.warnings) {
      io.stderr.write(
        `${formatPositionedError({ ...warning, message: `warning: ${warning.message}` })}\n`,
      );
    }
    const courts = new Set(watchlist.watchlist.cases.map((c) => c.court));
    const warned =
      watchlist.warnings.length === 0 ? "" : `; ${watchlist.warnings.length} warning(s) above`;
    io.stdout.write(
      `config OK\n${path}: OK, ${watchlist.watchlist.cases.length} case(s) in ${courts.size} court(s)${warned}\n`,
    );
    for (const e of config.config.notify.declared) {
      if (e.missing.length === 0) continue;
      io.stdout.write(
        `note: ${e.channel} endpoint "${e.name}": ${e.missing.join(" and ")} not set in this process; its alerts are queued, and only a process that has ${e.missing.length === 1 ? "it" : "them"} (the daemon) sends them\n`,
      );
    }
    for (const note of state.notes) io.stdout.write(`note: ${note}\n`);
    if (config.config.datajud.apiKey === null) {
      io.stdout.write(
        "note: DATAJUD_API_KEY is not set; run-once and daemon will refuse to start\n",
      );
    }
    return EXIT.ok;
  },
};
