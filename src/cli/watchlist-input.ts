import { acknowledgementsOn } from "../ack/ack-token.js";
import type { MonitorConfig } from "../config/load-config.js";
import {
  loadWatchlist,
  type Watchlist,
  type WatchlistOptions,
} from "../watchlist/parse-watchlist.js";
import { formatPositionedError } from "../yaml/positioned-error.js";
import type { CliIo } from "./command.js";
import { programOf } from "./command.js";

/**
 * How every command that runs on the watchlist reads it (validate, run-once, the daemon's start
 * and reloads): the endpoints its `channels:` and escalation steps may name, the per-watcher ones
 * an escalation step cannot, and whether acknowledgement links are on (escalation needs them). A
 * typo in an endpoint's name is refused at its line, not found when the alert or the step is due.
 */
export function watchlistOptionsOf(config: MonitorConfig): WatchlistOptions {
  return {
    endpoints: config.notify.declared.map((e) => e.name),
    perWatcherEndpoints: config.notify.declared
      .filter((e) => e.perWatcher === true)
      .map((e) => e.name),
    acknowledgement: acknowledgementsOn(config.acknowledgement),
  };
}

/**
 * Loads the watchlist and the text it was read from, or prints every positioned error and returns
 * null (the caller exits 2).
 */
export async function readWatchlistOrReport(
  io: CliIo,
  path: string,
  command: string,
  options: WatchlistOptions = {},
): Promise<{ watchlist: Watchlist; text: string } | null> {
  const result = await loadWatchlist(path, options);
  if (result.ok) return { watchlist: result.watchlist, text: result.text };
  for (const error of result.errors) io.stderr.write(`${formatPositionedError(error)}\n`);
  io.stderr.write(
    `${programOf(io)} ${command}: the watchlist has ${result.errors.length} error(s); fix them (${programOf(io)} validate lists them)\n`,
  );
  return null;
}
