import type { Db } from "./database.js";
import {
  addFollowers,
  type CalendarQuery,
  calendarParams,
  ESTIMATES,
  followedBy,
  insertRevised,
  updateRevised,
} from "./revised-rows.js";

/*
 * The current deadline estimate of each DJEN publication, and who follows it. The store keeps what
 * the report phase hands it and does not read the estimate itself (deadlines/ owns that shape):
 * `estimate` comes back as parsed JSON for the caller to validate.
 */

/** The dates an estimate rests on, as columns (the whole estimate is kept beside them). */
export interface EstimateDates {
  rule: string;
  publishedOn: string;
  countingStartsOn: string | null;
  lastDay: string | null;
  sessionDate: string | null;
  sessionTime: string | null;
  sessionEndDate: string | null;
}

export interface NewEstimate extends EstimateDates {
  publicationId: number;
  /** "djen:<DJEN id>". */
  subject: string;
  estimate: unknown;
  computedAt: string;
  /** The IBGE code of the unit's seat the estimate was made at; null or absent: unknown. */
  seat?: number | null | undefined;
}

export interface EstimateRow extends EstimateDates {
  id: number;
  publicationId: number;
  subject: string;
  openUntil: string;
  estimate: unknown;
  revision: number;
  computedAt: string;
  toldRevision: number | null;
}

/** What saving did: stored the first time, moved (a date changed), or the same dates again. */
export type EstimateSaved =
  | { kind: "stored"; row: EstimateRow }
  | { kind: "moved"; row: EstimateRow; before: EstimateRow }
  | { kind: "unchanged"; row: EstimateRow };

interface RawEstimate extends Omit<EstimateRow, "estimate"> {
  estimate: string;
}

/** The columns, of the table itself or of its alias `e`. */
function columns(e = ""): string {
  return `${e}id, ${e}publication_id AS publicationId, ${e}subject, ${e}rule,
  ${e}published_on AS publishedOn, ${e}counting_starts_on AS countingStartsOn,
  ${e}last_day AS lastDay, ${e}session_date AS sessionDate, ${e}session_time AS sessionTime,
  ${e}session_end_date AS sessionEndDate, ${e}open_until AS openUntil, ${e}estimate,
  ${e}revision, ${e}computed_at AS computedAt, ${e}told_revision AS toldRevision`;
}
const COLUMNS = columns();

function toRow(raw: RawEstimate): EstimateRow {
  return { ...raw, estimate: JSON.parse(raw.estimate) as unknown };
}

/** The last of an estimate's dates: until that day passes, a closure may still move it. */
function openUntil(dates: EstimateDates): string {
  const days = [
    dates.publishedOn,
    dates.countingStartsOn,
    dates.lastDay,
    dates.sessionDate,
    dates.sessionEndDate,
  ]
    .filter((d): d is string => d !== null)
    .sort();
  return days.at(-1) ?? dates.publishedOn;
}

const DATE_FIELDS: ReadonlyArray<keyof EstimateDates> = [
  "rule",
  "publishedOn",
  "countingStartsOn",
  "lastDay",
  "sessionDate",
  "sessionTime",
  "sessionEndDate",
];

export function getEstimate(db: Db, publicationId: number): EstimateRow | undefined {
  const raw = db
    .prepare<[number], RawEstimate>(
      `SELECT ${COLUMNS} FROM deadline_estimates WHERE publication_id = ?`,
    )
    .get(publicationId);
  return raw === undefined ? undefined : toRow(raw);
}

/**
 * Stores a publication's estimate. The same dates again keep the row and its revision (the
 * estimate's text is refreshed); a date that moved makes a new revision.
 */
export function saveEstimate(db: Db, estimate: NewEstimate): EstimateSaved {
  const before = getEstimate(db, estimate.publicationId);
  const columns = {
    rule: estimate.rule,
    published_on: estimate.publishedOn,
    counting_starts_on: estimate.countingStartsOn,
    last_day: estimate.lastDay,
    session_date: estimate.sessionDate,
    session_time: estimate.sessionTime,
    session_end_date: estimate.sessionEndDate,
    open_until: openUntil(estimate),
    estimate: JSON.stringify(estimate.estimate ?? null),
    computed_at: estimate.computedAt,
    seat: estimate.seat ?? null,
  };
  if (before === undefined) {
    insertRevised(db, ESTIMATES, {
      publication_id: estimate.publicationId,
      subject: estimate.subject,
      ...columns,
    });
    return { kind: "stored", row: getEstimate(db, estimate.publicationId) as EstimateRow };
  }
  const moved = DATE_FIELDS.some((field) => before[field] !== estimate[field]);
  updateRevised(db, ESTIMATES, before.id, columns, moved);
  const row = getEstimate(db, estimate.publicationId) as EstimateRow;
  return moved ? { kind: "moved", row, before } : { kind: "unchanged", row };
}

/** Those mailed about the publication now know revision `revision`. */
export function markEstimateTold(db: Db, id: number, revision: number): void {
  db.prepare<[number, number]>("UPDATE deadline_estimates SET told_revision = ? WHERE id = ?").run(
    revision,
    id,
  );
}

/** Adds the estimate's followers (addresses compared in lower case). */
export function addEstimateWatchers(db: Db, id: number, recipients: readonly string[]): void {
  addFollowers(db, ESTIMATES, id, recipients);
}

/** Estimates with a date on or after `today` (YYYY-MM-DD), oldest publication first. */
export function openEstimates(db: Db, today: string): EstimateRow[] {
  return db
    .prepare<[string], RawEstimate>(
      `SELECT ${COLUMNS} FROM deadline_estimates WHERE open_until >= ? ORDER BY publication_id`,
    )
    .all(today)
    .map(toRow);
}

/** Reported publications with no estimate yet (stored before estimates were kept). */
export function publicationIdsWithoutEstimate(db: Db): number[] {
  return db
    .prepare<[], { id: number }>(
      `SELECT p.id FROM publications p
       WHERE p.disposition IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM deadline_estimates e WHERE e.publication_id = p.id)
       ORDER BY p.id`,
    )
    .all()
    .map((r) => r.id);
}

/**
 * A watcher's estimates, with a date on or after `since` (all with null), for a calendar of their
 * deadlines and sessions; cancelled publications included (their events are to be cancelled).
 */
export function estimatesOfWatcher(
  db: Db,
  recipient: string,
  options: { since?: string | null } = {},
): Array<EstimateRow & { djenId: string; cancelled: boolean }> {
  return db
    .prepare<
      { recipient: string; since: string | null },
      RawEstimate & { djenId: string; cancelledAt: string | null }
    >(
      `SELECT ${columns("e.")}, p.djen_id AS djenId, p.cancelled_at AS cancelledAt
       FROM deadline_estimates e
       JOIN deadline_estimate_watchers w ON w.estimate_id = e.id
       JOIN publications p ON p.id = e.publication_id
       WHERE w.recipient = lower(@recipient) AND (@since IS NULL OR e.open_until >= @since)
       ORDER BY e.open_until, e.id`,
    )
    .all({ recipient: recipient.trim(), since: options.since ?? null })
    .map(({ djenId, cancelledAt, ...raw }) => ({
      ...toRow(raw),
      djenId,
      cancelled: cancelledAt !== null,
    }));
}

/** An estimate as a calendar feed shows it: with its publication, as stored, and its case. */
export interface CalendarEstimateRow extends EstimateRow {
  /** The IBGE code of the unit's seat the estimate was made at; null: unknown. */
  seat: number | null;
  djenId: string;
  /** The normalized publication (djen/publication.ts `StoredPublication`), to be validated. */
  publication: unknown;
  cancelled: boolean;
  /** The watchlist's label of the case, when the case is watched with one. */
  caseLabel: string | null;
}

/**
 * The estimates a calendar feed holds: those someone follows (or `recipient` follows), with a
 * date in [since, until], cancelled publications included (their events are cancelled, not
 * dropped), in date order.
 */
export function calendarEstimates(db: Db, query: CalendarQuery): CalendarEstimateRow[] {
  const rows = db
    .prepare<
      CalendarQuery,
      RawEstimate & {
        seat: number | null;
        djenId: string;
        publication: string;
        cancelledAt: string | null;
        caseLabel: string | null;
      }
    >(
      `SELECT ${columns("e.")}, e.seat, p.djen_id AS djenId, p.publication,
         p.cancelled_at AS cancelledAt,
         (SELECT c.label FROM cases c WHERE c.digits = p.case_number AND c.label IS NOT NULL
          ORDER BY c.watched DESC, c.id LIMIT 1) AS caseLabel
       FROM deadline_estimates e
       JOIN publications p ON p.id = e.publication_id
       WHERE ${followedBy(ESTIMATES, "e")}
         AND (@since IS NULL OR e.open_until >= @since)
         AND (@until IS NULL OR e.published_on <= @until)
       ORDER BY e.open_until DESC, e.id DESC
       LIMIT @limit`,
    )
    .all(calendarParams(query));
  return rows.reverse().map(({ djenId, cancelledAt, publication, seat, caseLabel, ...raw }) => ({
    ...toRow(raw),
    seat,
    djenId,
    publication: JSON.parse(publication) as unknown,
    cancelled: cancelledAt !== null,
    caseLabel,
  }));
}
