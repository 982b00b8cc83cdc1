import { parseDataJudDate, type WallClock } from "../datajud/dates.js";
import type { Movement } from "../datajud/instance-record.js";
import { cutPlainText } from "../djen/publication-text.js";
import type { MovementRow, MovementVersionRow } from "../store/movements.js";
import { formLine } from "../summarize/corrections.js";
import { complementReading } from "../summarize/movement-reading.js";
import type { ExportedPublication } from "./publication-export.js";

export interface ExportedMovement {
  number: string;
  court: string;
  label: string | null;
  movement: MovementRow;
  /** The forms it had before the court corrected it, oldest first; empty when never corrected. */
  earlier?: readonly Movement[];
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

/** An export's columns and rows, before it is written as CSV or a spreadsheet. */
export interface ExportTable {
  columns: readonly string[];
  rows: ExportCell[][];
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
  // Last, so scripts reading the columns before it keep working.
  "earlier_versions",
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

/**
 * Movements, then DJEN publications, one row each under EXPORT_COLUMNS: what `export` and
 * `history --format csv|xlsx` write. A publication's `date` is its date of disponibilização (a
 * calendar day, never shifted), its `name` the kind (Intimação, Citação...); its counting dates,
 * last day and session are estimates, with the rule and the days skipped (and their sources).
 */
export function movementTable(
  rows: readonly ExportedMovement[],
  publications: readonly ExportedPublication[] = [],
): ExportTable {
  const table: ExportCell[][] = [];
  for (const { number, court, label, movement, earlier } of rows) {
    table.push([
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
    ]);
  }
  for (const { label, inWatchlist, availableOnAsSent, publication: p } of publications) {
    table.push([
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
      p.link,
      cutPlainText(p.text, { maxChars: CELL_MAX }).text,
      null,
    ]);
  }
  return { columns: EXPORT_COLUMNS, rows: table };
}

/** Each corrected movement's earlier forms, by its row: every version but the current one. */
export function earlierForms(versions: readonly MovementVersionRow[]): Map<number, Movement[]> {
  const byRow = new Map<number, Movement[]>();
  for (const v of versions) byRow.set(v.rowId, [...(byRow.get(v.rowId) ?? []), v.data]);
  for (const [rowId, forms] of byRow) byRow.set(rowId, forms.slice(0, -1));
  return byRow;
}
