import { z } from "zod";
import type { FailingCaseRow } from "../store/failing-cases.js";
import type { AuthState } from "./health.js";

/**
 * Which failing cases the operator hears of: a case failing for a day is one e-mail per (case,
 * failing since), and DataJud refusing the key is one incident for every case it stops. Pure: the
 * store reads the checks (store/failing-cases.ts), these functions decide.
 */

export const DEFAULT_FAILING_AFTER_MS = 24 * 60 * 60_000;

export const CaseFailingAlert = z.object({
  type: z.literal("case_failing"),
  caseNumber: z.string(),
  court: z.string(),
  label: z.string().nullable(),
  /** The oldest failed check after the case's last check that did not fail. */
  failingSince: z.string(),
  lastCheckedAt: z.string().nullable(),
  failures: z.number().int().nonnegative(),
  lastErrorKind: z.string().nullable(),
  lastError: z.string().nullable(),
  thresholdHours: z.number().positive(),
});
export type CaseFailingAlert = z.infer<typeof CaseFailingAlert>;

function latestOf(values: ReadonlyArray<string | null>): string | null {
  let best: string | null = null;
  for (const v of values) if (v !== null && (best === null || v > best)) best = v;
  return best;
}

function earliestOf(values: ReadonlyArray<string | null>): string | null {
  let best: string | null = null;
  for (const v of values) if (v !== null && (best === null || v < best)) best = v;
  return best;
}

/** When DataJud last answered for any case: a healthy one, or a failing one before it failed. */
export function lastAnswerAnywhere(
  failing: readonly FailingCaseRow[],
  lastAnsweredOfHealthyCases: string | null,
): string | null {
  return latestOf([lastAnsweredOfHealthyCases, ...failing.map((c) => c.answeredAt)]);
}

/**
 * The key incident is "DataJud refused the key at some point after it last answered for any
 * case": it starts with the first refusal (`firstRefusals`: each failing case's first refused
 * check since that answer) and ends with the first answer.
 */
export function keyRefusal(
  failing: readonly FailingCaseRow[],
  firstRefusals: ReadonlyArray<string | null>,
): AuthState | null {
  const since = earliestOf(firstRefusals);
  if (since === null) return null;
  const refused = failing.filter((c) => c.latest?.errorKind === "auth");
  return {
    since,
    lastError: refused.find((c) => c.latest?.error)?.latest?.error ?? null,
    affectedCases: refused.filter((c) => c.watched).length,
  };
}

/** The watched failing cases worth a look; those the key e-mail covers are left to it. */
export function casesToReport(
  failing: readonly FailingCaseRow[],
  keyRefused: boolean,
): FailingCaseRow[] {
  // The key e-mail already covers these, and says what to do for all of them at once.
  return failing.filter((c) => c.watched && !(keyRefused && c.latest?.errorKind === "auth"));
}

/** The alert for a case failing since `failingSince`, once it has failed for long enough. */
export function caseFailingAlert(
  kase: FailingCaseRow,
  failingSince: string | null,
  now: Date,
  failingAfterMs: number,
): CaseFailingAlert | null {
  if (failingSince === null || now.getTime() - Date.parse(failingSince) < failingAfterMs) {
    return null;
  }
  return {
    type: "case_failing",
    caseNumber: kase.number,
    court: kase.court,
    label: kase.label,
    failingSince,
    lastCheckedAt: kase.latest?.at ?? kase.lastCheckedAt,
    failures: kase.failures,
    lastErrorKind: kase.latest?.errorKind ?? null,
    lastError: kase.latest?.error ?? null,
    thresholdHours: Math.round((failingAfterMs / 3_600_000) * 10) / 10,
  };
}
