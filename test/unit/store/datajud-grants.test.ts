import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataJudError } from "../../../src/datajud/errors.js";
import { DataJudHttpClient } from "../../../src/datajud/http-client.js";
import type { SharedBudget } from "../../../src/pacing/budget-share.js";
import { closeDatabase, type Db, openDatabase } from "../../../src/store/database.js";
import { type GrantRule, takeDataJudGrant } from "../../../src/store/datajud-grants.js";
import { FakeClock } from "../../fakes/fake-clock.js";

/*
 * DataJud's budget shared by the processes on one database (issue 38): the daemon and `monitor
 * mcp` over stdio beside it, each with its own connection to the same file, as two processes have.
 */

const WINDOW = 61_000;
const RULE: GrantRule = { limit: 8, windowMs: WINDOW, toolLimit: 2 };

let dir: string;
let daemonDb: Db;
let mcpDb: Db;
let clock: FakeClock;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "monitor-datajud-grants-"));
  daemonDb = openDatabase(join(dir, "monitor.db"));
  mcpDb = openDatabase(join(dir, "monitor.db"));
  clock = new FakeClock({ now: Date.UTC(2025, 9, 6, 13) });
});

afterEach(() => {
  closeDatabase(mcpDb);
  closeDatabase(daemonDb);
  rmSync(dir, { recursive: true, force: true });
});

/** The ms `who` waits on `db` now (0: granted), and why. */
function take(db: Db, who: "sweep" | "tool", pid: number): string {
  const turn = takeDataJudGrant(db, who, clock.now(), RULE, pid);
  return "cause" in turn ? `${turn.cause} ${turn.waitMs}` : "0";
}

describe("takeDataJudGrant on two connections to one database", () => {
  it("gives the two processes one budget of `limit` a window between them", async () => {
    for (let i = 0; i < 5; i++) expect(take(daemonDb, "sweep", 1)).toBe("0");
    await clock.advance(1_000);
    for (let i = 0; i < 3; i++) expect(take(mcpDb, "sweep", 2)).toBe("0");

    // The eight of the window are taken; the oldest, at 0, leaves it at 61 s.
    expect(take(mcpDb, "sweep", 2)).toBe("budget 60000");
    expect(take(daemonDb, "sweep", 1)).toBe("budget 60000");
    await clock.advance(60_000);
    expect(take(mcpDb, "sweep", 2)).toBe("0");
  });

  it("bounds the tools of any process to their share while a sweep of another runs", async () => {
    expect(take(daemonDb, "sweep", 1)).toBe("0");
    await clock.advance(2_000);
    expect(take(mcpDb, "tool", 2)).toBe("0");
    expect(take(mcpDb, "tool", 2)).toBe("0");

    expect(take(mcpDb, "tool", 2)).toBe("share 61000");
    // The sweep keeps the rest of the window.
    for (let i = 0; i < 5; i++) expect(take(daemonDb, "sweep", 1)).toBe("0");
  });

  it("gives the tools the whole budget once no sweep has searched for a window", async () => {
    expect(take(daemonDb, "sweep", 1)).toBe("0");
    await clock.advance(WINDOW);
    for (let i = 0; i < 8; i++) expect(take(mcpDb, "tool", 2)).toBe("0");
    expect(take(mcpDb, "tool", 2)).toBe("budget 61000");
  });
});

describe("takeDataJudGrant when the clock went back", () => {
  it("no longer counts a grant taken more than a window ahead of now", async () => {
    const later = clock.now() + 3_600_000;
    const ahead = (db: Db) => takeDataJudGrant(db, "sweep", later, RULE, 1);
    for (let i = 0; i < 8; i++) expect(ahead(daemonDb)).toEqual({ waitMs: 0 });

    expect(take(mcpDb, "sweep", 2)).toBe("0");
  });
});

function answer(): Response {
  return new Response(
    JSON.stringify({
      took: 1,
      timed_out: false,
      _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
      hits: { total: { value: 0, relation: "eq" }, max_score: null, hits: [] },
    }),
    { status: 200, headers: { "content-type": "application/json" } },
  );
}

function budgetOn(db: Db, pid: number): SharedBudget {
  return {
    toolLimit: RULE.toolLimit,
    take: (who) => takeDataJudGrant(db, who, clock.now(), RULE, pid),
  };
}

/** A process's DataJud client, its own limiter of 8 a minute, sharing the budget through `db`. */
function clientOn(db: Db, pid: number, sent: { n: number }): DataJudHttpClient {
  return new DataJudHttpClient({
    baseUrl: "https://datajud.example",
    apiKey: "k",
    clock,
    random: () => 0,
    requestsPerMinute: RULE.limit,
    mcpSharePercent: 25,
    shared: budgetOn(db, pid),
    fetch: async () => {
      sent.n += 1;
      return answer();
    },
  });
}

describe("DataJudHttpClient with the budget shared through the database", () => {
  it("tells `monitor mcp`'s tools to retry in N s once the daemon's sweep runs and their share is used", async () => {
    const sent = { n: 0 };
    const daemon = clientOn(daemonDb, 1, sent);
    const mcp = clientOn(mcpDb, 2, sent);
    const body = { query: { match_all: {} } };
    await daemon.counted().search("tjsp", body);

    const tools = mcp.guest();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () => tools.search("tjsp", body)),
    );

    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(2);
    const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason] : []));
    expect(refused).toHaveLength(3);
    const reason = refused[0] as DataJudError;
    expect(reason).toBeInstanceOf(DataJudError);
    expect(reason.kind).toBe("rate_limited");
    expect(reason.retryAfterSeconds).toBe(61);
    expect(reason.message).toMatch(
      /^DataJud budget reserved for the sweep: retry in 61 s \(a sweep runs in another process on the monitor's database; the MCP tools may use 2 of 8 requests a minute while one runs/,
    );
    expect(sent.n).toBe(3);
  });

  it("makes `monitor mcp`'s tools wait for room, not refused, when no sweep runs and the daemon's tools used the window", async () => {
    const sent = { n: 0 };
    const daemon = clientOn(daemonDb, 1, sent);
    const mcp = clientOn(mcpDb, 2, sent);
    const body = { query: { match_all: {} } };
    for (let i = 0; i < 8; i++) await daemon.guest().search("tjsp", body);

    const searching = mcp.guest().search("tjsp", body);
    await clock.advance(60_000);
    expect(sent.n).toBe(8);
    await clock.advance(1_000);
    await searching;

    expect(sent.n).toBe(9);
  });

  it("makes the daemon's sweep wait for the window when the other process used the budget, never more than `limit` between them", async () => {
    const sent = { n: 0 };
    const daemon = clientOn(daemonDb, 1, sent);
    const mcp = clientOn(mcpDb, 2, sent);
    const body = { query: { match_all: {} } };
    // No sweep yet: `monitor mcp`'s tools may take the whole window.
    for (let i = 0; i < 8; i++) await mcp.guest().search("tjsp", body);

    const searching = daemon.counted().search("tjsp", body);
    await clock.advance(60_000);
    expect(sent.n).toBe(8);
    await clock.advance(1_000);
    await searching;

    expect(sent.n).toBe(9);
  });
});
