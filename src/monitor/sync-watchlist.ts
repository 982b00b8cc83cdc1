import { syncWatchedCases } from "../store/cases.js";
import type { Db } from "../store/database.js";
import type { WatchedCase } from "../watchlist/parse-watchlist.js";

/**
 * The database's cases made to match the watchlist: new cases added, known ones relabelled and
 * given their current watchers, the ones no longer listed marked unwatched (their history stays).
 */
export function syncWatchlist(db: Db, watchlist: readonly WatchedCase[], at: string): void {
  syncWatchedCases(
    db,
    watchlist.map((c) => ({
      number: c.number,
      digits: c.digits,
      court: c.court,
      label: c.label,
      watchers: c.notify,
    })),
    at,
  );
}
