import {
  loadWatchlist,
  type Watchlist,
  type WatchlistOptions,
} from "../watchlist/parse-watchlist.js";
import { formatPositionedError } from "../yaml/positioned-error.js";
import type { CliIo } from "./command.js";
import { programOf } from "./command.js";

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
