import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { lastRun } from "../../store/runs.js";
import { tokensSpentSince } from "../../store/summaries.js";
import { startOfSaoPauloDay } from "../../summarize/token-budget.js";
import { dateNow } from "../../time/clock.js";
import { RateStatusOutput } from "../history-schemas.js";
import type { MonitorDeps } from "../monitor-deps.js";
import { historyTool } from "../tool-deps.js";
import { ToolError } from "../tool-errors.js";
import { answered } from "../tool-result.js";

function llmCallsOf(report: unknown): number | null {
  if (report === null || typeof report !== "object" || !("llmCalls" in report)) return null;
  return typeof report.llmCalls === "number" ? report.llmCalls : null;
}

function summarizerStatus(deps: MonitorDeps, notes: string[]): RateStatusOutput["summarizer"] {
  const { model, dailyTokenBudget, runTokenBudget } = deps.summarizer;
  const base = { model, dailyTokenBudget, runTokenBudget };
  let db: ReturnType<MonitorDeps["database"]>;
  try {
    db = deps.database();
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    notes.push(`Tokens spent are unknown: ${error.message}. ${error.hint}`);
    return { ...base, spentToday: null, remainingToday: null, lastSweep: null };
  }
  const spentToday = tokensSpentSince(db, startOfSaoPauloDay(dateNow(deps.clock)));
  const run = lastRun(db);
  return {
    ...base,
    spentToday,
    remainingToday: Math.max(0, dailyTokenBudget - spentToday),
    lastSweep:
      run === undefined
        ? null
        : {
            startedAt: run.startedAt,
            finishedAt: run.finishedAt,
            status: run.status,
            tokens: tokensSpentSince(db, run.startedAt, run.finishedAt ?? undefined),
            llmCalls: llmCallsOf(run.report),
          },
  };
}

export function registerRateStatus(server: McpServer, deps: MonitorDeps): void {
  server.registerTool(
    "rate_status",
    historyTool({
      title: "DataJud and model budgets",
      description:
        "What is left of the budgets this server works under: DataJud requests in the current 60-second window and how many more fit (CNJ's terms allow 120 a minute), how many requests go out at once (halved while DataJud shows overload) and how many are in flight, and the summarizer's tokens spent today (São Paulo time) and in the last sweep against the daily and per-sweep budgets. Costs no DataJud request.",
      input: {},
      output: RateStatusOutput,
    }),
    answered(() => rateStatus(deps)),
  );
}

/** What is left of DataJud's window and the summarizer's token budgets. */
export function rateStatus(deps: MonitorDeps): RateStatusOutput {
  const notes: string[] = [];
  const rate = deps.datajudRate();
  if (rate === null) {
    notes.push(
      "This server has no DataJud client (DATAJUD_API_KEY is not set): its DataJud tools answer a config error.",
    );
  } else {
    notes.push(
      "DataJud counts are this process's own; a daemon or monitor run-once in another process has its own window.",
    );
  }
  if (deps.summarizer.model === null) {
    notes.push("No ANTHROPIC_API_KEY: the rules engine writes every summary and spends no tokens.");
  }
  return {
    datajud:
      rate === null
        ? null
        : {
            windowSeconds: rate.windowMs / 1000,
            limit: rate.limit,
            used: rate.used,
            remaining: rate.remaining,
            waiting: rate.waiting,
            concurrency: rate.concurrency,
            maxConcurrency: rate.maxConcurrency,
            inFlight: rate.inFlight,
            requestsSentSinceStart: rate.requestsSent,
          },
    summarizer: summarizerStatus(deps, notes),
    notes,
  };
}
