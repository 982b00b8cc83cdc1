import type { Message, Tool } from "@anthropic-ai/sdk/resources/messages/messages";
import { describe, expect, it } from "vitest";
import { nextStep, requestOf } from "../../../src/summarize/agent-loop.js";

const TOOL: Tool = { name: "get_case", input_schema: { type: "object" } };
const FORMAT = { type: "json_schema" as const, schema: { type: "object" } };

function options(tools: Tool[]) {
  return {
    model: "claude-test",
    maxOutputTokens: 1000,
    system: [{ type: "text" as const, text: "system" }],
    outputFormat: FORMAT,
    tools: { tools, answer: async () => [] },
  };
}

describe("requestOf", () => {
  const messages = [{ role: "user" as const, content: "hi" }];

  it("lists the tools, and on the last allowed call forbids calling them", () => {
    expect(requestOf(options([TOOL]), messages, false)).toEqual({
      model: "claude-test",
      max_tokens: 1000,
      system: [{ type: "text", text: "system" }],
      messages,
      output_config: { format: FORMAT },
      tools: [TOOL],
    });
    expect(requestOf(options([TOOL]), messages, true)).toMatchObject({
      tools: [TOOL],
      tool_choice: { type: "none" },
    });
  });

  it("without tools sends neither tools nor a tool choice", () => {
    const request = requestOf(options([]), messages, true);

    expect(request).not.toHaveProperty("tools");
    expect(request).not.toHaveProperty("tool_choice");
  });
});

function answer(stop: Message["stop_reason"], content: Message["content"] = []) {
  return { stop_reason: stop, content };
}

describe("nextStep", () => {
  it("an end of turn or a stop sequence is the final answer", () => {
    expect(nextStep(answer("end_turn"))).toEqual({ kind: "final" });
    expect(nextStep(answer("stop_sequence"))).toEqual({ kind: "final" });
  });

  it("a refusal, a cut answer and an unknown stop end the loop, each saying why", () => {
    expect(nextStep(answer("refusal"))).toEqual({
      kind: "failed",
      failure: { reason: "refusal", detail: "the model declined to answer" },
    });
    expect(nextStep(answer("model_context_window_exceeded"))).toEqual({
      kind: "failed",
      failure: { reason: "max_tokens", detail: "stopped at model_context_window_exceeded" },
    });
    expect(nextStep(answer(null))).toEqual({
      kind: "failed",
      failure: { reason: "no_convergence", detail: "unexpected stop_reason null" },
    });
  });

  it("pause_turn resumes; tool_use asks the tools it names, or is final when it names none", () => {
    const call = {
      type: "tool_use" as const,
      id: "t1",
      name: "get_case",
      input: {},
      caller: { type: "direct" as const },
    };

    expect(nextStep(answer("pause_turn"))).toEqual({ kind: "resume" });
    expect(
      nextStep(answer("tool_use", [{ type: "text", text: "a ler", citations: null }, call])),
    ).toEqual({ kind: "tools", calls: [call] });
    expect(
      nextStep(answer("tool_use", [{ type: "text", text: "pronto", citations: null }])),
    ).toEqual({ kind: "final" });
  });
});
