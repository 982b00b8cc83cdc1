import { parseDataJudDate } from "../datajud/dates.js";
import type { Movement } from "../datajud/instance-record.js";
import type { MovementRow } from "../store/movements.js";

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
];

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

/** Movements as CSV with a header row, CRLF line ends, for spreadsheets and scripts. */
export function movementsCsv(rows: readonly ExportedMovement[]): string {
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
      ]
        .map(csvField)
        .join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}
