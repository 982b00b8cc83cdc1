import { z } from "zod";
import { countingDates } from "../time/counting-dates.js";
import type { StoredPublication } from "./publication.js";

/**
 * What every view of a publication shows first: what it is, where from, and its dates. Our own
 * output, strict; spread into the tools' schemas.
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
    .describe("estimated date it counts as published (national holidays and recess only)"),
  countingStartsOn: z.string().describe("estimated first day of the deadline's count"),
  /** What moved the dates past the next weekdays (holidays, recess...). */
  countingReasons: z.array(z.string()),
});
export type PublicationFacts = z.infer<typeof PublicationFacts>;

export function publicationFacts(
  publication: Pick<
    StoredPublication,
    "court" | "courtUnit" | "kind" | "documentType" | "className" | "availableOn"
  >,
): PublicationFacts {
  const dates = countingDates(publication.availableOn);
  return {
    court: publication.court,
    courtUnit: publication.courtUnit,
    kind: publication.kind,
    documentType: publication.documentType,
    className: publication.className,
    availableOn: publication.availableOn,
    publishedOn: dates.publishedOn,
    countingStartsOn: dates.countingStartsOn,
    countingReasons: dates.reasons,
  };
}
