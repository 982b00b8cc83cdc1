import { countingDates } from "../time/counting-dates.js";
import type { StoredPublication } from "./publication.js";

/** What every view of a publication shows first: what it is, where from, and its dates. */
export interface PublicationFacts {
  court: string;
  courtUnit: string | null;
  kind: string | null;
  documentType: string | null;
  className: string | null;
  /** The date of disponibilização. */
  availableOn: string;
  /** When it counts as published: an estimate (counting-dates.ts). */
  publishedOn: string;
  /** The first day of the deadline's count: an estimate. */
  countingStartsOn: string;
  /** What moved the dates past the next weekdays (holidays, recess...). */
  countingReasons: string[];
}

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
