import { existsSync } from "node:fs";
import { parseCnjNumber } from "../datajud/cnj-number.js";
import { formatSaoPaulo } from "../datajud/dates.js";
import { findCasesByNumber } from "../store/cases.js";
import { listChanges } from "../store/changes.js";
import { closeDatabase, openDatabase } from "../store/database.js";
import { listMovements } from "../store/movements.js";
import { type Command, EXIT, UsageError } from "./command.js";
import { loadRuntime } from "./runtime.js";

export const historyCommand: Command = {
  name: "history",
  summary: "A case's recorded changes, with their new movements",
  usage: "monitor history CNJ [--json]",
  details: ["Exit codes: 0 shown, 2 the case was never recorded (or bad number)."],
  options: { json: { type: "boolean", default: false } },
  allowPositionals: true,
  async run(args, io) {
    const [input, ...extra] = args.positionals;
    if (input === undefined || extra.length > 0)
      throw new UsageError("give exactly one CNJ number");
    const parsed = parseCnjNumber(input);
    if (!parsed.ok) throw new UsageError(parsed.error);
    const runtime = loadRuntime(io, "history");
    if (!runtime) return EXIT.usage;
    const path = runtime.config.paths.db;
    if (!existsSync(path)) {
      io.stderr.write(
        `monitor history: no database yet at ${path}; run \`monitor run-once\` first\n`,
      );
      return EXIT.usage;
    }
    const db = openDatabase(path);
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
      if (args.values.json === true) {
        io.stdout.write(`${JSON.stringify({ cases: history })}\n`);
        return EXIT.ok;
      }
      for (const h of history) {
        io.stdout.write(`${h.number} (${h.court})${h.label ? ` ${h.label}` : ""}\n`);
        io.stdout.write(
          `  first seen ${h.firstSeenAt ? formatSaoPaulo(h.firstSeenAt) : "never"}, ${h.movementCount} movement(s) stored, ${h.changes.length} change(s)\n`,
        );
        for (const change of h.changes) {
          io.stdout.write(`  ${formatSaoPaulo(change.detectedAt)}  ${change.kinds.join(", ")}\n`);
          for (const m of change.movements) {
            const date = m.dateTime ? formatSaoPaulo(m.dateTime) : "sem data";
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
