import { mkdtempSync, renameSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LiveWatchlist, openLiveWatchlist } from "../../../src/watchlist/live-watchlist.js";
import { loadWatchlist, type Watchlist } from "../../../src/watchlist/parse-watchlist.js";
import type { PositionedError } from "../../../src/yaml/positioned-error.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { waitFor } from "../../support/wait-for.js";

const TJDFT = "0713383-43.2025.8.07.0006";
const TRT2 = "1000123-59.2024.5.02.0001";

function listOf(...numbers: string[]): string {
  return `cases:\n${numbers.map((n) => `  - number: "${n}"\n`).join("")}`;
}

const DEBOUNCE_MS = 50;

describe("openLiveWatchlist", () => {
  let dir: string;
  let path: string;
  let live: LiveWatchlist | undefined;
  let reloads: Watchlist[];
  let invalid: PositionedError[][];
  /** The live watchlist's quiet time runs on it: a test ends it when it chooses, never by waiting. */
  let clock: FakeClock;

  /** Watches the file from its current content; `edit` changes it unseen, before the watch. */
  async function start(edit?: () => void): Promise<LiveWatchlist> {
    const initial = await loadWatchlist(path);
    if (!initial.ok) throw new Error("the initial watchlist must be valid");
    edit?.();
    live = openLiveWatchlist({
      path,
      initial: initial.watchlist,
      onReload: (w) => reloads.push(w),
      onInvalid: (errors) => invalid.push(errors),
      debounceMs: DEBOUNCE_MS,
      clock,
    });
    return live;
  }

  /**
   * Resolves once the directory's event for `file` has reached this process's fs watchers (the
   * monitor's included: one inotify read calls them all in the same turn of the event loop).
   */
  function eventFor(file: string): Promise<void> {
    return new Promise((resolve) => {
      const probe = watch(dir, (_event, changed) => {
        if (changed !== file) return;
        probe.close();
        setImmediate(resolve);
      });
    });
  }

  /** It saw its file change, ended the quiet time, and has read the file. */
  async function settled(w: LiveWatchlist): Promise<void> {
    await waitFor(() => clock.pending > 0, "the change to be seen");
    await clock.advance(DEBOUNCE_MS);
    // Reads run one at a time, in order: this one ends after the read the change started.
    await w.reload("probe");
  }

  /** Saves the way editors do: a new file renamed over the old one. */
  function saveByRename(text: string): void {
    const temp = join(dir, ".watchlist.yaml.swp");
    writeFileSync(temp, text);
    renameSync(temp, path);
  }

  beforeEach(() => {
    clock = new FakeClock();
    dir = mkdtempSync(join(tmpdir(), "watchlist-watch-"));
    path = join(dir, "watchlist.yaml");
    writeFileSync(path, listOf(TJDFT));
    reloads = [];
    invalid = [];
  });

  afterEach(() => {
    live?.close();
    live = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("picks up a file replaced by rename", async () => {
    const w = await start();

    saveByRename(listOf(TJDFT, TRT2));
    await settled(w);

    expect(w.current().cases.map((c) => c.number)).toEqual([TJDFT, TRT2]);
    expect(reloads[0]?.cases).toHaveLength(2);
    expect(invalid).toEqual([]);
  });

  it("keeps the last good watchlist on an invalid edit and reports it once", async () => {
    const w = await start();

    writeFileSync(path, "cases:\n  - number: 123\n");
    await settled(w);
    writeFileSync(path, "cases:\n  - number: 123\n");
    await settled(w);

    expect(invalid).toHaveLength(1);
    expect(invalid[0]?.[0]).toMatchObject({ file: path, line: 2, col: 13 });
    expect(w.current().cases.map((c) => c.number)).toEqual([TJDFT]);
    expect(reloads).toEqual([]);
  });

  it("does nothing when the content means the same cases", async () => {
    const w = await start();

    writeFileSync(path, `# a comment moves the cases down\n\n${listOf(TJDFT)}`);
    await settled(w);

    expect(reloads).toEqual([]);
    expect(invalid).toEqual([]);
  });

  it("reloads an edit that only mutes a case or changes a live's delivery", async () => {
    writeFileSync(path, `${listOf(TJDFT)}    notify: [ana@example.com]\n`);
    const w = await start();

    saveByRename(`${listOf(TJDFT)}    notify: [ana@example.com]\n    muted: true\n`);
    await settled(w);
    saveByRename(
      `${listOf(TJDFT)}    notify: [ana@example.com]\n    muted: true\nwatchers:\n  - address: ana@example.com\n    delivery: digest\n`,
    );
    await settled(w);

    expect(reloads[0]?.cases[0]?.policy.muted).toBe(true);
    expect(reloads[1]?.watchers.map((w) => w.delivery)).toEqual(["digest"]);
  });

  it("reports recovery after an invalid edit is undone", async () => {
    const w = await start();

    writeFileSync(path, "cases: [");
    await settled(w);
    saveByRename(listOf(TJDFT));
    await settled(w);

    expect(invalid).toHaveLength(1);
    expect(reloads.map((r) => r.cases.map((c) => c.number))).toEqual([[TJDFT]]);
  });

  it("reloads on demand (SIGHUP) without waiting for the debounce", async () => {
    const initial = await loadWatchlist(path);
    if (!initial.ok) throw new Error("the initial watchlist must be valid");
    live = openLiveWatchlist({
      path,
      initial: initial.watchlist,
      onReload: (w) => reloads.push(w),
      onInvalid: (errors) => invalid.push(errors),
      debounceMs: 60_000,
      clock,
    });
    writeFileSync(path, listOf(TRT2));

    await live.reload("SIGHUP");

    expect(reloads.map((r) => r.cases.map((c) => c.number))).toEqual([[TRT2]]);
    expect(live.current().cases.map((c) => c.number)).toEqual([TRT2]);
  });

  it("does not drop every case on a file that is empty only for a moment", async () => {
    // Emptied before the watch starts, so the only wait is the second look the reload takes.
    const w = await start(() => writeFileSync(path, ""));

    const reload = w.reload("SIGHUP");
    await waitFor(() => clock.pending === 1, "the second look at the empty file");
    writeFileSync(path, listOf(TJDFT));
    await clock.advance(DEBOUNCE_MS);
    await reload;

    expect(reloads).toEqual([]);
    expect(w.current().cases.map((c) => c.number)).toEqual([TJDFT]);
  });

  it("accepts an emptied watchlist that stays empty", async () => {
    const w = await start(() => writeFileSync(path, "cases: []\n"));

    const reload = w.reload("SIGHUP");
    await waitFor(() => clock.pending === 1, "the second look at the empty watchlist");
    await clock.advance(DEBOUNCE_MS);
    await reload;

    expect(w.current().cases).toEqual([]);
    expect(reloads).toHaveLength(1);
  });

  it("ignores other files in the directory", async () => {
    await start();
    const delivered = eventFor("other.yaml");

    writeFileSync(join(dir, "other.yaml"), "not: a watchlist\n");
    await delivered;

    // No quiet time started, so nothing will be read.
    expect(clock.sleeps).toEqual([]);
    expect(reloads).toEqual([]);
    expect(invalid).toEqual([]);
  });

  it("stops reacting once closed", async () => {
    const w = await start();
    w.close();
    const delivered = eventFor("watchlist.yaml");

    saveByRename(listOf(TJDFT, TRT2));
    await delivered;
    await w.reload("SIGHUP");

    expect(clock.sleeps).toEqual([]);
    expect(reloads).toEqual([]);
    expect(w.current().cases).toHaveLength(1);
  });

  it("reports a watchlist that has gone missing and keeps the last good one", async () => {
    const initial = await loadWatchlist(path);
    if (!initial.ok) throw new Error("valid");
    live = openLiveWatchlist({
      path: join(dir, "elsewhere", "watchlist.yaml"),
      initial: initial.watchlist,
      onReload: (w) => reloads.push(w),
      onInvalid: (errors) => invalid.push(errors),
      clock,
    });

    await live.reload("SIGHUP");

    expect(invalid[0]?.[0]?.message).toContain("does not exist");
    expect(live.current()).toBe(initial.watchlist);
  });
});
