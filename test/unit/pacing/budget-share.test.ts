import { describe, expect, it } from "vitest";
import { DataJudError } from "../../../src/datajud/errors.js";
import { DataJudHttpClient } from "../../../src/datajud/http-client.js";
import { BudgetShare } from "../../../src/pacing/budget-share.js";
import { FakeClock } from "../../fakes/fake-clock.js";

const WINDOW = 61_000;

describe("BudgetShare", () => {
  it("gives the guest the whole budget while the host is idle", () => {
    const clock = new FakeClock();
    const share = new BudgetShare({ limit: 120, windowMs: WINDOW, percent: 25, clock });
    for (let i = 0; i < 120; i++) expect(share.guestTake()).toBe(0);
  });

  it("bounds the guest to a quarter of the window while the host is active, and says when room comes back", async () => {
    const clock = new FakeClock();
    const share = new BudgetShare({ limit: 120, windowMs: WINDOW, percent: 25, clock });
    expect(share.guestLimit).toBe(30);
    const end = share.hostBegins();
    for (let i = 0; i < 30; i++) {
      expect(share.guestTake()).toBe(0);
      await clock.advance(100);
    }
    // 30 grants at 0, 100, ..., 2900 ms; now is 3000 ms: the oldest leaves the window at 61 000.
    expect(share.guestTake()).toBe(58_000);
    await clock.advance(58_000);
    expect(share.guestTake()).toBe(0);
    end();
  });

  it("opens the whole budget again one window after the host's last request ends", async () => {
    const clock = new FakeClock();
    const share = new BudgetShare({ limit: 4, windowMs: WINDOW, percent: 25, clock });
    share.hostBegins()();
    expect(share.guestTake()).toBe(0);
    expect(share.guestTake()).toBe(WINDOW);
    await clock.advance(WINDOW);
    expect(share.hostActive()).toBe(false);
    for (let i = 0; i < 4; i++) expect(share.guestTake()).toBe(0);
  });

  it("a share of 0 keeps the budget for the host while it runs", async () => {
    const clock = new FakeClock();
    const share = new BudgetShare({ limit: 120, windowMs: WINDOW, percent: 0, clock });
    const end = share.hostBegins();
    await clock.advance(5_000);
    end();
    expect(share.guestTake()).toBe(WINDOW);
  });

  it("refuses a percent outside 0..100", () => {
    const clock = new FakeClock();
    expect(() => new BudgetShare({ limit: 1, windowMs: 1, percent: 101, clock })).toThrow(
      RangeError,
    );
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

describe("DataJudHttpClient: the MCP tools' share during a sweep", () => {
  it("refuses a flood of MCP searches at once beyond the share, and the sweep's requests never queue behind them", async () => {
    const clock = new FakeClock();
    let sent = 0;
    const client = new DataJudHttpClient({
      baseUrl: "https://datajud.example",
      apiKey: "k",
      clock,
      random: () => 0,
      requestsPerMinute: 8,
      mcpSharePercent: 25,
      fetch: async () => {
        sent += 1;
        return answer();
      },
    });
    const sweep = client.counted();
    const mcp = client.guest();
    await sweep.search("tjsp", { query: { match_all: {} } });

    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () => mcp.search("tjsp", { query: { match_all: {} } })),
    );
    const refused = outcomes.filter((o) => o.status === "rejected");
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(2);
    expect(refused).toHaveLength(8);
    const reason = (refused[0] as PromiseRejectedResult).reason as DataJudError;
    expect(reason).toBeInstanceOf(DataJudError);
    expect(reason.kind).toBe("rate_limited");
    expect(reason.message).toMatch(/^DataJud budget reserved for the sweep: retry in 61 s/);
    expect(reason.retryAfterSeconds).toBe(61);
    expect(mcp.requestCount).toBe(2);

    // 1 sweep + 2 MCP grants of 8: the sweep's next five go without any wait on the clock.
    for (let i = 0; i < 5; i++) await sweep.search("tjsp", { query: { match_all: {} } });
    expect(clock.sleeps.filter((ms) => ms > 0)).toEqual([]);
    expect(sent).toBe(8);
  });

  it("gives the MCP tools the whole budget when no sweep runs", async () => {
    const clock = new FakeClock();
    const client = new DataJudHttpClient({
      baseUrl: "https://datajud.example",
      apiKey: "k",
      clock,
      random: () => 0,
      requestsPerMinute: 8,
      fetch: async () => answer(),
    });
    const mcp = client.guest();
    for (let i = 0; i < 8; i++) await mcp.search("tjsp", { query: { match_all: {} } });
    expect(mcp.requestCount).toBe(8);
  });
});
