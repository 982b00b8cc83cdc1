import { describe, expect, it } from "vitest";
import {
  type BreakerCause,
  modelBreaker,
  unansweredNote,
} from "../../../src/summarize/summarizer.js";

describe("the summarizer's breaker", () => {
  it("opens once, at the first unanswered or failed call: aborted, logged and told once", () => {
    const warnings: string[] = [];
    const told: BreakerCause[] = [];
    const breaker = modelBreaker(
      { warn: (_fields: unknown, line: string) => warnings.push(line) } as never,
      (cause) => told.push(cause),
    );
    expect(breaker.unavailable()).toBeNull();
    expect(breaker.signal.aborted).toBe(false);
    breaker.open("timeout", "no answer in 30 s");
    breaker.open("api_error", "529 overloaded");
    expect(breaker.signal.aborted).toBe(true);
    expect(breaker.unavailable()).toBe(
      "a model call went unanswered (no answer in 30 s); the rest of the sweep was summarized by the rules",
    );
    expect(warnings).toEqual([breaker.unavailable()]);
    expect(told).toEqual(["timeout"]);
  });

  it("says a failed call failed", () => {
    const breaker = modelBreaker({ warn: () => {} } as never);
    breaker.open("api_error", "529 overloaded");
    expect(breaker.unavailable()).toBe(
      "a model call failed (529 overloaded); the rest of the sweep was summarized by the rules",
    );
  });
});

describe("why the rules wrote an alert's summary", () => {
  it("is said to the lawyer only when the model failed, naming it and its limit", () => {
    expect(unansweredNote("claude-x", 45_000, "timeout")).toBe(
      "O modelo de IA claude-x não respondeu em 45 s; as regras escreveram este resumo.",
    );
    expect(unansweredNote("claude-x", 45_000, "model_unavailable")).toBe(
      "O modelo de IA claude-x não respondeu ou falhou antes nesta varredura; as regras escreveram este resumo.",
    );
    expect(unansweredNote("claude-x", 45_000, "api_error")).toBe(
      "O modelo de IA claude-x falhou (erro da API); as regras escreveram este resumo.",
    );
    expect(unansweredNote("claude-x", 45_000, "no_key")).toBeNull();
    expect(unansweredNote("claude-x", 45_000, "invalid_output")).toBeNull();
  });
});
