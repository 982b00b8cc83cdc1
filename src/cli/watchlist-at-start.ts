import { formatInstant } from "../datajud/dates.js";
import { countText } from "../datajud/glossary.js";
import type { Logger } from "../log.js";
import { closeDatabase, databaseExists, openDatabase } from "../store/database.js";
import { type GoodWatchlist, lastGoodWatchlist } from "../store/last-good-watchlist.js";
import {
  loadWatchlist,
  type PositionedError,
  parseWatchlist,
  type Watchlist,
  type WatchlistOptions,
} from "../watchlist/parse-watchlist.js";
import { formatPositionedError } from "../yaml/positioned-error.js";
import { type CliIo, programOf } from "./command.js";

/** What the daemon starts on: the file, or its last good copy while the file is invalid. */
export interface StartingWatchlist {
  watchlist: Watchlist;
  text: string;
  /** The file's errors when the daemon starts on the last good copy; empty when on the file. */
  refused: PositionedError[];
}

/** The last good copy of the watchlist at `path`, if the database keeps one (of that file). */
function storedCopy(dbPath: string, path: string): GoodWatchlist | undefined {
  if (!databaseExists(dbPath)) return undefined;
  const db = openDatabase(dbPath);
  try {
    const copy = lastGoodWatchlist(db);
    return copy?.path === path ? copy : undefined;
  } finally {
    closeDatabase(db);
  }
}

/**
 * The watchlist the daemon starts on. A valid file, as always; an invalid one, its errors printed,
 * is replaced by the last good copy the database keeps of that file (a typo must not leave cases
 * unchecked after a reboot, with systemd's RestartPreventExitStatus=2 keeping the service down);
 * null when there is none either: the caller exits 2, as before.
 */
export async function startingWatchlist(
  io: CliIo,
  paths: { watchlist: string; db: string },
  timeZone: string,
  logger: Logger,
  options: WatchlistOptions = {},
): Promise<StartingWatchlist | null> {
  const loaded = await loadWatchlist(paths.watchlist, options);
  if (loaded.ok) return { watchlist: loaded.watchlist, text: loaded.text, refused: [] };
  for (const error of loaded.errors) io.stderr.write(`${formatPositionedError(error)}\n`);
  const errors = countText(loaded.errors.length, "error", "errors");
  const program = programOf(io);
  const copy = storedCopy(paths.db, paths.watchlist);
  if (copy === undefined) {
    io.stderr.write(
      `${program} daemon: the watchlist has ${errors} and the database keeps no good copy of it to run on; fix them (${program} validate lists them)\n`,
    );
    return null;
  }
  const parsed = parseWatchlist(copy.text, paths.watchlist, options);
  if (!parsed.ok) {
    io.stderr.write(
      `${program} daemon: the watchlist has ${errors}, and its last good copy (accepted ${formatInstant(copy.acceptedAt, timeZone)}) is not valid for this version either; fix the file (${program} validate lists the errors)\n`,
    );
    return null;
  }
  const cases = countText(parsed.watchlist.cases.length, "case", "cases");
  logger.error(
    {
      errors: loaded.errors.map(formatPositionedError),
      goodCopyAcceptedAt: copy.acceptedAt,
      cases: parsed.watchlist.cases.length,
    },
    "the watchlist file is invalid; running on its last good copy until it is fixed",
  );
  io.stderr.write(
    `${program} daemon: the watchlist has ${errors}; running on its last good copy (accepted ${formatInstant(copy.acceptedAt, timeZone)}, ${cases}) until the file is fixed; \`${program} status\` says so, /readyz answers 503 and mail.admin is told\n`,
  );
  return { watchlist: parsed.watchlist, text: copy.text, refused: loaded.errors };
}
