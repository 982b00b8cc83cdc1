import type { Anthropic } from "@anthropic-ai/sdk";
import type {
  ContentBlock,
  ContentBlockParam,
  JSONOutputFormat,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  TextBlockParam,
  ToolUseBlock,
  Usage,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type { Logger } from "../log.js";
import type { Clock } from "../time/clock.js";
import type { ToolBridge } from "./mcp-tool-bridge.js";
import { addUsage, type TokenBudget, type TokenUsage, ZERO_USAGE } from "./token-budget.js";

/** Why a summary came from the rules engine instead of the model. */
export type FallbackReason =
  | "no_key"
  | "budget"
  | "api_error"
  | "refusal"
  | "max_tokens"
  | "invalid_output"
  | "no_convergence"
  /** A model call went unanswered for `callTimeoutMs`. */
  | "timeout"
  /**
   * An earlier call of this sweep went unanswered or failed (the summarizer's breaker): the rest
   * of the sweep is summarized by the rules without asking the model.
   */
  | "model_unavailable"
  /** The model's summary contradicted the rules engine's facts (summarize/fact-check.ts). */
  | "set_aside";

export type LoopEnd =
  | { kind: "final"; text: string; model: string }
  | {
      kind: "failed";
      reason: Exclude<FallbackReason, "no_key" | "invalid_output" | "set_aside">;
      detail: string;
      /** An api_error's HTTP status; absent when none came (a refused connection, DNS). */
      status?: number;
    };

export interface LoopResult {
  outcome: LoopEnd;
  usage: TokenUsage;
  calls: number;
}

export interface AgentLoopOptions {
  client: Anthropic;
  model: string;
  system: TextBlockParam[];
  tools: ToolBridge;
  firstMessage: string;
  /** Model calls, pause_turn continuations and tool rounds included. */
  maxIterations: number;
  maxOutputTokens: number;
  budget: TokenBudget;
  /** Structured output for the final answer. */
  outputFormat: JSONOutputFormat;
  logger: Logger;
  /** Times each call: its `sleep` is the call's limit (System.callTimer; a fake clock in tests). */
  timer: Pick<Clock, "sleep">;
  /** Most milliseconds one call may go unanswered; then the loop ends with "timeout". */
  callTimeoutMs: number;
  /** The caller's stop (a sweep's end): rejects the loop. */
  signal?: AbortSignal;
  /**
   * The summarizer's breaker: once another summary's call failed, a call in flight is given up
   * and the loop ends with "model_unavailable" instead of waiting out its own timeout.
   */
  breaker?: AbortSignal;
}

export function usageOf(usage: Usage): TokenUsage {
  return {
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    cacheReadTokens: usage.cache_read_input_tokens ?? 0,
    cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
  };
}

/** A rough upper bound the budget can check before sending: 4 characters a token, plus output. */
export function estimateTokens(request: MessageCreateParamsNonStreaming): number {
  return Math.ceil(JSON.stringify(request).length / 4) + request.max_tokens;
}

/** The assistant's blocks sent back as they came; we use no server tools, so these are all. */
function toParam(block: ContentBlock): ContentBlockParam | null {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: block.input };
    case "thinking":
      return { type: "thinking", thinking: block.thinking, signature: block.signature };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: block.data };
    default:
      return null;
  }
}

function assistantTurn(message: Message): MessageParam {
  const content = message.content.map(toParam).filter((b): b is ContentBlockParam => b !== null);
  return { role: "assistant", content };
}

function finalText(message: Message): string {
  return message.content
    .map((block) => (block.type === "text" ? block.text : ""))
    .join("")
    .trim();
}

type CallEnd =
  | { kind: "answered"; message: Message }
  | { kind: "error"; error: unknown }
  | { kind: "timeout" }
  | { kind: "breaker" }
  | { kind: "stopped"; reason: unknown };

/**
 * A summary's whole loop, tool rounds included, may take this many calls' limits: one answer
 * is the usual summary (the first message carries the records), a tool round or two fit, and a
 * model or a tool that keeps answering slowly cannot hold the case's alert for six limits.
 */
export const SUMMARY_LIMIT_CALLS = 2;

/** A limit on the timer: aborts `signal` once `ms` pass, unless stopped first. */
function startLimit(
  timer: Pick<Clock, "sleep">,
  ms: number,
): { signal: AbortSignal; stop: () => void } {
  const limit = new AbortController();
  const stopped = new AbortController();
  timer.sleep(ms, stopped.signal).then(
    () => limit.abort(new Error(`no answer in ${ms} ms`)),
    () => undefined,
  );
  return { signal: limit.signal, stop: () => stopped.abort() };
}

/**
 * One Messages API call under its limit: given up when `callTimeoutMs` passes on the timer or
 * the summary's own limit runs out (an abort, which the SDK does not retry), when the breaker
 * opens, or when the caller stops.
 */
async function timedCall(
  options: AgentLoopOptions,
  request: MessageCreateParamsNonStreaming,
  summaryLimit: AbortSignal,
): Promise<CallEnd> {
  const { signal, breaker } = options;
  const limit = startLimit(options.timer, options.callTimeoutMs);
  const signals = [
    limit.signal,
    summaryLimit,
    ...(signal ? [signal] : []),
    ...(breaker ? [breaker] : []),
  ];
  try {
    const message = await options.client.messages.create(request, {
      signal: AbortSignal.any(signals),
    });
    return { kind: "answered", message };
  } catch (error) {
    if (signal?.aborted) return { kind: "stopped", reason: signal.reason ?? error };
    if (limit.signal.aborted || summaryLimit.aborted) return { kind: "timeout" };
    if (breaker?.aborted) return { kind: "breaker" };
    return { kind: "error", error };
  } finally {
    limit.stop();
  }
}

function describeError(error: unknown): { detail: string; status: number | undefined } {
  const status =
    error !== null &&
    typeof error === "object" &&
    "status" in error &&
    typeof error.status === "number"
      ? error.status
      : undefined;
  const name = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  return { detail: `${name}: ${message}`, status };
}

/**
 * The tool loop, owned here rather than by an SDK runner so every exit is a defined outcome:
 * at most `maxIterations` calls, each checked against the budget first; a failure after the
 * SDK's own retries is an outcome too, never a rejection (only an abort rejects).
 */
export async function runAgentLoop(options: AgentLoopOptions): Promise<LoopResult> {
  const limit = startLimit(options.timer, options.callTimeoutMs * SUMMARY_LIMIT_CALLS);
  try {
    return await loop(options, limit.signal);
  } finally {
    limit.stop();
  }
}

/** Why the loop ended without a final answer; `status`: an api_error's HTTP status, when one came. */
interface Failure {
  reason: Exclude<FallbackReason, "no_key" | "invalid_output" | "set_aside">;
  detail: string;
  status?: number;
}

async function loop(options: AgentLoopOptions, summaryLimit: AbortSignal): Promise<LoopResult> {
  const messages: MessageParam[] = [{ role: "user", content: options.firstMessage }];
  let usage = ZERO_USAGE;
  let calls = 0;
  const failed = (failure: Failure): LoopResult => ({
    outcome: { kind: "failed", ...failure },
    usage,
    calls,
  });

  const maxIterations = Math.max(1, options.maxIterations);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    const request = requestOf(options, messages, iteration === maxIterations - 1);
    if (options.breaker?.aborted) {
      return failed({ reason: "model_unavailable", detail: "the breaker is open" });
    }
    const estimate = estimateTokens(request);
    // Held while the call is in flight: other cases' summaries run at the same time.
    if (!options.budget.reserve(estimate)) {
      return failed({
        reason: "budget",
        detail: `estimated ${estimate} tokens exceed the remaining budget`,
      });
    }
    const call = await timedCall(options, request, summaryLimit).finally(() =>
      options.budget.release(estimate),
    );
    if (call.kind !== "answered") return failed(unanswered(call, options, summaryLimit, iteration));
    const { message } = call;
    calls++;
    const callUsage = usageOf(message.usage);
    usage = addUsage(usage, callUsage);
    options.budget.spend(callUsage);

    const step = nextStep(message);
    if (step.kind === "final") {
      return {
        outcome: { kind: "final", text: finalText(message), model: message.model },
        usage,
        calls,
      };
    }
    if (step.kind === "failed") return failed(step.failure);
    // Sent back as is: after pause_turn the model resumes the same turn (it counts as an
    // iteration); after tool_use it reads the tools' answers.
    messages.push(assistantTurn(message));
    if (step.kind === "tools") {
      const answers = await toolAnswers(options, step.calls, summaryLimit, iteration);
      if ("reason" in answers) return failed(answers);
      messages.push({ role: "user", content: answers.results });
    }
  }
  return failed({
    reason: "no_convergence",
    detail: `no final answer after ${maxIterations} calls`,
  });
}

/** The next call: the conversation so far; the last allowed call must answer without a tool. */
export function requestOf(
  options: Pick<
    AgentLoopOptions,
    "model" | "maxOutputTokens" | "system" | "outputFormat" | "tools"
  >,
  messages: MessageParam[],
  last: boolean,
): MessageCreateParamsNonStreaming {
  const hasTools = options.tools.tools.length > 0;
  return {
    model: options.model,
    max_tokens: options.maxOutputTokens,
    system: options.system,
    messages,
    output_config: { format: options.outputFormat },
    ...(hasTools ? { tools: options.tools.tools } : {}),
    // The last allowed call must answer: tools stay listed (the cached prefix is unchanged)
    // but cannot be called.
    ...(hasTools && last ? { tool_choice: { type: "none" as const } } : {}),
  };
}

/** How a call that got no answer ends the loop; the caller's stop rejects it. */
function unanswered(
  call: Exclude<CallEnd, { kind: "answered" }>,
  options: AgentLoopOptions,
  summaryLimit: AbortSignal,
  iteration: number,
): Failure {
  switch (call.kind) {
    case "stopped":
      throw call.reason;
    case "timeout": {
      const detail = summaryLimit.aborted
        ? `no summary in ${(options.callTimeoutMs * SUMMARY_LIMIT_CALLS) / 1000} s`
        : `no answer in ${options.callTimeoutMs / 1000} s`;
      options.logger.warn({ detail, iteration }, "Claude call went unanswered");
      return { reason: "timeout", detail };
    }
    case "breaker":
      return { reason: "model_unavailable", detail: "the breaker opened" };
    case "error": {
      const { detail, status } = describeError(call.error);
      options.logger.warn({ status, detail, iteration }, "Claude call failed after retries");
      return status === undefined
        ? { reason: "api_error", detail }
        : { reason: "api_error", detail, status };
    }
  }
}

type Step =
  | { kind: "final" }
  | { kind: "failed"; failure: Failure }
  /** pause_turn: sent back, the model goes on with the same turn. */
  | { kind: "resume" }
  | { kind: "tools"; calls: ToolUseBlock[] };

/** What an answer asks of the loop, by why the model stopped. */
export function nextStep(message: Pick<Message, "stop_reason" | "content">): Step {
  switch (message.stop_reason) {
    case "end_turn":
    case "stop_sequence":
      return { kind: "final" };
    case "refusal":
      return {
        kind: "failed",
        failure: { reason: "refusal", detail: "the model declined to answer" },
      };
    case "max_tokens":
    case "model_context_window_exceeded":
      return {
        kind: "failed",
        failure: { reason: "max_tokens", detail: `stopped at ${message.stop_reason}` },
      };
    case "pause_turn":
      return { kind: "resume" };
    case "tool_use": {
      const calls = message.content.filter((b): b is ToolUseBlock => b.type === "tool_use");
      return calls.length === 0 ? { kind: "final" } : { kind: "tools", calls };
    }
    default:
      return {
        kind: "failed",
        failure: {
          reason: "no_convergence",
          detail: `unexpected stop_reason ${String(message.stop_reason)}`,
        },
      };
  }
}

/**
 * All calls of a turn answered in one user turn, concurrently, within the summary's limit: a
 * tool that hangs (DataJud not answering) ends the summary, not the sweep.
 */
async function toolAnswers(
  options: AgentLoopOptions,
  toolCalls: ToolUseBlock[],
  summaryLimit: AbortSignal,
  iteration: number,
): Promise<{ results: Awaited<ReturnType<ToolBridge["answer"]>> } | Failure> {
  const { signal } = options;
  try {
    return {
      results: await options.tools.answer(
        toolCalls,
        AbortSignal.any([summaryLimit, ...(signal ? [signal] : [])]),
      ),
    };
  } catch (error) {
    if (signal?.aborted || !summaryLimit.aborted) throw error;
    const detail = `no summary in ${(options.callTimeoutMs * SUMMARY_LIMIT_CALLS) / 1000} s (a tool call was still running)`;
    options.logger.warn({ detail, iteration }, "summary ran out of time");
    return { reason: "timeout", detail };
  }
}
