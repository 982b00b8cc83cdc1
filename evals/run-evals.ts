import { readdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { z } from "zod";
import { formatTable } from "../src/cli/format-table.js";
import { loadConfig } from "../src/config/load-config.js";
import { parseDataJudDate, wallClockInstant } from "../src/datajud/dates.js";
import type { InstanceRecord, Movement } from "../src/datajud/instance-record.js";
import { normalizeInstanceRecord } from "../src/datajud/normalize.js";
import { createLogger, type Logger } from "../src/log.js";
import { CaseSummary, type MovementRef } from "../src/summarize/case-summary.js";
import { saoPauloToday } from "../src/summarize/prompt.js";
import { rulesSummary } from "../src/summarize/rules-summary.js";
import {
  createSummarizer,
  type FallbackReason,
  type SummarizeInput,
  type Summarizer,
} from "../src/summarize/summarizer.js";
import {
  addUsage,
  createTokenBudget,
  type TokenUsage,
  ZERO_USAGE,
} from "../src/summarize/token-budget.js";
import { systemClock } from "../src/time/clock.js";
import {
  type CaseGrade,
  describeRequirement,
  EvalExpectation,
  type EvalScore,
  gradeSummary,
  matchesRequirement,
  scoreGrades,
} from "./grader.js";

/**
 * The eval runner. `--rules` grades the deterministic rules engine offline (CI); without it the
 * real summarizer (Claude) answers every case, graded the same way. Both read the same
 * DataJud-shaped cases and the same fixed "today", so a result is reproducible.
 */

/** Noon in São Paulo: every recency judgement in the cases is made against this day. */
export const EVAL_NOW = new Date("2026-12-02T12:00:00-03:00");

export const EVAL_CASES_DIR = fileURLToPath(new URL("./cases/", import.meta.url));

/** Picks one movement of the raw hits by the values DataJud gave it. */
const NewMovementSelector = z.strictObject({
  /** Needed only when several instances hold a movement with the same code and date. */
  grau: z.string().min(1).optional(),
  codigo: z.number().int(),
  /** As in the hit (ISO or compact); compared after normalization. */
  dataHora: z.union([z.string(), z.number()]),
});

export const EvalCaseFile = z.strictObject({
  description: z.string().min(1),
  /** The court alias the records were read from (the STJ record of a TJ number: "stj"). */
  court: z.string().min(1),
  /** Defaults to ["new_movements"] when the change brought movements. */
  changeKinds: z.array(z.string().min(1)).optional(),
  newMovements: z.array(NewMovementSelector),
  previousSummary: CaseSummary.nullable().optional(),
  expected: EvalExpectation,
  /** DataJud `_search` hits, one per instance, `_source` as the API returns it. */
  hits: z
    .array(
      z.strictObject({
        _id: z.string().min(1),
        _source: z.record(z.string(), z.unknown()),
      }),
    )
    .min(1),
});
export type EvalCaseFile = z.infer<typeof EvalCaseFile>;

export interface EvalCase {
  /** The file name without `.json`. */
  id: string;
  description: string;
  input: SummarizeInput;
  expected: EvalExpectation;
}

export class EvalCaseError extends Error {
  constructor(
    readonly caseId: string,
    message: string,
  ) {
    super(`${caseId}: ${message}`);
    this.name = "EvalCaseError";
  }
}

function rawMovementCount(source: Record<string, unknown>): number {
  const raw = source.movimentos;
  return Array.isArray(raw) ? raw.length : 0;
}

function selectNewMovements(
  id: string,
  file: EvalCaseFile,
  records: readonly InstanceRecord[],
): Movement[] {
  const picked = new Map<string, Movement>();
  for (const selector of file.newMovements) {
    const what = `newMovements entry ${selector.grau ?? "*"}/${selector.codigo}/${selector.dataHora}`;
    const dateTime = parseDataJudDate(selector.dataHora);
    if (dateTime === null) throw new EvalCaseError(id, `${what}: dataHora is not a date`);
    const matches = records
      .filter((r) => selector.grau === undefined || r.instance === selector.grau)
      .flatMap((r) => r.movements)
      .filter((m) => m.code === selector.codigo && m.dateTime === dateTime);
    const [only, ...rest] = matches;
    if (only === undefined) throw new EvalCaseError(id, `${what} matches no movement`);
    if (rest.length > 0) {
      throw new EvalCaseError(id, `${what} matches ${matches.length} movements; add grau`);
    }
    if (picked.has(only.id)) throw new EvalCaseError(id, `${what} is listed twice`);
    picked.set(only.id, only);
  }
  return [...picked.values()].sort((a, b) => (a.dateTime ?? "").localeCompare(b.dateTime ?? ""));
}

/**
 * A case file into the summarizer's input. Everything a typo could break is checked here, so a
 * broken case fails loudly instead of grading a model against a different question.
 */
export function buildEvalCase(id: string, file: EvalCaseFile, now: Date = EVAL_NOW): EvalCase {
  const records = file.hits.map((hit) => normalizeInstanceRecord(hit, file.court));
  file.hits.forEach((hit, i) => {
    const record = records[i] as InstanceRecord;
    if (record.movementCount !== rawMovementCount(hit._source)) {
      throw new EvalCaseError(
        id,
        `hit ${hit._id}: ${rawMovementCount(hit._source) - record.movementCount} movement(s) are unreadable`,
      );
    }
    for (const m of record.movements) {
      if (m.dateTime === null || wallClockInstant(m.dateTime) > now.getTime()) {
        throw new EvalCaseError(
          id,
          `hit ${hit._id}: movement ${m.code} ${m.name} is not before "today"`,
        );
      }
    }
  });
  const cnjNumber = records[0]?.cnjNumber ?? "";
  if (records.some((r) => r.cnjNumber !== cnjNumber)) {
    throw new EvalCaseError(id, "the hits are not all records of one case number");
  }
  const newMovements = selectNewMovements(id, file, records);
  const known = new Set(records.flatMap((r) => r.movements.map((m) => m.id)));
  const previous = file.previousSummary ?? null;
  if (previous !== null) {
    if (previous.cnjNumber !== cnjNumber) {
      throw new EvalCaseError(id, "previousSummary is about another case number");
    }
    const cited = [
      ...previous.attentionReasons.flatMap((r) => r.movements),
      ...(previous.latestRelevantMovement ? [previous.latestRelevantMovement] : []),
    ];
    const stale = cited.find((ref) => !known.has(ref.movementId));
    if (stale !== undefined) {
      throw new EvalCaseError(
        id,
        `previousSummary cites movement ${stale.movementId} (${stale.name}) that the records do not hold`,
      );
    }
  }
  const refs: MovementRef[] = records.flatMap((r) =>
    r.movements.map((m) => ({
      movementId: m.id,
      dateTime: m.dateTime,
      code: m.code,
      name: m.name,
    })),
  );
  for (const required of file.expected.requiredMovements) {
    if (!refs.some((ref) => matchesRequirement(ref, required))) {
      throw new EvalCaseError(
        id,
        `required movement ${describeRequirement(required)} is not in the records, so no summary could cite it`,
      );
    }
  }
  return {
    id,
    description: file.description,
    input: {
      cnjNumber,
      court: file.court,
      records,
      newMovements,
      changeKinds: file.changeKinds ?? (newMovements.length > 0 ? ["new_movements"] : []),
      previousSummary: previous,
      now,
    },
    expected: file.expected,
  };
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
}

/** Every `*.json` in `dir`, in file-name order. Throws EvalCaseError on the first broken case. */
export function loadEvalCases(dir: string = EVAL_CASES_DIR, now: Date = EVAL_NOW): EvalCase[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  return files.map((f) => {
    const id = basename(f, ".json");
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(join(dir, f), "utf8"));
    } catch (error) {
      throw new EvalCaseError(id, `not JSON: ${(error as Error).message}`);
    }
    const parsed = EvalCaseFile.safeParse(raw);
    if (!parsed.success) throw new EvalCaseError(id, describeIssues(parsed.error));
    return buildEvalCase(id, parsed.data, now);
  });
}

export interface EvalResult {
  grade: CaseGrade;
  summary: CaseSummary;
  /** Null for the rules engine, which spends none. */
  usage: TokenUsage | null;
  llmCalls: number;
  fallbackReason: FallbackReason | null;
}

export function runRulesEvals(cases: readonly EvalCase[]): EvalResult[] {
  return cases.map((c) => {
    const summary = rulesSummary({
      cnjNumber: c.input.cnjNumber,
      court: c.input.court,
      records: c.input.records,
      newMovements: c.input.newMovements,
      now: c.input.now,
    });
    return {
      grade: gradeSummary(c.id, summary, c.expected),
      summary,
      usage: null,
      llmCalls: 0,
      fallbackReason: null,
    };
  });
}

/** One case at a time: the eval is small, and a burst would only meet rate limits sooner. */
export async function runModelEvals(
  cases: readonly EvalCase[],
  summarizer: Summarizer,
  signal?: AbortSignal,
): Promise<EvalResult[]> {
  const results: EvalResult[] = [];
  for (const c of cases) {
    const result = await summarizer.summarize(c.input, signal);
    results.push({
      grade: gradeSummary(c.id, result.summary, c.expected, { requireModel: true }),
      summary: result.summary,
      usage: result.usage,
      llmCalls: result.llmCalls,
      fallbackReason: result.fallbackReason,
    });
  }
  return results;
}

function billable(usage: TokenUsage): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheWriteTokens;
}

function citedCell(grade: CaseGrade): string {
  const checks = grade.checks.filter((c) => c.kind === "movementCited");
  if (checks.length === 0) return "-";
  const missing = checks.filter((c) => !c.pass).map((c) => c.expected);
  const count = `${checks.length - missing.length}/${checks.length}`;
  return missing.length === 0 ? count : `${count} missing ${missing.join(", ")}`;
}

export function totalUsage(results: readonly EvalResult[]): TokenUsage {
  return results.reduce((sum, r) => (r.usage ? addUsage(sum, r.usage) : sum), ZERO_USAGE);
}

/** The score table, the failed checks spelled out, and the score line. */
export function formatReport(results: readonly EvalResult[], mode: "rules" | "model"): string {
  const model = mode === "model";
  const header = [
    "case",
    "category expected",
    "category got",
    "attention expected",
    "attention got",
    "movements cited",
    ...(model ? ["by", "calls", "tokens"] : []),
    "pass",
  ];
  const rows = results.map(({ grade, llmCalls, usage, fallbackReason }) => [
    grade.caseId,
    grade.expected.statusCategory,
    grade.got.statusCategory,
    grade.expected.needsLawyerAttention === undefined
      ? "-"
      : String(grade.expected.needsLawyerAttention),
    String(grade.got.needsLawyerAttention),
    citedCell(grade),
    ...(model
      ? [
          fallbackReason === null ? grade.got.generatedBy : `rules (${fallbackReason})`,
          String(llmCalls),
          String(usage ? billable(usage) : 0),
        ]
      : []),
    grade.pass ? "PASS" : "FAIL",
  ]);
  const failures = results.flatMap(({ grade }) =>
    grade.checks
      .filter((c) => !c.pass)
      .map((c) => `  ${grade.caseId}: ${c.label}: expected ${c.expected}, got ${c.actual}`),
  );
  const score: EvalScore = scoreGrades(results.map((r) => r.grade));
  const lines = [
    formatTable(header, rows),
    "",
    ...(failures.length > 0 ? ["failed checks:", ...failures, ""] : []),
    `score: ${score.passedCases}/${score.cases} cases passed, ${score.passedChecks}/${score.checks} checks (${(score.score * 100).toFixed(1)}%)`,
  ];
  if (model) {
    const usage = totalUsage(results);
    const calls = results.reduce((n, r) => n + r.llmCalls, 0);
    lines.push(
      `tokens: ${usage.inputTokens} input, ${usage.outputTokens} output, ${usage.cacheReadTokens} cache read, ${usage.cacheWriteTokens} cache write; ${calls} model call(s)`,
    );
  }
  return `${lines.join("\n")}\n`;
}

const USAGE = `usage: npm run evals [-- --rules] [-- --case ID...]

  (no flag)   grade Claude through the real summarizer; needs ANTHROPIC_API_KEY
              (ANTHROPIC_BASE_URL and ANTHROPIC_MODEL are honoured; spends tokens)
  --rules     grade the deterministic rules engine offline (no key, no network)
  --case ID   only this case (file name without .json, or its number prefix); repeatable
  --help      this text

Exit: --rules 0 when every case passes, 1 otherwise; the model run 0 once the score is
printed, 1 when the Claude API failed; 2 for usage, configuration or case-file errors.`;

interface Output {
  write(text: string): unknown;
}

export interface MainOptions {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  /** Where the config file (MONITOR_CONFIG, config/monitor.yaml) is looked up. */
  cwd: string;
  stdout: Output;
  stderr: Output;
  casesDir?: string;
  signal?: AbortSignal;
  /** Defaults to warn-level JSON lines on stderr. */
  logger?: Logger;
}

function pickCases(cases: readonly EvalCase[], wanted: readonly string[]): EvalCase[] | string {
  if (wanted.length === 0) return [...cases];
  const out: EvalCase[] = [];
  for (const w of wanted) {
    const hits = cases.filter((c) => c.id === w || c.id.startsWith(`${w}-`));
    if (hits.length === 0)
      return `no eval case "${w}" (cases: ${cases.map((c) => c.id).join(", ")})`;
    for (const h of hits) if (!out.includes(h)) out.push(h);
  }
  return out;
}

export async function main(options: MainOptions): Promise<number> {
  const { stdout, stderr } = options;
  let args: { rules: boolean; cases: string[]; help: boolean };
  try {
    const { values } = parseArgs({
      args: [...options.argv],
      options: {
        rules: { type: "boolean", default: false },
        case: { type: "string", multiple: true, default: [] },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    args = { rules: values.rules, cases: values.case, help: values.help };
  } catch (error) {
    stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }

  let summarizer: Summarizer | null = null;
  let modelName = "";
  if (!args.rules) {
    const loaded = loadConfig({ env: options.env, cwd: options.cwd });
    if (!loaded.ok) {
      stderr.write(`configuration errors:\n${loaded.errors.map((e) => `  ${e}`).join("\n")}\n`);
      return 2;
    }
    const s = loaded.config.summarizer;
    if (s.apiKey === null || s.apiKey === "") {
      stderr.write(
        "ANTHROPIC_API_KEY is not set: `npm run evals` grades Claude through the real Messages API and needs a key (or ANTHROPIC_API_KEY_FILE).\nRun `npm run evals -- --rules` to grade the rules engine offline.\n",
      );
      return 2;
    }
    modelName = s.model;
    summarizer = createSummarizer({
      apiKey: s.apiKey,
      baseURL: s.baseUrl,
      model: s.model,
      maxIterations: s.maxIterations,
      maxOutputTokens: s.maxOutputTokens,
      // The configured caps bound what one eval run may spend; nothing else spends them here.
      budget: createTokenBudget({
        runLimit: s.runTokenBudget,
        dayLimit: s.dailyTokenBudget,
        spentToday: 0,
      }),
      // The records are all in the first message; tools would read the live DataJud API.
      mcpClient: null,
      logger: options.logger ?? createLogger({ level: "warn", secrets: loaded.secrets }),
      timer: systemClock,
      callTimeoutMs: s.callTimeoutMs,
    });
  }

  let cases: EvalCase[];
  try {
    const all = loadEvalCases(options.casesDir ?? EVAL_CASES_DIR, EVAL_NOW);
    const picked = pickCases(all, args.cases);
    if (typeof picked === "string") {
      stderr.write(`${picked}\n`);
      return 2;
    }
    cases = picked;
  } catch (error) {
    stderr.write(`eval case error: ${(error as Error).message}\n`);
    return 2;
  }

  const today = saoPauloToday(EVAL_NOW);
  if (summarizer === null) {
    stdout.write(`rules engine, ${cases.length} case(s), today ${today} America/Sao_Paulo\n\n`);
    const results = runRulesEvals(cases);
    stdout.write(formatReport(results, "rules"));
    return results.every((r) => r.grade.pass) ? 0 : 1;
  }

  stdout.write(`model ${modelName}, ${cases.length} case(s), today ${today} America/Sao_Paulo\n\n`);
  let results: EvalResult[];
  try {
    results = await runModelEvals(cases, summarizer, options.signal);
  } catch (error) {
    stderr.write(`eval run failed: ${(error as Error).message}\n`);
    return 1;
  }
  stdout.write(formatReport(results, "model"));
  const apiFailures = results.filter((r) => r.fallbackReason === "api_error");
  if (apiFailures.length > 0) {
    stderr.write(
      `the Claude API failed for ${apiFailures.map((r) => r.grade.caseId).join(", ")}; those rows are rules-engine summaries, not model answers\n`,
    );
    return 1;
  }
  return 0;
}

function invokedAsScript(): boolean {
  const script = process.argv[1];
  return script !== undefined && resolve(script) === fileURLToPath(import.meta.url);
}

if (invokedAsScript()) {
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort(new Error("interrupted")));
  process.exitCode = await main({
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
  });
}
