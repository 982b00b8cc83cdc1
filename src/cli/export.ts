import { parseDataJudDate } from "../datajud/dates.js";
import { ESTIMATE_NOTE } from "../deadlines/publication-estimate.js";
import { listCases } from "../store/cases.js";
import { closeDatabase } from "../store/database.js";
import { eachPublicationAvailableSince } from "../store/publications.js";
import { ChunkedOutput } from "./chunked-output.js";
import { type CliIo, type Command, EXIT, UsageError } from "./command.js";
import { type ExportedMovement, exportedMovements, movementTable } from "./export-table.js";
import {
  type ExportedPublication,
  exportedPublications,
  publicationJson,
} from "./publication-export.js";
import { loadRuntime, openRecordedDatabase } from "./runtime.js";
import { writeTable } from "./spreadsheet.js";

/**
 * `YYYY-MM-DD`, a calendar day in São Paulo: compared with the day of each movement's date as the
 * court recorded it (never with an instant, which would move late-evening movements a day).
 */
function sinceDay(value: unknown): string | null {
  if (value === undefined) return null;
  const text = String(value);
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(text) && parseDataJudDate(text) === text;
  if (!valid) throw new UsageError(`--since must be a date like 2026-01-31, not "${text}"`);
  return text;
}

/**
 * The JSON export, written as it is read: the same text JSON.stringify of the whole would give
 * ({since, movements, publications, countingNote}), one element at a time.
 */
async function writeJson(
  io: CliIo,
  since: string | null,
  movements: Iterable<ExportedMovement>,
  publications: Iterable<ExportedPublication>,
): Promise<void> {
  const out = new ChunkedOutput(io.stdout);
  const array = async <T>(items: Iterable<T>, json: (item: T) => unknown): Promise<void> => {
    let first = true;
    for (const item of items) {
      await out.write(`${first ? "" : ","}${JSON.stringify(json(item))}`);
      first = false;
    }
  };
  await out.write(`{"since":${JSON.stringify(since)},"movements":[`);
  await array(movements, (r) => ({
    case: r.number,
    court: r.court,
    label: r.label,
    instance: r.movement.instance,
    firstSeenAt: r.movement.firstSeenAt,
    movement: r.movement.data,
    /** The forms it had before the court corrected it, oldest first. */
    earlierVersions: r.earlier ?? [],
  }));
  await out.write('],"publications":[');
  await array(publications, publicationJson);
  await out.write(`],"countingNote":${JSON.stringify(ESTIMATE_NOTE)}}\n`);
  await out.flush();
}

export const exportCommand: Command = {
  name: "export",
  summary:
    "Every watched case's stored movements and DJEN publications (since a date) as CSV, XLSX or JSON",
  usage: "datajud-monitor export [--since YYYY-MM-DD] [--format csv|xlsx|json]",
  details: [
    "--since DATE   only movements dated on or after DATE, by the day the court recorded (undated ones are left out), and publications made available on or after DATE",
    "--format       csv (default: one row per movement, then one per DJEN publication, column source;",
    "               UTF-8 with a BOM), xlsx (the same rows, dates as date cells: redirect it, > export.xlsx;",
    "               at most 25,000 rows, a workbook is built in memory) or json; csv and json are",
    "               written as they are read, in the same memory whatever their size",
    "Dates from DataJud and DJEN are written as the court recorded them; our own times (first_seen_at)",
    "in schedule.timezone.",
    "Publications include those found through an OAB registration in cases outside the watchlist; their counting dates are estimates.",
    "Exit codes: 0 written, 2 bad usage or config, or no database yet.",
  ],
  options: { since: { type: "string" }, format: { type: "string" } },
  async run(args, io) {
    const since = sinceDay(args.values.since);
    const format = args.values.format ?? "csv";
    if (format !== "csv" && format !== "xlsx" && format !== "json") {
      throw new UsageError(`--format must be csv, xlsx or json, not "${String(format)}"`);
    }
    const runtime = loadRuntime(io, "export");
    if (!runtime) return EXIT.usage;
    const db = openRecordedDatabase(io, runtime, "export");
    if (!db) return EXIT.usage;
    try {
      const watched = listCases(db, { watchedOnly: true });
      const movements = exportedMovements(db, watched, since);
      const publications = exportedPublications(
        db,
        eachPublicationAvailableSince(db, since),
        watched,
      );
      if (format === "json") {
        await writeJson(io, since, movements, publications);
      } else {
        await writeTable(io, movementTable(movements, publications), format, {
          timeZone: runtime.config.schedule.timezone,
          sheet: "datajud-monitor export",
          fewerRows: "--since DATE",
        });
      }
      return EXIT.ok;
    } finally {
      closeDatabase(db);
    }
  },
};
