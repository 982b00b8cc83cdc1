import { parseDataJudDate } from "../datajud/dates.js";
import type { Movement } from "../datajud/instance-record.js";
import { cutPlainText } from "../djen/publication-text.js";
import type { MovementRow } from "../store/movements.js";
import type { ExportedPublication } from "./publication-export.js";

export interface ExportedMovement {
  number: string;
  court: string;
  label: string | null;
  movement: MovementRow;
}

const HEADER = [
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
  "cancelled",
  "cancellation_reason",
  "in_watchlist",
  "disposition",
  "djen_id",
  "certificate_url",
  "link",
  "text",
];

/** Spreadsheets hold at most 32,767 characters in a cell; a longer text is cut (with "…"). */
const CELL_MAX = 32_000;

/** The publication columns a movement row leaves empty. */
const NOT_A_PUBLICATION = HEADER.length - HEADER.indexOf("source") - 1;

/** The court's wall clock as spreadsheets read it, "2025-11-04 00:15:00"; never shifted. */
function csvDate(value: string | null): string | null {
  if (value === null) return null;
  return parseDataJudDate(value)?.replace("T", " ") ?? value;
}

/**
 * One CSV field (RFC 4180): quoted when needed, and a leading = + - @ neutralised so a spreadsheet
 * never runs court text as a formula.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A movement's complements on one line: "name: value: description; ...". */
export function complementsText(m: Movement): string {
  return m.complements
    .map((c) => [c.name, c.value, c.description].filter((v) => v !== null && v !== "").join(": "))
    .filter((c) => c !== "")
    .join("; ");
}

/**
 * Movements, then DJEN publications, as CSV with a header row, CRLF line ends, for spreadsheets
 * and scripts. A publication's `date` is its date of disponibilização (a calendar day, never
 * shifted), its `name` the kind (Intimação, Citação...); its counting dates are estimates.
 */
export function movementsCsv(
  rows: readonly ExportedMovement[],
  publications: readonly ExportedPublication[] = [],
): string {
  const lines = [HEADER.join(",")];
  for (const { number, court, label, movement } of rows) {
    const complements = complementsText(movement.data);
    lines.push(
      [
        number,
        court,
        label,
        movement.instance,
        csvDate(movement.dateTime),
        movement.code,
        movement.name,
        complements,
        movement.firstSeenAt,
        movement.data.dateTimeRaw ?? null,
        "datajud",
        ...Array<null>(NOT_A_PUBLICATION).fill(null),
      ]
        .map(csvField)
        .join(","),
    );
  }
  for (const { label, inWatchlist, availableOnAsSent, publication: p } of publications) {
    lines.push(
      [
        p.cnjNumber,
        p.court.toLowerCase(),
        label,
        null,
        p.availableOn,
        null,
        p.kind ?? "Publicação",
        null,
        p.firstSeenAt,
        availableOnAsSent,
        "djen",
        p.documentType,
        p.courtUnit,
        p.publishedOn,
        p.countingStartsOn,
        p.cancelled === null ? "no" : "yes",
        p.cancelled?.reason ?? null,
        inWatchlist ? "yes" : "no",
        p.disposition,
        p.djenId,
        p.certificateUrl,
        p.link,
        cutPlainText(p.text, { maxChars: CELL_MAX }).text,
      ]
        .map(csvField)
        .join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}
