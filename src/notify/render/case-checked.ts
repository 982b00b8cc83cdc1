import { z } from "zod";
import { AlertSources } from "./sources-line.js";

/*
 * What a case.checked event carries (docs/channels.md): that the monitor looked at a watched
 * case on a day, what each source answered and how fresh it was. Webhooks (and chats that ask
 * for it) only, one per case per day; computed when queued, so a retry sends the same event.
 */

const SourceCheck = z.object({
  /** Our instant; null: never checked. */
  checkedAt: z.string().nullable(),
  /** DataJud: a check outcome; DJEN: ok or failed; null: never checked. */
  outcome: z.string().nullable(),
  error: z.string().nullable(),
});

export const CaseChecked = z.object({
  type: z.literal("case_checked"),
  /** Formatted CNJ number. */
  caseNumber: z.string(),
  /** DataJud alias. */
  court: z.string(),
  label: z.string().nullable(),
  /** The day (YYYY-MM-DD, schedule.timezone) the event stands for. */
  day: z.string(),
  /** ok: DataJud answered for the case; failed: its check failed. */
  outcome: z.enum(["ok", "failed"]),
  datajud: SourceCheck,
  /** Null: DJEN is off. */
  djen: SourceCheck.nullable(),
  instances: z.array(z.object({ instance: z.string(), updatedAt: z.string().nullable() })),
  sources: AlertSources,
});
export type CaseChecked = z.infer<typeof CaseChecked>;
