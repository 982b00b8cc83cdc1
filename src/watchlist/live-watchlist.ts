import { type FSWatcher, watch } from "node:fs";
import { basename, dirname } from "node:path";
import type { Clock } from "../time/clock.js";
import { formatPositionedError, type PositionedError } from "../yaml/positioned-error.js";
import { loadWatchlist, type Watchlist, type WatchlistOptions } from "./parse-watchlist.js";

/** The watchlist in force, kept up to date with its file. */
export interface LiveWatchlist {
  /** The last valid watchlist: the initial one until a valid edit replaces it. */
  current(): Watchlist;
  /**
   * The errors of the file as last read when that read was invalid (the last valid watchlist
   * stays in force); empty when the file is in force.
   */
  errors(): readonly PositionedError[];
  /** Re-reads the file now; resolves once the callbacks (if any) have run. */
  reload(reason: string): Promise<void>;
  close(): void;
}

export interface LiveWatchlistOptions {
  path: string;
  initial: Watchlist;
  onReload: (watchlist: Watchlist) => void;
  onInvalid: (errors: PositionedError[]) => void;
  /**
   * Every valid read of the file, changed or not, with the text it was read from (the daemon
   * keeps it as the last good copy).
   */
  onValid?: (watchlist: Watchlist, text: string) => void;
  /**
   * The file's errors when `initial` is not the file but the last good copy the daemon started
   * on: reported by `errors()` until a valid read.
   */
  initialErrors?: readonly PositionedError[];
  /** How each read is checked (acknowledgement links on or off, for `escalation:`). */
  parse?: WatchlistOptions;
  /** Quiet time after the last change before reading: editors write in several steps. */
  debounceMs?: number;
  /** What the quiet time is measured on: the process's clock. */
  clock: Clock;
}

const DEFAULT_DEBOUNCE_MS = 250;

function sameErrors(a: readonly PositionedError[], b: readonly PositionedError[]): boolean {
  return (
    a.length === b.length &&
    a.every((e, i) => {
      const other = b[i];
      return other !== undefined && formatPositionedError(e) === formatPositionedError(other);
    })
  );
}

/** What the monitor acts on: a comment or a blank line moving cases down is not a change. */
function contentKey(watchlist: Watchlist): string {
  return JSON.stringify([
    watchlist.defaults,
    watchlist.cases.map((c) => [
      c.number,
      c.court,
      c.label,
      c.notify,
      c.channels,
      c.policy,
      c.escalation ?? null,
    ]),
    watchlist.watchers.map(({ line: _line, ...settings }) => settings),
  ]);
}

/**
 * Watches the directory, not the file: editors save by writing a new file and renaming it over the
 * old one, which leaves a watch on the old inode deaf. Comparing parsed results (not bytes) makes a
 * touch, a comment edit or a re-save of the same cases a no-op. The same invalid content is reported
 * once, not on every event.
 */
export function openLiveWatchlist(options: LiveWatchlistOptions): LiveWatchlist {
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  const { clock } = options;
  const name = basename(options.path);
  let current = options.initial;
  let currentKey = contentKey(current);
  let lastErrors: PositionedError[] = [...(options.initialErrors ?? [])];
  /** The quiet time running since the last change; a newer change restarts it. */
  let quiet: AbortController | undefined;
  let closed = false;
  let queue: Promise<void> = Promise.resolve();

  const check = async (): Promise<void> => {
    if (closed) return;
    let result = await loadWatchlist(options.path, options.parse);
    if (result.ok && result.watchlist.cases.length === 0 && current.cases.length > 0) {
      // Editors that truncate and rewrite in place show an empty file for a moment; dropping
      // every case on that glimpse would stop watching them all, so look once more first.
      await clock.sleep(debounceMs);
      if (closed) return;
      result = await loadWatchlist(options.path, options.parse);
    }
    if (closed) return;
    if (!result.ok) {
      if (sameErrors(result.errors, lastErrors)) return;
      lastErrors = result.errors;
      options.onInvalid(result.errors);
      return;
    }
    options.onValid?.(result.watchlist, result.text);
    // After an invalid edit, a fix back to the old content is news: the error has gone.
    const recovered = lastErrors.length > 0;
    lastErrors = [];
    const key = contentKey(result.watchlist);
    current = result.watchlist;
    if (key === currentKey && !recovered) return;
    currentKey = key;
    options.onReload(current);
  };

  // One read at a time, in order, so a slow read never overwrites a newer one.
  const enqueue = (): Promise<void> => {
    const next = queue.then(check);
    queue = next.catch(() => undefined);
    return next;
  };

  let fsWatch: FSWatcher | undefined;
  try {
    fsWatch = watch(dirname(options.path), { persistent: false }, (_event, changed) => {
      // Some platforms do not say which file changed; reading once too often is harmless.
      if (closed || (changed !== null && changed !== name)) return;
      quiet?.abort();
      const wait = new AbortController();
      quiet = wait;
      clock.sleep(debounceMs, wait.signal).then(
        () => {
          if (quiet === wait) quiet = undefined;
          enqueue().catch(() => undefined);
        },
        () => undefined, // a newer change restarted the quiet time, or the watcher closed
      );
    });
    // A deleted directory ends the watch; SIGHUP reloads still work.
    fsWatch.on("error", () => fsWatch?.close());
  } catch {
    fsWatch = undefined;
  }

  return {
    current: () => current,
    errors: () => lastErrors,
    reload: (_reason) => enqueue(),
    close: () => {
      closed = true;
      quiet?.abort();
      fsWatch?.close();
    },
  };
}
