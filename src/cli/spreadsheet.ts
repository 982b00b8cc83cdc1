import writeXlsxFile, { type Cell } from "write-excel-file/node";
import { instantWallClock, type WallClock } from "../datajud/dates.js";
import { ChunkedOutput, writeInTurn } from "./chunked-output.js";
import { type CliIo, UsageError } from "./command.js";
import type { ExportCell, ExportTable } from "./export-table.js";

/** How `export` and `history` write their rows. */
export type TableFormat = "csv" | "xlsx";

export interface TableOptions {
  /** The zone our own instants are shown in (schedule.timezone). */
  timeZone: string;
  /** The worksheet's name (xlsx). */
  sheet: string;
  /** How to ask for fewer rows, for the refusal of a workbook too big: "--since DATE". */
  fewerRows?: string;
}

/**
 * Excel reads a CSV as UTF-8 only when it starts with a byte order mark: without one, a
 * double-clicked file shows "Publicação" as "PublicaÃ§Ã£o".
 */
const BOM = "\uFEFF";

// Where a spreadsheet may start a cell: the field's start, and any delimiter it may split on
// (Excel in Portuguese splits a double-clicked CSV on `;`, others on tab) or a line break (a
// field split on the wrong delimiter loses its quotes, so its line breaks end the row). Spaces
// and quotes may come before the formula character and still let it run.
const CELL_START_FORMULA = /(^|[,;\t\r\n])([ "]*)(?=[=+\-@])/g;

/**
 * One CSV field (RFC 4180): text always quoted, so a spreadsheet reading `,` keeps it one cell;
 * and a formula character (= + - @) that would start a cell, at the field's start or after any
 * `,` `;` tab or line break inside it, neutralised with a `'`, so a spreadsheet splitting on
 * another delimiter never runs court text as a formula either.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const text = value.replace(CELL_START_FORMULA, "$1$2'");
  return `"${text.replace(/"/g, '""')}"`;
}

/** A date's text as spreadsheets and scripts read it: "2025-11-04 00:15:00", "2025-11-04". */
function csvDate(wallClock: WallClock): string {
  return wallClock.replace("T", " ");
}

function csvCell(cell: ExportCell, timeZone: string): string {
  if (cell === null || typeof cell === "string" || typeof cell === "number") return csvField(cell);
  if ("date" in cell) return csvField(csvDate(cell.date));
  const wallClock = instantWallClock(cell.instant, timeZone);
  return csvField(wallClock === null ? cell.instant : csvDate(wallClock));
}

/** One row as a CSV line, without its line end. */
function csvLine(row: readonly ExportCell[], timeZone: string): string {
  return row.map((cell) => csvCell(cell, timeZone)).join(",");
}

/** The table as CSV: UTF-8 with a BOM, a header row, CRLF line ends. */
export function tableCsv(table: ExportTable, timeZone: string): string {
  const lines = [table.columns.map(csvField).join(",")];
  for (const row of table.rows) lines.push(csvLine(row, timeZone));
  return `${BOM}${lines.join("\r\n")}\r\n`;
}

/** tableCsv written row by row as the rows come: the export's memory stays flat. */
async function writeCsv(io: CliIo, table: ExportTable, timeZone: string): Promise<void> {
  const out = new ChunkedOutput(io.stdout);
  await out.write(`${BOM}${table.columns.map(csvField).join(",")}\r\n`);
  for (const row of table.rows) await out.write(`${csvLine(row, timeZone)}\r\n`);
  await out.flush();
}

/**
 * The most rows a workbook is written with. write-excel-file builds the whole workbook in memory
 * (about 5.6 KB a row: 343 MB peak at 25,000 rows, 480 MB at 50,000; `npm run bench`,
 * docs/performance.md, "Exports"), so past this the export is refused and CSV, written as it is
 * read, is the way: Excel opens it too.
 */
export const XLSX_MAX_ROWS = 25_000;

/** The table's rows, or a refusal as soon as there are more than a workbook is written with. */
function workbookRows(table: ExportTable, options: TableOptions): ExportCell[][] {
  const rows: ExportCell[][] = [];
  for (const row of table.rows) {
    if (rows.length === XLSX_MAX_ROWS) {
      const fewer =
        options.fewerRows === undefined ? "" : `, or fewer rows with ${options.fewerRows}`;
      throw new UsageError(
        `--format xlsx writes at most ${XLSX_MAX_ROWS.toLocaleString("en")} rows and this has more: use --format csv (Excel and LibreOffice open it)${fewer}`,
      );
    }
    rows.push(row);
  }
  return rows;
}

/** A cell holds at most this many characters (Excel's limit). */
const XLSX_CELL_MAX = 32_767;

// Characters XML 1.0 cannot carry (a workbook holding one does not open): C0 controls other than
// tab, line feed and carriage return, lone surrogates, U+FFFE and U+FFFF.
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

const DATE_TIME_FORMAT = "dd/mm/yyyy hh:mm";
const DATE_FORMAT = "dd/mm/yyyy";

/**
 * A zone-less wall clock as the Date a spreadsheet's date cell is written from: its fields read
 * as UTC, so the cell shows exactly the digits written, wherever the file is opened.
 */
function dateValue(wallClock: WallClock): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?$/.exec(wallClock);
  if (m === null) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => (part === undefined ? 0 : Number(part)));
  return new Date(Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0));
}

function dateCell(wallClock: WallClock): Cell {
  const value = dateValue(wallClock);
  if (value === null) return textCell(wallClock);
  return { value, type: Date, format: wallClock.length > 10 ? DATE_TIME_FORMAT : DATE_FORMAT };
}

function textCell(text: string): Cell {
  return { value: [...text.replace(NOT_XML, "")].slice(0, XLSX_CELL_MAX).join(""), type: String };
}

function xlsxCell(cell: ExportCell, timeZone: string): Cell {
  if (cell === null) return null;
  if (typeof cell === "number") return { value: cell, type: Number };
  if (typeof cell === "string") return textCell(cell);
  if ("date" in cell) return dateCell(cell.date);
  const wallClock = instantWallClock(cell.instant, timeZone);
  return wallClock === null ? textCell(cell.instant) : dateCell(wallClock);
}

/** Widths (in characters) of the columns worth more than the default. */
const WIDTHS: Record<string, number> = {
  case: 27,
  label: 30,
  date: 17,
  name: 40,
  complements: 40,
  first_seen_at: 17,
  date_as_sent: 26,
  document_type: 20,
  court_unit: 30,
  published_on_estimate: 12,
  counting_starts_on_estimate: 12,
  cancellation_reason: 30,
  certificate_url: 30,
  link: 30,
  text: 60,
};

/**
 * The table as an .xlsx workbook of one sheet: dates as real date cells (DataJud's as the court
 * wrote them, our own instants in `timeZone`), numbers as numbers, text as text (never a
 * formula), the header row bold and kept in view.
 */
export async function tableXlsx(table: ExportTable, options: TableOptions): Promise<Buffer> {
  const header = table.columns.map((name): Cell => ({ value: name, fontWeight: "bold" }));
  const rows = workbookRows(table, options).map((row) =>
    row.map((cell) => xlsxCell(cell, options.timeZone)),
  );
  return writeXlsxFile([header, ...rows], {
    // Excel's rules for a sheet's name: at most 31 characters, none of : \ / ? * [ ].
    sheet: options.sheet.replace(/[:\\/?*[\]]/g, "-").slice(0, 31),
    stickyRowsCount: 1,
    columns: table.columns.map((name) => ({ width: WIDTHS[name] ?? 14 })),
  }).toBuffer();
}

/**
 * Writes the table to stdout as `format`, CSV row by row as the rows come. A workbook is binary:
 * refused on a terminal, where it would only scramble the screen; and past XLSX_MAX_ROWS.
 */
export async function writeTable(
  io: CliIo,
  table: ExportTable,
  format: TableFormat,
  options: TableOptions,
): Promise<void> {
  if (format === "csv") {
    await writeCsv(io, table, options.timeZone);
    return;
  }
  if (io.stdout.isTTY === true) {
    throw new UsageError("--format xlsx writes a binary file: redirect it, as in > export.xlsx");
  }
  await writeInTurn(io.stdout, await tableXlsx(table, options));
}
