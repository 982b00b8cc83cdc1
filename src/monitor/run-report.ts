import { z } from "zod";
import { CHECK_OUTCOMES } from "../store/checks.js";

export const CaseReport = z.strictObject({
  number: z.string(),
  court: z.string(),
  outcome: z.enum(CHECK_OUTCOMES),
  newMovements: z.number().int().nonnegative(),
  error: z.string().nullable(),
});
export type CaseReport = z.infer<typeof CaseReport>;

/** What `monitor run-once --json` prints and the `runs` table keeps (DESIGN.md contract). */
export const RunReport = z.strictObject({
  startedAt: z.string(),
  finishedAt: z.string(),
  checked: z.number().int().nonnegative(),
  changed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  datajudRequests: z.number().int().nonnegative(),
  llmCalls: z.number().int().nonnegative(),
  emailsQueued: z.number().int().nonnegative(),
  emailsSent: z.number().int().nonnegative(),
  dryRun: z.boolean(),
  interrupted: z.boolean(),
  cases: z.array(CaseReport),
});
export type RunReport = z.infer<typeof RunReport>;
