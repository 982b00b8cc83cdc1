import type { DeadlineEstimate } from "../../deadlines/estimate-schema.js";
import {
  type CalendarFor,
  calendarsWith,
  courtAlias,
  estimatePublication,
} from "../../deadlines/publication-estimate.js";
import type { StoredPublication } from "../../djen/publication.js";
import { foldText } from "../../policy/alert-rules.js";
import type { Db } from "../../store/database.js";
import {
  addEstimateWatchers,
  type EstimateDates,
  type EstimateRow,
  type EstimateSaved,
  saveEstimate,
} from "../../store/deadline-estimates.js";
import { listInstances } from "../../store/instances.js";
import type { PublicationRow } from "../../store/publications.js";

/*
 * Each reported publication's deadline estimate is stored, with who follows it: what the alert
 * said, re-estimated on every sweep while one of its dates is ahead, so that a closure configured
 * later (or a holiday the calendar learns) moves it, and a calendar feed can read it per watcher.
 */

const NO_CLOSURES = calendarsWith();

/**
 * The seat (IBGE municipality) of the unit that sent a publication in a watched case: the
 * municipality DataJud gives for the case's instance in that court with the same unit name, else
 * the one all its instances in that court share; undefined when unknown (municipal days are then
 * not counted: earlier, never later).
 */
export function seatOf(
  db: Db,
  caseId: number | null,
  publication: Pick<StoredPublication, "court" | "courtUnit">,
): number | undefined {
  if (caseId === null) return undefined;
  const court = courtAlias(publication.court);
  const units = listInstances(db, caseId)
    .map((i) => i.record)
    .filter((r) => r.court.toLowerCase() === court && r.courtUnit?.municipalityCode != null)
    .map((r) => ({
      name: foldText(r.courtUnit?.name ?? ""),
      municipality: r.courtUnit?.municipalityCode ?? 0,
    }));
  const name = foldText(publication.courtUnit ?? "");
  const same = units.find((u) => u.name !== "" && u.name === name);
  if (same !== undefined) return same.municipality || undefined;
  const seats = new Set(units.map((u) => u.municipality));
  return seats.size === 1 ? [...seats][0] || undefined : undefined;
}

/** The estimate of a stored publication, on its court's calendar as configured now. */
export function estimateOf(
  row: PublicationRow,
  publication: StoredPublication,
  calendars: CalendarFor | undefined,
  municipality?: number,
): DeadlineEstimate {
  return estimatePublication(publication, row.text, calendars ?? NO_CLOSURES, { municipality });
}

/** The dates of an estimate as the store keeps them beside it (what a feed and a move read). */
export function estimateDates(estimate: DeadlineEstimate): EstimateDates {
  return {
    rule: estimate.rule.code,
    publishedOn: estimate.publishedOn,
    countingStartsOn: estimate.countingStartsOn,
    lastDay: estimate.lastDay,
    sessionDate: estimate.session?.date ?? null,
    sessionTime: estimate.session?.time ?? null,
    sessionEndDate: estimate.session?.endDate ?? null,
  };
}

/** Stores `estimate`, made at the seat `seat`, as the publication's current one, and its followers. */
export function recordEstimate(
  db: Db,
  row: PublicationRow,
  estimate: DeadlineEstimate,
  watchers: readonly string[],
  at: string,
  seat?: number,
): EstimateSaved {
  const saved = saveEstimate(db, {
    publicationId: row.id,
    subject: `djen:${row.djenId}`,
    ...estimateDates(estimate),
    estimate,
    computedAt: at,
    seat: seat ?? null,
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
