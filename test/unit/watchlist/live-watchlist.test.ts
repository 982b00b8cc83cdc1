import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LiveWatchlist, openLiveWatchlist } from "../../../src/watchlist/live-watchlist.js";
import { loadWatchlist, type Watchlist } from "../../../src/watchlist/parse-watchlist.js";
import type { PositionedError } from "../../../src/yaml/positioned-error.js";

const TJDFT = "0713383-43.2025.8.07.0006";
const TRT2 = "1000123-59.2024.5.02.0001";

function listOf(...numbers: string[]): string {
  return `cases:\n${numbers.map((n) => `  - number: "${n}"\n`).join("")}`;
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("openLiveWatchlist", () => {
  let dir: string;
  let path: string;
  let live: LiveWatchlist | undefined;
  let reloads: Watchlist[];
  let invalid: PositionedError[][];

  async function start(): Promise<LiveWatchlist> {
    const initial = await loadWatchlist(path);
    if (!initial.ok) throw new Error("the initial watchlist must be valid");
    live = openLiveWatchlist({
      path,
      initial: initial.watchlist,
      onReload: (w) => reloads.push(w),
      onInvalid: (errors) => invalid.push(errors),
      debounceMs: 50,
    });
    return live;
  }

  /** Saves the way editors do: a new file renamed over the old one. */
  function saveByRename(text: string): void {
    const temp = join(dir, ".watchlist.yaml.swp");
    writeFileSync(temp, text);
    renameSync(temp, path);
  }

  beforeEach(() => {
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
    await waitFor(() => reloads.length === 1, "the reload");

    expect(w.current().cases.map((c) => c.number)).toEqual([TJDFT, TRT2]);
    expect(reloads[0]?.cases).toHaveLength(2);
    expect(invalid).toEqual([]);
  });

  it("keeps the last good watchlist on an invalid edit and reports it once", async () => {
    const w = await start();

    writeFileSync(path, "cases:\n  - number: 123\n");
    await waitFor(() => invalid.length === 1, "the invalid report");
    writeFileSync(path, "cases:\n  - number: 123\n");
    await sleep(200);

    expect(invalid).toHaveLength(1);
    expect(invalid[0]?.[0]).toMatchObject({ file: path, line: 2, col: 13 });
    expect(w.current().cases.map((c) => c.number)).toEqual([TJDFT]);
    expect(reloads).toEqual([]);
  });

  it("does nothing when the content means the same cases", async () => {
    await start();

    writeFileSync(path, `# a comment moves the cases down\n\n${listOf(TJDFT)}`);
    await sleep(250);

    expect(reloads).toEqual([]);
    expect(invalid).toEqual([]);
  });

  it("reloads an edit that only mutes a case or changes a live's delivery", async () => {
    writeFileSync(path, `${listOf(TJDFT)}    notify: [ana@example.com]\n`);
    await start();

    saveByRename(`${listOf(TJDFT)}    notify: [ana@example.com]\n    muted: true\n`);
    await waitFor(() => reloads.length === 1, "the reload after muting");
    saveByRename(
      `${listOf(TJDFT)}    notify: [ana@example.com]\n    muted: true\nwatchers:\n  - address: ana@example.com\n    delivery: digest\n`,
    );
    await waitFor(() => reloads.length === 2, "the reload after the live entry");

    expect(reloads[0]?.cases[0]?.policy.muted).toBe(true);
    expect(reloads[1]?.watchers.map((w) => w.delivery)).toEqual(["digest"]);
  });

  it("reports recovery after an invalid edit is undone", async () => {
    await start();

    writeFileSync(path, "cases: [");
    await waitFor(() => invalid.length === 1, "the invalid report");
    saveByRename(listOf(TJDFT));
    await waitFor(() => reloads.length === 1, "the recovery");

    expect(reloads[0]?.cases.map((c) => c.number)).toEqual([TJDFT]);
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
    });
    writeFileSync(path, listOf(TRT2));

    await live.reload("SIGHUP");

    expect(reloads.map((r) => r.cases.map((c) => c.number))).toEqual([[TRT2]]);
    expect(live.current().cases.map((c) => c.number)).toEqual([TRT2]);
  });

  it("does not drop every case on a file that is empty only for a moment", async () => {
    const w = await start();

    writeFileSync(path, "");
    const reload = w.reload("SIGHUP");
    await sleep(10);
    writeFileSync(path, listOf(TJDFT));
    await reload;

    expect(reloads).toEqual([]);
    expect(w.current().cases.map((c) => c.number)).toEqual([TJDFT]);
  });

  it("accepts an emptied watchlist that stays empty", async () => {
    const w = await start();

    writeFileSync(path, "cases: []\n");
    await w.reload("SIGHUP");

    expect(w.current().cases).toEqual([]);
    expect(reloads).toHaveLength(1);
  });

  it("ignores other files in the directory", async () => {
    await start();

    writeFileSync(join(dir, "other.yaml"), "not: a watchlist\n");
    await sleep(250);

    expect(reloads).toEqual([]);
    expect(invalid).toEqual([]);
  });

  it("stops reacting once closed", async () => {
    const w = await start();
    w.close();

    saveByRename(listOf(TJDFT, TRT2));
    await sleep(250);
    await w.reload("SIGHUP");

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
    });

    await live.reload("SIGHUP");

    expect(invalid[0]?.[0]?.message).toContain("does not exist");
    expect(live.current()).toBe(initial.watchlist);
  });
});
