import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/log.js";
import { type AgentLoopOptions, runAgentLoop } from "../../../src/summarize/agent-loop.js";
import type { ToolBridge } from "../../../src/summarize/mcp-tool-bridge.js";
import { createTokenBudget, unlimitedTokenBudget } from "../../../src/summarize/token-budget.js";
import { systemClock } from "../../../src/time/clock.js";
import {
  errorReply,
  FAKE_MODEL,
  type FakeAnthropic,
  finalReply,
  startFakeAnthropic,
  stopReply,
  toolUseReply,
} from "../../fakes/fake-anthropic.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { waitFor } from "../../support/wait-for.js";

/*
 * The tool loop on its own (summarizer.test.ts covers it inside the summarizer): every exit is
 * an outcome, never a rejection but for an abort; the budget is checked before each call; the
 * last allowed call cannot call tools.
 */

let fake: FakeAnthropic;

beforeAll(async () => {
  fake = await startFakeAnthropic();
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.reset();
});

/** Answers each tool call with its name, and counts the rounds. */
function echoTools(): ToolBridge & { rounds: number } {
  const bridge = {
    rounds: 0,
    tools: [{ name: "get_case", input_schema: { type: "object" as const } }],
    answer: async (calls: readonly { id: string; name: string }[]) => {
      bridge.rounds++;
      return calls.map((c) => ({
        type: "tool_result" as const,
        tool_use_id: c.id,
        content: c.name,
      }));
    },
  };
  return bridge;
}

function options(overrides: Partial<AgentLoopOptions> = {}): AgentLoopOptions {
  return {
    client: new Anthropic({ apiKey: fake.apiKey, baseURL: fake.url, maxRetries: 0 }),
    model: FAKE_MODEL,
    system: [{ type: "text", text: "summarize" }],
    tools: echoTools(),
    firstMessage: "the case",
    maxIterations: 3,
    maxOutputTokens: 1000,
    budget: unlimitedTokenBudget(),
    outputFormat: { type: "json_schema", schema: { type: "object" } },
    logger: silentLogger(),
    timer: systemClock,
    callTimeoutMs: 5_000,
    ...overrides,
  };
}

describe("runAgentLoop", () => {
  it("answers tool rounds, counts a pause as an iteration, and takes the final answer", async () => {
    const tools = echoTools();
    fake.enqueue(
      toolUseReply([{ name: "get_case", input: {} }]),
      stopReply("pause_turn"),
      finalReply({ ok: true }),
    );

    const result = await runAgentLoop(options({ tools }));

    expect(result.outcome).toEqual({ kind: "final", text: '{"ok":true}', model: FAKE_MODEL });
    expect(result.calls).toBe(3);
    expect(tools.rounds).toBe(1);
  });

  it("forbids tools on the last allowed call and gives up after it without an answer", async () => {
    fake.enqueue(
      toolUseReply([{ name: "get_case", input: {} }]),
      toolUseReply([{ name: "get_case", input: {} }]),
    );

    const result = await runAgentLoop(options({ maxIterations: 2, tools: echoTools() }));

    expect(fake.requests.map((r) => r.body.tool_choice)).toEqual([undefined, { type: "none" }]);
    expect(result.outcome).toMatchObject({ kind: "failed", reason: "no_convergence" });
  });

  it("checks the budget before sending, and turns an API failure into an outcome", async () => {
    const tight = createTokenBudget({ runLimit: 10, dayLimit: 10, spentToday: 0 });
    fake.enqueue(errorReply(400, "bad request"));

    const overBudget = await runAgentLoop(options({ budget: tight }));
    const failed = await runAgentLoop(options());

    expect(overBudget.outcome).toMatchObject({ kind: "failed", reason: "budget" });
    expect(fake.requests).toHaveLength(1);
    expect(failed.outcome).toMatchObject({ kind: "failed", reason: "api_error" });
    expect(failed.calls).toBe(0);
  });

  it("ends a summary whose tool call hangs once the summary's limit passes, as a timeout", async () => {
    const clock = new FakeClock();
    let asked = 0;
    const hanging: ToolBridge = {
      tools: [{ name: "get_case", input_schema: { type: "object" as const } }],
      // DataJud not answering: the tool call waits until it is given up.
      answer: (_calls, signal) =>
        new Promise((_, reject) => {
          asked++;
          signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
        }),
    };
    fake.enqueue(toolUseReply([{ name: "get_case", input: {} }]));

    const pending = runAgentLoop(options({ tools: hanging, timer: clock, callTimeoutMs: 30_000 }));
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await waitFor(() => asked === 1, "the tool call");
    await clock.advance(59_999);
    expect(settled).toBe(false);
    expect(fake.requests).toHaveLength(1);
    await clock.advance(1);
    const result = await pending;

    expect(result.outcome).toEqual({
      kind: "failed",
      reason: "timeout",
      detail: "no summary in 60 s (a tool call was still running)",
    });
    expect(result.calls).toBe(1);
  });
});
