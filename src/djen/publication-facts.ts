import { z } from "zod";
import { DeadlineEstimate, DeadlineRule, SessionEstimate } from "../deadlines/estimate-schema.js";
import {
  type CalendarFor,
  calendarsWith,
  estimatePublication,
  skippedText,
  storedEstimate,
} from "../deadlines/publication-estimate.js";
import type { StoredPublication } from "./publication.js";

export { type CalendarFor, ESTIMATE_NOTE } from "../deadlines/publication-estimate.js";

/**
 * What every view of a publication shows first: what it is, where from, and its dates, with the
 * rule they follow and the days that moved them. Our own output, strict; spread into the tools'
 * schemas.
 */
export const PublicationFacts = z.strictObject({
  /** DJEN's court acronym (TJSP, TRF1...). */
  court: z.string(),
  courtUnit: z.string().nullable(),
  kind: z.string().nullable().describe("Intimação, Citação, Edital..."),
  documentType: z.string().nullable(),
  className: z.string().nullable(),
  availableOn: z.string().describe("date of disponibilização (YYYY-MM-DD)"),
  publishedOn: z
    .string()
    .describe("estimated date it counts as published (Lei 11.419/2006 art. 4 §3), YYYY-MM-DD"),
  countingStartsOn: z
    .string()
    .nullable()
    .describe(
      "estimated first day of the deadline's count; null where this publication starts no deadline (pauta, lista, citação, an item for the Fazenda/MP/Defensoria, an edital whose dilação is not stated)",
    ),
  lastDay: z
    .string()
    .nullable()
    .describe(
      "estimated last day of the period the text states; null when the text states none (the law's default for the act, if any, is in deadline.otherPeriods)",
    ),
  rule: DeadlineRule.describe("the counting rule applied, with its articles"),
  session: SessionEstimate.nullable().describe("a pauta's session, as its text states it"),
  /** Every day that moved the dates or did not count, with its source. */
  countingReasons: z.array(z.string()),
  deadline: DeadlineEstimate.describe(
    "the whole estimate: periods, law's defaults, skipped days with sources, alternatives if unknown facts differ, notes, what the court's calendar considered",
  ),
});
export type PublicationFacts = z.infer<typeof PublicationFacts>;

const NATIONAL = calendarsWith();

export interface FactsOptions {
  /** The publication's plain text (what periods and sessions are read from). */
  text: string;
  /** Court calendars with the configured closures; absent: no closures. */
  calendars?: CalendarFor | undefined;
  /** The estimate stored for it (store/deadline-estimates.ts), used when this version reads it. */
  stored?: unknown;
}

export function publicationFacts(
  publication: Pick<
    StoredPublication,
    | "court"
    | "courtUnit"
    | "kind"
    | "documentType"
    | "className"
    | "availableOn"
    | "medium"
    | "caseNumber"
    | "recipients"
    | "lawyers"
  >,
  options: FactsOptions,
): PublicationFacts {
  const estimate =
    storedEstimate(options.stored) ??
    estimatePublication(publication, options.text, options.calendars ?? NATIONAL);
  return {
    court: publication.court,
    courtUnit: publication.courtUnit,
    kind: publication.kind,
    documentType: publication.documentType,
    className: publication.className,
    availableOn: publication.availableOn,
    publishedOn: estimate.publishedOn,
    countingStartsOn: estimate.countingStartsOn,
    lastDay: estimate.lastDay,
    rule: estimate.rule,
    session: estimate.session,
    countingReasons: estimate.skippedDays.map(skippedText),
    deadline: estimate,
  };
}
