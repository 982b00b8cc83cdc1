import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readiness } from "../../../src/monitor/readiness.js";
import { closeDatabase, type Db, openDatabase } from "../../../src/store/database.js";
import { keepGoodWatchlist, markWatchlistRefused } from "../../../src/store/last-good-watchlist.js";
import { acquireLease } from "../../../src/store/lease.js";
import { FakeClock } from "../../fakes/fake-clock.js";

const NOW = Date.parse("2026-03-02T10:00:00.000Z");

let dir: string;
let db: Db;
let clock: FakeClock;
let watchlistErrors: number;
/** Pids of this test's host that still exist. */
let alive: Set<number>;

function checks() {
  return readiness({
    db,
    clock,
    watchlistErrors: () => watchlistErrors,
    host: { hostname: () => "host", isAlive: (pid) => alive.has(pid) },
  });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "readiness-"));
  db = openDatabase(join(dir, "monitor.db"));
  clock = new FakeClock({ now: NOW });
  watchlistErrors = 0;
  alive = new Set([1]);
});

afterEach(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

describe("readiness", () => {
  it("is ready with the database answering, the watchlist in force and no lease, or a live one", () => {
    const idle = checks();
    acquireLease(db, { holder: "1@host:aa", now: NOW, ttlMs: 600_000 });
    const sweeping = checks();

    for (const result of [idle, sweeping]) {
      expect(result).toEqual([
        { name: "database", ok: true, problem: null },
        { name: "watchlist", ok: true, problem: null },
        { name: "sweep", ok: true, problem: null },
      ]);
    }
  });

  it("is not ready when a sweep's lease ran out without being renewed or released", async () => {
    acquireLease(db, { holder: "1@host:aa", now: NOW, ttlMs: 600_000 });

    await clock.advance(600_001);
    const sweep = checks().find((c) => c.name === "sweep");

    expect(sweep?.ok).toBe(false);
    expect(sweep?.problem).toContain("a sweep's lease expired at 2026-03-02T10:10:00.000Z");
  });

  it("stays ready when the expired lease was left by a process of this host that is gone", async () => {
    acquireLease(db, { holder: "1@host:aa", now: NOW, ttlMs: 600_000 });
    alive.delete(1);

    await clock.advance(600_001);
    const sweep = checks().find((c) => c.name === "sweep");

    expect(sweep).toEqual({ name: "sweep", ok: true, problem: null });
  });

  it("is not ready when the expired lease's holder lives on another host, which cannot be judged", async () => {
    acquireLease(db, { holder: "1@other-host:aa", now: NOW, ttlMs: 600_000 });
    alive.delete(1);

    await clock.advance(600_001);

    expect(checks().find((c) => c.name === "sweep")?.ok).toBe(false);
  });

  it("is not ready while the watchlist file's last edit is invalid, and says the last valid one is in force", () => {
    watchlistErrors = 2;

    const watchlist = checks().find((c) => c.name === "watchlist");

    expect(watchlist).toEqual({
      name: "watchlist",
      ok: false,
      problem:
        "the watchlist file has 2 errors; the last valid watchlist stays in force (`datajud-monitor status` and `validate` name the errors)",
    });
  });

  it("says since when and which last good copy the daemon runs on, when the database keeps one", () => {
    watchlistErrors = 1;
    keepGoodWatchlist(db, {
      path: "/srv/watchlist.yaml",
      text: "cases: []\n",
      acceptedAt: "2026-03-01T10:00:00.000Z",
    });
    markWatchlistRefused(db, { at: "2026-03-02T09:00:00.000Z", errors: ["/srv/w.yaml:3:5 bad"] });

    const watchlist = checks().find((c) => c.name === "watchlist");

    expect(watchlist?.problem).toBe(
      "the watchlist file has an error since 2026-03-02T09:00:00.000Z; the daemon runs on its last good copy, accepted at 2026-03-01T10:00:00.000Z (`datajud-monitor status` and `validate` name the errors)",
    );
    expect(watchlist?.problem).not.toContain("bad");
  });

  it("is not ready when the database does not answer, and does not guess about sweeps", () => {
    closeDatabase(db);

    const result = checks();

    expect(result.map((c) => [c.name, c.ok])).toEqual([
      ["database", false],
      ["watchlist", true],
      ["sweep", false],
    ]);
    expect(result[0]?.problem).toBe("the database does not answer: the database is closed");
    expect(result[2]?.problem).toBe("not known: the database does not answer");
  });
});
