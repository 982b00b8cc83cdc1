import { z } from "zod";
import type { CaseRow } from "../store/cases.js";

/**
 * A watched case DataJud stopped returning: declared gone after `monitor.notFoundThreshold` clean
 * "not found" answers in a row. The operator hears of it once per (case, gone since): a wrong
 * number, a case moved to another court, or one DataJud dropped are all for a person to look at.
 */
export const CaseGoneAlert = z.object({
  type: z.literal("case_gone"),
  caseNumber: z.string(),
  court: z.string(),
  label: z.string().nullable(),
  goneAt: z.string(),
  /** The last time DataJud returned the case. */
  lastSeenAt: z.string().nullable(),
  notFoundAnswers: z.number().int().nonnegative(),
});
export type CaseGoneAlert = z.infer<typeof CaseGoneAlert>;

export function caseGoneAlert(
  kase: Pick<
    CaseRow,
    "number" | "court" | "label" | "goneAt" | "lastSeenAt" | "consecutiveNotFound"
  >,
): CaseGoneAlert | null {
  if (kase.goneAt === null) return null;
  return {
    type: "case_gone",
    caseNumber: kase.number,
    court: kase.court,
    label: kase.label,
    goneAt: kase.goneAt,
    lastSeenAt: kase.lastSeenAt,
    notFoundAnswers: kase.consecutiveNotFound,
  };
}
