import { courtDocumentLink } from "../datajud/court-links.js";
import { parseDataJudDate, type WallClock, wallClockDay } from "../datajud/dates.js";
import type { Movement } from "../datajud/instance-record.js";
import { cutPlainText } from "../djen/publication-text.js";
import type { CaseRow } from "../store/cases.js";
import type { Db } from "../store/database.js";
import { listInstances } from "../store/instances.js";
import {
  eachMovementOldestFirst,
  listMovementVersions,
  type MovementRow,
  type MovementVersionRow,
} from "../store/movements.js";
import { formLine } from "../summarize/corrections.js";
import {
  complementReading,
  movementTitle,
  type ReadingContext,
  readingContextOf,
} from "../summarize/movement-reading.js";
import type { ExportedPublication } from "./publication-export.js";

export interface ExportedMovement {
  number: string;
  court: string;
  label: string | null;
  movement: MovementRow;
  /** The forms it had before the court corrected it, oldest first; empty when never corrected. */
  earlier?: readonly Movement[];
  /** How its instance reads it: a criminal class in criminal words (219 "Sentença condenatória"). */
  reading?: ReadingContext;
  /** Whether DataJud lists it now; a movement it stopped listing is kept and marked. */
  listing?: MovementListing;
}

export type MovementListing = "listed" | "hidden" | "deleted";

/**
 * How each instance of a case reads its movements, by the class of its stored record: the words
 * the alerts and the MCP history use (tjto's 219 in an ação penal is "Sentença condenatória").
 */
export function readingOfCase(db: Db, caseId: number): (instance: string) => ReadingContext {
  const records = listInstances(db, caseId).map((row) => row.record);
  return (instance) => readingContextOf(records, instance);
}

/**
 * One cell of an export, typed so each format writes it as what it is: a spreadsheet gets real
 * date cells, CSV the text spreadsheets read as dates.
 */
export type ExportCell =
  | string
  | number
  | null
  /** A date as the court (or DJEN) wrote it, a day or a day and time: never shifted. */
  | { date: WallClock }
  /** One of our own instants (ISO text): shown in the schedule's time zone, never UTC. */
  | { instant: string };

/**
 * An export's columns and rows, before it is written as CSV or a spreadsheet: the rows may be
 * read from the database as they are written (export), never all held at once.
 */
export interface ExportTable {
  columns: readonly string[];
  rows: Iterable<ExportCell[]>;
}

export const EXPORT_COLUMNS = [
  "case",
  "court",
  "label",
  "instance",
  "date",
  "code",
  "name",
  "complements",
  "first_seen_at",
  "date_as_sent",
  // DJEN publications' own columns, after the movements' so scripts reading those keep working.
  "source",
  "document_type",
  "court_unit",
  "published_on_estimate",
  "counting_starts_on_estimate",
  "last_day_estimate",
  "session",
  "deadline_rule",
  "days_skipped",
  "cancelled",
  "cancellation_reason",
  "in_watchlist",
  "disposition",
  "djen_id",
  "certificate_url",
  "link",
  "text",
  // Last, so scripts reading the columns before them keep working.
  "earlier_versions",
  /** The movement as a lawyer reads it (`name` is the TPU's leaf); a publication's kind. */
  "title",
  /**
   * listed: DataJud lists it now; hidden: no longer listed while a secrecy level covers its
   * instance; deleted: no longer listed otherwise. Never dropped: what was alerted stays.
   */
  "listing",
  /** When a sweep first found it no longer listed (an instant). */
  "no_longer_listed_at",
];

/** Spreadsheets hold at most 32,767 characters in a cell; a longer text is cut (with "…"). */
const CELL_MAX = 32_000;

/** The publication columns a movement row leaves empty. */
const NOT_A_PUBLICATION =
  EXPORT_COLUMNS.indexOf("earlier_versions") - EXPORT_COLUMNS.indexOf("source") - 1;

/** Earlier forms of a corrected movement, oldest first: "05/11/2025 00:15 · Publicação | ...". */
function earlierText(earlier: readonly Movement[] | undefined): string | null {
  if (earlier === undefined || earlier.length === 0) return null;
  return earlier.map((m) => formLine(m)).join(" | ");
}

/** A stored DataJud (or DJEN) date as a date cell; text that is no date stays text. */
function dateCell(value: string | null): ExportCell {
  if (value === null) return null;
  const wallClock = parseDataJudDate(value);
  return wallClock === null ? value : { date: wallClock };
}

/** A pauta's session, the court's wall clock: "2025-10-15 13:30", or its day alone. */
function sessionCell(session: { date: string; time: string | null } | null): ExportCell {
  if (session === null) return null;
  return dateCell(session.time === null ? session.date : `${session.date}T${session.time}:00`);
}

function instantCell(value: string | null): ExportCell {
  return value === null ? null : { instant: value };
}

/** A movement's complements on one line, readable: "tipo de petição: Petição inicial; ...". */
export function complementsText(m: Movement): string {
  return m.complements.flatMap((c) => complementReading(c) ?? []).join("; ");
}

/** A movement's row under EXPORT_COLUMNS. */
export function movementCells({
  number,
  court,
  label,
  movement,
  earlier,
  reading,
  listing,
}: ExportedMovement): ExportCell[] {
  return [
    number,
    court,
    label,
    movement.instance,
    dateCell(movement.dateTime),
    movement.code,
    movement.name,
    complementsText(movement.data),
    instantCell(movement.firstSeenAt),
    movement.data.dateTimeRaw ?? null,
    "datajud",
    ...Array<null>(NOT_A_PUBLICATION).fill(null),
    earlierText(earlier),
    movementTitle(movement.data, reading),
    listing ?? (movement.disappearedAt === null ? "listed" : "deleted"),
    instantCell(movement.disappearedAt),
  ];
}

/**
 * A DJEN publication's row under EXPORT_COLUMNS. Its `date` is its date of disponibilização (a
 * calendar day, never shifted), its `name` the kind (Intimação, Citação...); its counting dates,
 * last day and session are estimates, with the rule and the days skipped (and their sources).
 */
export function publicationCells({
  label,
  inWatchlist,
  availableOnAsSent,
  publication: p,
}: ExportedPublication): ExportCell[] {
  return [
    p.cnjNumber,
    p.court.toLowerCase(),
    label,
    null,
    dateCell(p.availableOn),
    null,
    p.kind ?? "Publicação",
    null,
    instantCell(p.firstSeenAt),
    availableOnAsSent,
    "djen",
    p.documentType,
    p.courtUnit,
    dateCell(p.publishedOn),
    dateCell(p.countingStartsOn),
    dateCell(p.lastDay),
    sessionCell(p.session),
    p.rule.title,
    p.countingReasons.join("; ") || null,
    p.cancelled === null ? "no" : "yes",
    p.cancelled?.reason ?? null,
    inWatchlist ? "yes" : "no",
    p.disposition,
    p.djenId,
    p.certificateUrl,
    courtDocumentLink(p.link),
    cutPlainText(p.text, { maxChars: CELL_MAX }).text,
    null,
    p.kind ?? "Publicação",
    null,
    null,
  ];
}

/**
 * Movements, then DJEN publications, one row each under EXPORT_COLUMNS: what `export` and
 * `history --format csv|xlsx` write, each row made as it is written.
 */
export function movementTable(
  rows: Iterable<ExportedMovement>,
  publications: Iterable<ExportedPublication> = [],
): ExportTable {
  // Iterable again each time it is read (a test writes one table twice); generators given as
  // rows and publications are read once.
  const cells = {
    *[Symbol.iterator](): Generator<ExportCell[]> {
      for (const row of rows) yield movementCells(row);
      for (const publication of publications) yield publicationCells(publication);
    },
  };
  return { columns: EXPORT_COLUMNS, rows: cells };
}

/**
 * The export rows of these cases' movements, case by case, each case's oldest first, read from
 * the database one at a time; with `sinceDay`, only those dated on or after it (by the day the
 * court recorded: undated ones are left out). Movements DataJud stopped listing are rows too,
 * marked hidden (a secrecy level covers their instance now) or deleted.
 */
export function* exportedMovements(
  db: Db,
  cases: Iterable<CaseRow>,
  sinceDay: string | null = null,
): Generator<ExportedMovement> {
  for (const kase of cases) {
    const earlier = earlierForms(listMovementVersions(db, kase.id));
    const readingOf = readingOfCase(db, kase.id);
    const secret = new Set(
      listInstances(db, kase.id)
        .filter((row) => (row.record.secrecyLevel ?? 0) > 0)
        .map((row) => row.instance),
    );
    for (const movement of eachMovementOldestFirst(db, kase.id, { includeDisappeared: true })) {
      if (sinceDay !== null) {
        const day = movement.dateTime === null ? null : wallClockDay(movement.dateTime);
        if (day === null || day < sinceDay) continue;
      }
      const { number, court, label } = kase;
      const reading = readingOf(movement.instance);
      const listing: MovementListing =
        movement.disappearedAt === null
          ? "listed"
          : secret.has(movement.instance)
            ? "hidden"
            : "deleted";
      const forms = earlier.get(movement.id) ?? [];
      yield { number, court, label, movement, earlier: forms, reading, listing };
    }
  }
}

/** Each corrected movement's earlier forms, by its row: every version but the current one. */
export function earlierForms(versions: readonly MovementVersionRow[]): Map<number, Movement[]> {
  const byRow = new Map<number, Movement[]>();
  for (const v of versions) byRow.set(v.rowId, [...(byRow.get(v.rowId) ?? []), v.data]);
  for (const [rowId, forms] of byRow) byRow.set(rowId, forms.slice(0, -1));
  return byRow;
}
