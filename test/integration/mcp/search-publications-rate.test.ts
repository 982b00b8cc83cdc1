import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CaseReader } from "../../../src/datajud/case-reader.js";
import { DataJudHttpClient } from "../../../src/datajud/http-client.js";
import { DjenClient } from "../../../src/djen/http-client.js";
import { connectInProcess, type InProcessConnection } from "../../../src/mcp/in-process-client.js";
import { createDataJudServer } from "../../../src/mcp/server.js";
import { systemClock } from "../../../src/time/clock.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { type FakeDjen, startFakeDjen } from "../../fakes/fake-djen.js";
import { waitFor } from "../../support/wait-for.js";

/*
 * An MCP client asking search_publications faster than djen.requestsPerMinute (20) is told, not
 * left waiting in silence until its own request timeout (issue 35). The clock is fake and never
 * moves by itself: a call that waited on the limiter would hang, so every call returning is the
 * proof that none waited.
 */

const CASE = "0713383-43.2025.8.07.0006";

let fake: FakeDjen;
let clock: FakeClock;
let connection: InProcessConnection;

function reader(): CaseReader {
  // Never reached: these tests call DJEN's tool only.
  return new CaseReader(
    new DataJudHttpClient({
      baseUrl: "http://127.0.0.1:9",
      apiKey: "unused",
      clock: systemClock,
      random: Math.random,
    }),
  );
}

beforeEach(async () => {
  fake = await startFakeDjen();
  clock = new FakeClock();
  const djen = new DjenClient({ baseUrl: fake.url, clock, random: () => 0 });
  connection = await connectInProcess(createDataJudServer({ reader: reader(), djen }));
});

afterEach(async () => {
  await connection.close();
  await fake.close();
});

function errorOf(result: Record<string, unknown>): {
  kind: string;
  message: string;
  retryable: boolean;
  hint: string;
} {
  const content = (result.content ?? []) as Array<{ text: string }>;
  return JSON.parse(content[0]?.text ?? "{}").error;
}

describe("search_publications over the DJEN rate limit", () => {
  it("answers 30 searches in a minute at once: 20 from DJEN, 10 told to retry in so many seconds", async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 30; i++) {
      const result = await connection.client.callTool(
        { name: "search_publications", arguments: { cnjNumber: CASE } },
        undefined,
        { timeout: 5_000 },
      );
      if (result.isError !== true) {
        outcomes.push("answered");
        continue;
      }
      const error = errorOf(result);
      expect(error).toMatchObject({ kind: "rate_limited", retryable: true });
      // The 20 grants were all at the clock's time: the 21st fits 61 s later (60 s + margin).
      expect(error.message).toMatch(
        /^DJEN rate limit: retry in 61 s \(djen\.requestsPerMinute: 20;/u,
      );
      expect(error.hint).toContain("djen.requestsPerMinute");
      outcomes.push("told");
    }

    expect(outcomes.filter((o) => o === "answered")).toHaveLength(20);
    expect(outcomes.slice(20)).toEqual(Array(10).fill("told"));
    expect(fake.requests).toHaveLength(20);
    expect(clock.sleeps).toEqual([]);
  });

  it("tells a caller that asked for progress how long it waits, and answers once the minute is over", async () => {
    for (let i = 0; i < 20; i++) {
      await connection.client.callTool({
        name: "search_publications",
        arguments: { cnjNumber: CASE },
      });
    }
    const notes: Array<{ message?: string | undefined }> = [];
    const call = connection.client.callTool(
      { name: "search_publications", arguments: { cnjNumber: CASE } },
      undefined,
      { onprogress: (progress) => notes.push(progress), timeout: 5_000 },
    );
    await waitFor(() => notes.length > 0, "the rate limit's progress note");

    expect(notes[0]?.message).toBe(
      "waiting on the DJEN rate limit (djen.requestsPerMinute: 20): next request in 61 s",
    );
    await clock.advance(61_000);
    const result = await call;
    expect(result.isError).not.toBe(true);
    expect(fake.requests).toHaveLength(21);
  });

  it("costs an OAB page seven requests: told when fewer than seven fit", async () => {
    for (let i = 0; i < 15; i++) {
      await connection.client.callTool({
        name: "search_publications",
        arguments: { cnjNumber: CASE },
      });
    }
    const result = await connection.client.callTool(
      {
        name: "search_publications",
        arguments: { oab: "123456/SP", from: "2026-03-02", to: "2026-03-06" },
      },
      undefined,
      { timeout: 5_000 },
    );

    expect(errorOf(result).message).toMatch(/^DJEN rate limit: retry in 61 s .*needs 7 requests/u);
    expect(fake.requests).toHaveLength(15);
  });
});
