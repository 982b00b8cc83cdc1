import { z } from "zod";
import { wallClockDay } from "../src/datajud/dates.js";
import {
  type CaseSummary,
  type MovementRef,
  STATUS_CATEGORIES,
} from "../src/summarize/case-summary.js";

/**
 * The eval grader: deterministic, and it reads only structured fields (statusCategory,
 * needsLawyerAttention, the movements cited). The Portuguese text fields are never graded: there
 * is no deterministic way to score prose, and a check that sometimes passes is worse than none.
 */

/**
 * A movement the summary must cite: a TPU code, a movement name (compared without case or
 * accents), or an object narrowing either by the São Paulo calendar day of the movement.
 */
export const RequiredMovement = z.union([
  z.number().int(),
  z.string().trim().min(1),
  z
    .strictObject({
      code: z.number().int().optional(),
      name: z.string().trim().min(1).optional(),
      /** YYYY-MM-DD: the day the court recorded (dates.ts). */
      date: z.iso.date().optional(),
    })
    .refine((r) => r.code !== undefined || r.name !== undefined, {
      message: "a required movement needs a code or a name",
    }),
]);
export type RequiredMovement = z.infer<typeof RequiredMovement>;

export const EvalExpectation = z.strictObject({
  statusCategory: z.enum(STATUS_CATEGORIES),
  /** Omitted where a careful lawyer could reasonably answer either way. */
  needsLawyerAttention: z.boolean().optional(),
  /** Must each appear in attentionReasons[].movements or latestRelevantMovement. */
  requiredMovements: z.array(RequiredMovement).default([]),
  /**
   * Words the status paragraph must contain (case and accents ignored): the court unit of the
   * instance where the news happened, say. A proper noun, so the check stays deterministic.
   */
  statusMentions: z.array(z.string().trim().min(1)).default([]),
  /** Words the summary must not use anywhere a lawyer reads (status, reasons, next step). */
  mustNotSay: z.array(z.string().trim().min(1)).default([]),
  /** At least one of these must be in nextExpectedStep: it must agree with the attention box. */
  nextStepMentions: z.array(z.string().trim().min(1)).default([]),
});
export type EvalExpectation = z.infer<typeof EvalExpectation>;

export type CheckKind =
  | "statusCategory"
  | "needsLawyerAttention"
  | "movementCited"
  | "statusMentions"
  | "mustNotSay"
  | "nextStep"
  | "modelWrote";

export interface CheckResult {
  kind: CheckKind;
  /** e.g. "statusCategory", or "cites 221" for a movement check. */
  label: string;
  pass: boolean;
  expected: string;
  actual: string;
}

export interface CaseGrade {
  caseId: string;
  pass: boolean;
  checks: CheckResult[];
  expected: EvalExpectation;
  got: Pick<CaseSummary, "statusCategory" | "needsLawyerAttention" | "generatedBy">;
  /** Every movement the summary cites, deduplicated, for reports. */
  cited: MovementRef[];
}

export interface GradeOptions {
  /**
   * Grading a model run: a summary the rules engine wrote (the model failed and the summarizer
   * fell back) fails, or a model failure would score as well as the rules do.
   */
  requireModel?: boolean;
}

function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .trim()
    .toLowerCase();
}

export function describeRequirement(required: RequiredMovement): string {
  if (typeof required === "number") return String(required);
  if (typeof required === "string") return JSON.stringify(required);
  const parts: string[] = [];
  if (required.code !== undefined) parts.push(String(required.code));
  if (required.name !== undefined) parts.push(JSON.stringify(required.name));
  if (required.date !== undefined) parts.push(`on ${required.date}`);
  return parts.join(" ");
}

export function matchesRequirement(ref: MovementRef, required: RequiredMovement): boolean {
  if (typeof required === "number") return ref.code === required;
  if (typeof required === "string") return fold(ref.name) === fold(required);
  if (required.code !== undefined && ref.code !== required.code) return false;
  if (required.name !== undefined && fold(ref.name) !== fold(required.name)) return false;
  if (
    required.date !== undefined &&
    (ref.dateTime === null ? null : wallClockDay(ref.dateTime)) !== required.date
  )
    return false;
  return true;
}

/** The movements a summary points the lawyer to: its attention reasons and its latest relevant one. */
export function citedMovements(summary: CaseSummary): MovementRef[] {
  const all = [
    ...summary.attentionReasons.flatMap((r) => r.movements),
    ...(summary.latestRelevantMovement === null ? [] : [summary.latestRelevantMovement]),
  ];
  const seen = new Set<string>();
  return all.filter((m) => {
    if (seen.has(m.movementId)) return false;
    seen.add(m.movementId);
    return true;
  });
}

function describeCited(refs: readonly MovementRef[]): string {
  return refs.length === 0 ? "none" : refs.map((m) => `${m.code ?? "?"} ${m.name}`).join(", ");
}

function clipped(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** The few words that must or must not be there: substring checks, so as deterministic as the rest. */
function wordingChecks(summary: CaseSummary, expected: EvalExpectation): CheckResult[] {
  const status = fold(summary.status);
  const next = fold(summary.nextExpectedStep ?? "");
  const read = [
    summary.status,
    summary.nextExpectedStep ?? "",
    ...summary.attentionReasons.map((r) => r.reason),
  ];
  const everything = fold(read.join(" \n "));
  const checks: CheckResult[] = expected.statusMentions.map((word) => ({
    kind: "statusMentions",
    label: `status names ${JSON.stringify(word)}`,
    pass: status.includes(fold(word)),
    expected: word,
    actual: clipped(summary.status),
  }));
  for (const word of expected.mustNotSay) {
    checks.push({
      kind: "mustNotSay",
      label: `never says ${JSON.stringify(word)}`,
      pass: !everything.includes(fold(word)),
      expected: `no ${word}`,
      actual: clipped(read.find((t) => fold(t).includes(fold(word))) ?? "absent"),
    });
  }
  if (expected.nextStepMentions.length > 0) {
    checks.push({
      kind: "nextStep",
      label: "next step agrees with the attention box",
      pass: expected.nextStepMentions.some((word) => next.includes(fold(word))),
      expected: expected.nextStepMentions.join(" | "),
      actual: summary.nextExpectedStep ?? "null",
    });
  }
  return checks;
}

export function gradeSummary(
  caseId: string,
  summary: CaseSummary,
  expected: EvalExpectation,
  options: GradeOptions = {},
): CaseGrade {
  const cited = citedMovements(summary);
  const checks: CheckResult[] = [];
  if (options.requireModel === true) {
    checks.push({
      kind: "modelWrote",
      label: "written by the model",
      pass: summary.generatedBy !== "rules",
      expected: "a model id",
      actual: summary.generatedBy,
    });
  }
  checks.push({
    kind: "statusCategory",
    label: "statusCategory",
    pass: summary.statusCategory === expected.statusCategory,
    expected: expected.statusCategory,
    actual: summary.statusCategory,
  });
  if (expected.needsLawyerAttention !== undefined) {
    checks.push({
      kind: "needsLawyerAttention",
      label: "needsLawyerAttention",
      pass: summary.needsLawyerAttention === expected.needsLawyerAttention,
      expected: String(expected.needsLawyerAttention),
      actual: String(summary.needsLawyerAttention),
    });
  }
  for (const required of expected.requiredMovements) {
    const label = describeRequirement(required);
    checks.push({
      kind: "movementCited",
      label: `cites ${label}`,
      pass: cited.some((ref) => matchesRequirement(ref, required)),
      expected: label,
      actual: describeCited(cited),
    });
  }
  checks.push(...wordingChecks(summary, expected));
  return {
    caseId,
    pass: checks.every((c) => c.pass),
    checks,
    expected,
    got: {
      statusCategory: summary.statusCategory,
      needsLawyerAttention: summary.needsLawyerAttention,
      generatedBy: summary.generatedBy,
    },
    cited,
  };
}

export interface EvalScore {
  cases: number;
  passedCases: number;
  checks: number;
  passedChecks: number;
  /** passedChecks / checks, 0..1; 1 when there is nothing to check. */
  score: number;
}

export function scoreGrades(grades: readonly CaseGrade[]): EvalScore {
  const checks = grades.flatMap((g) => g.checks);
  const passedChecks = checks.filter((c) => c.pass).length;
  return {
    cases: grades.length,
    passedCases: grades.filter((g) => g.pass).length,
    checks: checks.length,
    passedChecks,
    score: checks.length === 0 ? 1 : passedChecks / checks.length,
  };
}
