import type { DeadlineEstimate } from "../../deadlines/estimate-schema.js";
import {
  type CalendarFor,
  calendarsWith,
  estimatePublication,
} from "../../deadlines/publication-estimate.js";
import type { StoredPublication } from "../../djen/publication.js";
import type { Db } from "../../store/database.js";
import {
  addEstimateWatchers,
  type EstimateRow,
  type EstimateSaved,
  saveEstimate,
} from "../../store/deadline-estimates.js";
import type { PublicationRow } from "../../store/publications.js";

/*
 * Each reported publication's deadline estimate is stored, with who follows it: what the alert
 * said, re-estimated on every sweep while one of its dates is ahead, so that a closure configured
 * later (or a holiday the calendar learns) moves it, and a calendar feed can read it per watcher.
 */

const NO_CLOSURES = calendarsWith();

/** The estimate of a stored publication, on its court's calendar as configured now. */
export function estimateOf(
  row: PublicationRow,
  publication: StoredPublication,
  calendars: CalendarFor | undefined,
): DeadlineEstimate {
  return estimatePublication(publication, row.text, calendars ?? NO_CLOSURES);
}

/** Stores `estimate` as the publication's current one, and its followers. */
export function recordEstimate(
  db: Db,
  row: PublicationRow,
  estimate: DeadlineEstimate,
  watchers: readonly string[],
  at: string,
): EstimateSaved {
  const saved = saveEstimate(db, {
    publicationId: row.id,
    subject: `djen:${row.djenId}`,
    rule: estimate.rule.code,
    publishedOn: estimate.publishedOn,
    countingStartsOn: estimate.countingStartsOn,
    lastDay: estimate.lastDay,
    sessionDate: estimate.session?.date ?? null,
    sessionTime: estimate.session?.time ?? null,
    sessionEndDate: estimate.session?.endDate ?? null,
    estimate,
    computedAt: at,
  });
  if (watchers.length > 0) addEstimateWatchers(db, saved.row.id, watchers);
  return saved;
}

/** The dates a previous mail gave, for the correction that tells what they are now. */
export function previousDates(before: EstimateRow): {
  publishedOn: string;
  countingStartsOn: string | null;
  lastDay: string | null;
  session: string | null;
} {
  const session =
    before.sessionDate === null
      ? null
      : `${before.sessionDate}${before.sessionTime === null ? "" : ` ${before.sessionTime}`}`;
  return {
    publishedOn: before.publishedOn,
    countingStartsOn: before.countingStartsOn,
    lastDay: before.lastDay,
    session,
  };
}
