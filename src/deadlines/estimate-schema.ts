import { z } from "zod";

/*
 * A deadline estimate, as every view shows it (alert, history, export, MCP) and as the store
 * keeps it. Our own output: strict.
 */

const IsoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/u);

export const SkippedDays = z.strictObject({
  from: IsoDay,
  to: IsoDay,
  name: z.string(),
  source: z.string(),
  url: z.string().nullable(),
});
export type SkippedDays = z.infer<typeof SkippedDays>;

export const PeriodEstimate = z.strictObject({
  amount: z.number().int().positive(),
  unit: z.enum(["business-days", "calendar-days", "hours", "months", "years"]),
  /** text: the court's text states it; legal-default: the law's period for the act named. */
  from: z.enum(["text", "legal-default"]),
  /** The court's words, for a period from the text. */
  quote: z.string().nullable(),
  /** The act, for a legal default ("apelação"). */
  act: z.string().nullable(),
  /** The articles behind the period and its count. */
  basis: z.string(),
  lastDay: IsoDay.nullable(),
  /** What about this period's count should be known (doubled, successive, in hours...). */
  note: z.string().nullable(),
});
export type PeriodEstimate = z.infer<typeof PeriodEstimate>;

export const RuleCode = z.enum([
  "intimacao",
  "edital",
  "pauta",
  "no-deadline",
  "personal",
  "citacao",
]);
export type RuleCode = z.infer<typeof RuleCode>;

export const DeadlineRule = z.strictObject({
  code: RuleCode,
  procedure: z.enum(["civil", "labour", "criminal", "electoral"]),
  /** What the rule is, in Portuguese, with its articles. */
  title: z.string(),
});
export type DeadlineRule = z.infer<typeof DeadlineRule>;

export const SessionEstimate = z.strictObject({
  date: IsoDay,
  /** Present: a hearing an intimação announces; absent: a pauta's session of judgment. */
  hearing: z.literal(true).optional(),
  /** "13:30", the court's wall clock; null when the text gives no time. */
  time: z.string().nullable(),
  endDate: IsoDay.nullable(),
  virtual: z.boolean(),
  quote: z.string(),
});
export type SessionEstimate = z.infer<typeof SessionEstimate>;

/** A later date the same communication would have if a fact we could not read were otherwise. */
export const EstimateAlternative = z.strictObject({
  condition: z.string(),
  countingStartsOn: IsoDay.nullable(),
  lastDay: IsoDay.nullable(),
});
export type EstimateAlternative = z.infer<typeof EstimateAlternative>;

export const DeadlineEstimate = z.strictObject({
  rule: DeadlineRule,
  availableOn: IsoDay,
  /** The day it counts as published (Lei 11.419/2006 art. 4 §3). */
  publishedOn: IsoDay,
  /** The first day of the count; null where nothing starts a deadline from DJEN. */
  countingStartsOn: IsoDay.nullable(),
  /** The last day of the period the text states; null when it states none. */
  lastDay: IsoDay.nullable(),
  /** The period `lastDay` comes from. */
  period: PeriodEstimate.nullable(),
  /** The text's other periods, then the law's defaults for the act named, each with its end. */
  otherPeriods: z.array(PeriodEstimate),
  /** A pauta's session, or the hearing another item announces (`hearing`). */
  session: SessionEstimate.nullable(),
  /** Every day that did not count or moved a date, with its source. */
  skippedDays: z.array(SkippedDays),
  /** Later dates if an unknown fact is otherwise; the dates above are the earliest. */
  alternatives: z.array(EstimateAlternative),
  /** What the estimate assumed and what to confirm, in Portuguese. */
  notes: z.array(z.string()),
  /** What the court's calendar took into account for the years involved. */
  considered: z.string(),
  estimate: z.literal(true),
});
export type DeadlineEstimate = z.infer<typeof DeadlineEstimate>;
