import { Anthropic, type ClientOptions } from "@anthropic-ai/sdk";
import { zodOutputFormat } from "@anthropic-ai/sdk/helpers/zod";
import type { TextBlockParam } from "@anthropic-ai/sdk/resources/messages/messages";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { z } from "zod";
import type { InstanceRecord, Movement } from "../datajud/instance-record.js";
import type { Logger } from "../log.js";
import type { Clock } from "../time/clock.js";
import { type FallbackReason, type LoopResult, runAgentLoop } from "./agent-loop.js";
import { CaseSummary, type MovementRef } from "./case-summary.js";
import type { Correction } from "./corrections.js";
import { contradictions, setAside, withRulesAttention } from "./fact-check.js";
import type { FieldChange } from "./field-changes.js";
import { citedCaseNumbers, freeTextFindings, setAsideForText } from "./free-text-check.js";
import type { HearingDate } from "./hearing-when.js";
import type { HiddenMovement } from "./hidden-movements.js";
import { createToolBridge, noToolsBridge, type ToolBridge } from "./mcp-tool-bridge.js";
import { buildUserMessage, SYSTEM_PROMPT } from "./prompt.js";
import { rulesSummary } from "./rules-summary.js";
import { type TokenBudget, type TokenUsage, ZERO_USAGE } from "./token-budget.js";

export type { FallbackReason } from "./agent-loop.js";
export type { TokenBudget, TokenUsage } from "./token-budget.js";

export interface SummarizeInput {
  cnjNumber: string;
  court: string;
  /** Current full records, one per instance. */
  records: InstanceRecord[];
  /** What this change brought, oldest first (late records apart). */
  newMovements: Movement[];
  /**
   * Movements first listed now, long after their own date and behind known ones
   * (policy/late-records.ts): context, never news.
   */
  lateMovements?: Movement[];
  /** The case's own data this change altered, per instance (summarize/field-changes.ts). */
  fieldChanges?: FieldChange[];
  /** e.g. ["new_movements", "class_changed"] */
  changeKinds: string[];
  /** Known movements the court corrected in this change (summarize/corrections.ts). */
  corrections?: Correction[];
  /** New hearings' own dates, by movement id, where a text says them (hearing-when.ts). */
  hearingDates?: Record<string, HearingDate>;
  /** Movements a secrecy level now hides, already put back in `records` (hidden-movements.ts). */
  hiddenMovements?: HiddenMovement[];
  previousSummary: CaseSummary | null;
  now: Date;
}

export interface SummarizeResult {
  summary: CaseSummary;
  /** The model that wrote the summary; null when the rules engine did. */
  model: string | null;
  /** Everything the attempt spent, a failed one included. */
  usage: TokenUsage;
  llmCalls: number;
  /** Null when the model's summary was used. */
  fallbackReason: FallbackReason | null;
}

export interface Summarizer {
  /** Never rejects except on abort: every failure yields the rules summary and its reason. */
  summarize(input: SummarizeInput, signal?: AbortSignal): Promise<SummarizeResult>;
  /**
   * Why the model is no longer asked (its breaker opened: a call went unanswered or failed), in
   * one line for the run report; null while it is.
   */
  unavailable(): string | null;
}

/** What opened a summarizer's breaker. */
export type BreakerCause = "timeout" | "api_error";

export interface SummarizerOptions {
  apiKey: string | null;
  /** Null: the SDK's default endpoint. */
  baseURL: string | null;
  model: string;
  /** AGENT_MAX_ITERATIONS: model calls per summary, default 6. */
  maxIterations: number;
  maxOutputTokens: number;
  budget: TokenBudget;
  /** The in-process MCP client whose tools Claude may call; null offers no tools. */
  mcpClient: Client | null;
  logger: Logger;
  /** SDK retries on 429/5xx/529 and connection errors, default 1 (an unanswered call: none). */
  maxRetries?: number;
  /** Times each model call's limit (`callTimeoutMs`): System.callTimer, a fake clock in tests. */
  timer: Pick<Clock, "sleep">;
  /** Per model call (summarizer.callTimeoutMs). */
  callTimeoutMs: number;
  /** Told once, when the breaker opens. */
  onBreakerOpen?: (cause: BreakerCause) => void;
  /** Per tool call, default 120 s (progress notifications reset it). */
  toolTimeoutMs?: number;
}

/**
 * What the model writes: the summary minus what we know better. Case number, court and instances
 * come from the records, generatedBy/generatedAt from us.
 */
export const ModelCaseSummary = CaseSummary.omit({
  cnjNumber: true,
  court: true,
  instances: true,
  generatedBy: true,
  generatedAt: true,
  setAside: true,
});
export type ModelCaseSummary = z.infer<typeof ModelCaseSummary>;

const OUTPUT_FORMAT = zodOutputFormat(ModelCaseSummary);

const SYSTEM: TextBlockParam[] = [
  { type: "text", text: SYSTEM_PROMPT, cache_control: { type: "ephemeral" } },
];

type Validation = { ok: true; summary: CaseSummary } | { ok: false; detail: string };

/**
 * The structured output re-checked: the schema again, every movement reference a real movement
 * (its fields copied from our data, so a misspelt name cannot reach the alert), and attention
 * consistent with its reasons.
 */
export function validateModelOutput(
  text: string,
  input: SummarizeInput,
  model: string,
): Validation {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, detail: "the answer is not JSON" };
  }
  const parsed = ModelCaseSummary.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      detail: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    };
  }
  const known = new Map<string, Movement>();
  for (const m of [...input.records.flatMap((r) => r.movements), ...input.newMovements])
    known.set(m.id, m);
  const unknownIds: string[] = [];
  const canonical = (ref: MovementRef): MovementRef => {
    const m = known.get(ref.movementId);
    if (m === undefined) {
      unknownIds.push(ref.movementId);
      return ref;
    }
    return { movementId: m.id, dateTime: m.dateTime, code: m.code, name: m.name };
  };
  const out = parsed.data;
  const attentionReasons = out.attentionReasons.map((r) => ({
    reason: r.reason,
    movements: r.movements.map(canonical),
  }));
  const latestRelevantMovement =
    out.latestRelevantMovement === null ? null : canonical(out.latestRelevantMovement);
  if (unknownIds.length > 0) {
    return { ok: false, detail: `unknown movement ids: ${unknownIds.slice(0, 5).join(", ")}` };
  }
  if (out.needsLawyerAttention !== attentionReasons.length > 0) {
    return { ok: false, detail: "needsLawyerAttention disagrees with attentionReasons" };
  }
  const summary = CaseSummary.safeParse({
    cnjNumber: input.cnjNumber,
    court: input.court,
    instances: input.records.map((r) => r.instance),
    statusCategory: out.statusCategory,
    status: out.status.trim(),
    needsLawyerAttention: out.needsLawyerAttention,
    attentionReasons,
    latestRelevantMovement,
    nextExpectedStep: out.nextExpectedStep,
    generatedBy: model,
    generatedAt: input.now.toISOString(),
  });
  return summary.success
    ? { ok: true, summary: summary.data }
    : {
        ok: false,
        detail: summary.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
      };
}

function sdkLogger(logger: Logger): NonNullable<ClientOptions["logger"]> {
  const at =
    (level: "error" | "warn" | "info" | "debug") =>
    (message: string, ...rest: unknown[]): void => {
      logger[level]({ sdk: rest.length > 0 ? rest : undefined }, message);
    };
  return { error: at("error"), warn: at("warn"), info: at("info"), debug: at("debug") };
}

/**
 * Whether an API failure says the model is unavailable to every case of the sweep (no answer at
 * all, a refused key, a rate limit or an outage, after the SDK's retry), not only to this one:
 * a 400 for one case's request (a prompt too long) leaves the model to the others.
 */
function modelDown(status: number | undefined): boolean {
  if (status === undefined) return true;
  return status === 401 || status === 403 || status === 429 || status >= 500;
}

function anthropicClient(options: SummarizerOptions): Anthropic | null {
  if (options.apiKey === null || options.apiKey === "") return null;
  return new Anthropic({
    apiKey: options.apiKey,
    ...(options.baseURL === null ? {} : { baseURL: options.baseURL }),
    maxRetries: options.maxRetries ?? 1,
    // A backstop only: the call's limit is `callTimeoutMs` on the clock (agent-loop.ts), an
    // abort the SDK does not retry; its own timeout would be retried.
    timeout: options.callTimeoutMs * 2,
    logger: sdkLogger(options.logger),
    logLevel: "warn",
  });
}

/**
 * One summarizer serves one sweep: once a call goes unanswered or fails, the rest of the sweep
 * is summarized by the rules, and calls in flight are given up, so no alert waits for a model
 * that is down (issue 29: ten changes once took an hour).
 */
export interface ModelBreaker {
  /** Aborted once the breaker opens. */
  signal: AbortSignal;
  /** Opens it, the first time only: logged and told to `onOpen`. */
  open(cause: BreakerCause, detail: string): void;
  /** Why it opened, one line for the run report; null while closed. */
  unavailable(): string | null;
}

export function modelBreaker(
  logger: Pick<Logger, "warn">,
  onOpen?: (cause: BreakerCause) => void,
): ModelBreaker {
  const breaker = new AbortController();
  let unavailable: string | null = null;
  return {
    signal: breaker.signal,
    open(cause, detail) {
      if (unavailable !== null) return;
      unavailable =
        cause === "timeout"
          ? `a model call went unanswered (${detail}); the rest of the sweep was summarized by the rules`
          : `a model call failed (${detail}); the rest of the sweep was summarized by the rules`;
      logger.warn({ cause, detail }, unavailable);
      breaker.abort();
      onOpen?.(cause);
    },
    unavailable: () => unavailable,
  };
}

/**
 * The MCP tools offered to the model, listed once and shared; a failed listing is tried again
 * next time, and this summary goes without tools rather than not at all.
 */
function toolBridgeOnce(
  mcp: Client | null,
  toolTimeoutMs: number | undefined,
  logger: Pick<Logger, "warn">,
): () => Promise<ToolBridge> {
  let bridge: Promise<ToolBridge> | null = null;
  return () => {
    if (mcp === null) return Promise.resolve(noToolsBridge());
    if (bridge === null) {
      bridge = createToolBridge(mcp, {
        ...(toolTimeoutMs === undefined ? {} : { timeoutMs: toolTimeoutMs }),
      }).catch((error: unknown) => {
        bridge = null;
        logger.warn({ err: error }, "could not list the MCP tools; summarizing without tools");
        return noToolsBridge();
      });
    }
    return bridge;
  };
}

/** Why the model's reading is missing, for the alert, when the model itself failed us. */
export function unansweredNote(
  model: string,
  callTimeoutMs: number,
  reason: FallbackReason,
): string | null {
  const named = `O modelo de IA ${model}`;
  switch (reason) {
    case "timeout":
      return `${named} não respondeu em ${callTimeoutMs / 1000} s; as regras escreveram este resumo.`;
    case "model_unavailable":
      return `${named} não respondeu ou falhou antes nesta varredura; as regras escreveram este resumo.`;
    case "api_error":
      return `${named} falhou (erro da API); as regras escreveram este resumo.`;
    default:
      return null;
  }
}

/** The rules' summary in the model's place, saying why when the model failed us. */
function rulesFallback(
  options: Pick<SummarizerOptions, "model" | "callTimeoutMs">,
  input: SummarizeInput,
  reason: FallbackReason,
  spent: { usage: TokenUsage; llmCalls: number },
): SummarizeResult {
  const summary = rulesSummary({
    cnjNumber: input.cnjNumber,
    court: input.court,
    records: input.records,
    newMovements: input.newMovements,
    ...(input.lateMovements === undefined ? {} : { lateMovements: input.lateMovements }),
    ...(input.fieldChanges === undefined ? {} : { fieldChanges: input.fieldChanges }),
    ...(input.corrections === undefined ? {} : { corrections: input.corrections }),
    ...(input.hearingDates === undefined ? {} : { hearingDates: input.hearingDates }),
    ...(input.hiddenMovements === undefined ? {} : { hiddenMovements: input.hiddenMovements }),
    now: input.now,
  });
  const why = unansweredNote(options.model, options.callTimeoutMs, reason);
  return {
    summary: why === null ? summary : { ...summary, setAside: why },
    model: null,
    usage: spent.usage,
    llmCalls: spent.llmCalls,
    fallbackReason: reason,
  };
}

/**
 * A valid model summary checked against the rules' facts and for text that is no summary of the
 * case: the rules' summary, the model's set aside and said why, when it fails either.
 */
function checkedAgainstRules(
  summary: CaseSummary,
  model: string,
  input: SummarizeInput,
  rules: SummarizeResult,
  log: (fields: Record<string, unknown>, message: string) => void,
): SummarizeResult | null {
  const movements = input.records.flatMap((r) => r.movements);
  const wrong = contradictions(summary, rules.summary, movements);
  if (wrong.length > 0) {
    log(
      { contradictions: wrong },
      "model summary contradicts the rules engine's facts; sending the rules summary",
    );
    return { ...rules, summary: setAside(rules.summary, model, wrong) };
  }
  const cited = citedCaseNumbers(JSON.stringify(input.records)).add(input.cnjNumber);
  const unsafe = freeTextFindings(summary, cited);
  if (unsafe.length > 0) {
    log(
      { findings: unsafe },
      "model summary's text is not a summary of the case; sending the rules summary",
    );
    return { ...rules, summary: setAsideForText(rules.summary, model, unsafe) };
  }
  return null;
}

export function createSummarizer(options: SummarizerOptions): Summarizer {
  const { logger } = options;
  const client = anthropicClient(options);
  const toolBridge = toolBridgeOnce(options.mcpClient, options.toolTimeoutMs, logger);
  const breaker = modelBreaker(logger, options.onBreakerOpen);
  const nothingSpent = { usage: ZERO_USAGE, llmCalls: 0 };

  return {
    unavailable: breaker.unavailable,
    async summarize(input, signal) {
      signal?.throwIfAborted();
      const where = { cnjNumber: input.cnjNumber, court: input.court };
      if (client === null) return rulesFallback(options, input, "no_key", nothingSpent);
      if (breaker.signal.aborted)
        return rulesFallback(options, input, "model_unavailable", nothingSpent);
      let result: LoopResult;
      try {
        const tools = await toolBridge();
        result = await runAgentLoop({
          client,
          model: options.model,
          system: SYSTEM,
          tools,
          firstMessage: buildUserMessage(input),
          maxIterations: options.maxIterations,
          maxOutputTokens: options.maxOutputTokens,
          budget: options.budget,
          outputFormat: OUTPUT_FORMAT,
          logger,
          timer: options.timer,
          callTimeoutMs: options.callTimeoutMs,
          breaker: breaker.signal,
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        // A bug of ours must not drop the change either.
        logger.error(
          { ...where, err: error },
          "summarizer failed unexpectedly; using the rules summary",
        );
        return rulesFallback(options, input, "api_error", nothingSpent);
      }
      const { outcome, usage, calls } = result;
      const spent = { usage, llmCalls: calls };
      if (outcome.kind === "failed") {
        if (
          outcome.reason === "timeout" ||
          (outcome.reason === "api_error" && modelDown(outcome.status))
        ) {
          breaker.open(outcome.reason === "timeout" ? "timeout" : "api_error", outcome.detail);
        }
        logger.warn(
          { ...where, reason: outcome.reason, detail: outcome.detail, llmCalls: calls },
          "using the rules summary",
        );
        return rulesFallback(options, input, outcome.reason, spent);
      }
      const model = outcome.model || options.model;
      const checked = validateModelOutput(outcome.text, input, model);
      if (!checked.ok) {
        logger.warn(
          { ...where, detail: checked.detail, llmCalls: calls },
          "model summary rejected; using the rules summary",
        );
        return rulesFallback(options, input, "invalid_output", spent);
      }
      const rules = rulesFallback(options, input, "set_aside", spent);
      const setAsideResult = checkedAgainstRules(checked.summary, model, input, rules, (f, m) =>
        logger.warn({ ...where, ...f, llmCalls: calls }, m),
      );
      if (setAsideResult !== null) return setAsideResult;
      logger.debug({ ...where, llmCalls: calls, usage, model }, "case summarized");
      const summary = withRulesAttention(checked.summary, rules.summary);
      return { summary, model, usage, llmCalls: calls, fallbackReason: null };
    },
  };
}
