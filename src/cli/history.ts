import { parseCnjNumber } from "../datajud/cnj-number.js";
import { formatInstant, formatWallClock } from "../datajud/dates.js";
import { findCasesByNumber } from "../store/cases.js";
import { listChanges } from "../store/changes.js";
import { closeDatabase } from "../store/database.js";
import { listMovements } from "../store/movements.js";
import type { SummaryDisposition } from "../store/summaries.js";
import { type Command, EXIT, UsageError } from "./command.js";
import { movementsCsv } from "./movement-csv.js";
import { loadRuntime, openRecordedDatabase } from "./runtime.js";

export type OutputFormat = "text" | "json" | "csv";

/** Why a recorded change sent no alert, as the history line says it. */
const QUIET_NOTE: Record<SummaryDisposition, string> = {
  alert: "",
  ignored: "  (not mailed: only movements the watchlist ignores)",
  muted: "  (not mailed: the case was muted)",
};

/** `--format`, with `--json` kept as its short form. */
export function outputFormat(value: unknown, json: boolean): OutputFormat {
  if (value === undefined) return json ? "json" : "text";
  if (value === "text" || value === "json" || value === "csv") return value;
  throw new UsageError(`--format must be text, json or csv, not "${String(value)}"`);
}

export const historyCommand: Command = {
  name: "history",
  summary: "A case's recorded changes, with their new movements",
  usage: "monitor history CNJ [--format text|json|csv] [--json]",
  details: [
    "--format csv   every stored movement of the case, one row each (--json = --format json)",
    "Exit codes: 0 shown, 2 the case was never recorded (or bad number).",
  ],
  options: { json: { type: "boolean", default: false }, format: { type: "string" } },
  allowPositionals: true,
  async run(args, io) {
    const [input, ...extra] = args.positionals;
    if (input === undefined || extra.length > 0)
      throw new UsageError("give exactly one CNJ number");
    const parsed = parseCnjNumber(input);
    if (!parsed.ok) throw new UsageError(parsed.error);
    const format = outputFormat(args.values.format, args.values.json === true);
    const runtime = loadRuntime(io, "history");
    if (!runtime) return EXIT.usage;
    const db = openRecordedDatabase(io, runtime, "history");
    if (!db) return EXIT.usage;
    try {
      const cases = findCasesByNumber(db, parsed.value.digits);
      if (cases.length === 0) {
        io.stderr.write(
          `monitor history: ${parsed.value.formatted} has no recorded history; is it in the watchlist?\n`,
        );
        return EXIT.usage;
      }
      const history = cases.map((c) => {
        const movements = listMovements(db, c.id);
        return {
          number: c.number,
          court: c.court,
          label: c.label,
          firstSeenAt: c.firstSeenAt,
          lastCheckedAt: c.lastCheckedAt,
          changes: listChanges(db, c.id).map((change) => ({
            ...change,
            movements: movements.filter((m) => m.changeId === change.id),
          })),
          movementCount: movements.length,
        };
      });
      if (format === "json") {
        io.stdout.write(`${JSON.stringify({ cases: history })}\n`);
        return EXIT.ok;
      }
      if (format === "csv") {
        const rows = cases.flatMap((c) =>
          listMovements(db, c.id)
            .reverse()
            .map((movement) => ({ number: c.number, court: c.court, label: c.label, movement })),
        );
        io.stdout.write(movementsCsv(rows));
        return EXIT.ok;
      }
      // Our instants (first seen, detected) in the schedule's zone; movement dates as recorded.
      const tz = runtime.config.schedule.timezone;
      for (const h of history) {
        io.stdout.write(`${h.number} (${h.court})${h.label ? ` ${h.label}` : ""}\n`);
        io.stdout.write(
          `  first seen ${h.firstSeenAt ? formatInstant(h.firstSeenAt, tz) : "never"}, ${h.movementCount} movement(s) stored, ${h.changes.length} change(s)\n`,
        );
        for (const change of h.changes) {
          const quiet = QUIET_NOTE[change.summary?.disposition ?? "alert"];
          io.stdout.write(
            `  ${formatInstant(change.detectedAt, tz)}  ${change.kinds.join(", ")}${quiet}\n`,
          );
          for (const m of change.movements) {
            const date = m.dateTime ? formatWallClock(m.dateTime) : "sem data";
            io.stdout.write(`      ${date}  ${m.code ?? "-"}  ${m.name}\n`);
          }
        }
      }
      return EXIT.ok;
    } finally {
      closeDatabase(db);
    }
  },
};
