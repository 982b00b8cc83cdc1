import { existsSync } from "node:fs";
import { formatSaoPaulo } from "../datajud/dates.js";
import { type CaseRow, listCases } from "../store/cases.js";
import { closeDatabase, type Db, openDatabase } from "../store/database.js";
import { deadOutbox, outboxCounts, pendingMailByCase } from "../store/outbox.js";
import { lastRun } from "../store/runs.js";
import { type Command, EXIT } from "./command.js";
import { formatTable } from "./format-table.js";
import { loadRuntime } from "./runtime.js";

export interface CaseStatus {
  number: string;
  court: string;
  label: string | null;
  lastCheckedAt: string | null;
  lastOutcome: string | null;
  lastChangedAt: string | null;
  lastError: string | null;
  consecutiveFailures: number;
  consecutiveNotFound: number;
  goneAt: string | null;
  pendingMail: number;
}

function toStatus(row: CaseRow, pending: ReadonlyMap<number, number>): CaseStatus {
  return {
    number: row.number,
    court: row.court,
    label: row.label,
    lastCheckedAt: row.lastCheckedAt,
    lastOutcome: row.lastOutcome,
    lastChangedAt: row.lastChangedAt,
    lastError: row.lastError,
    consecutiveFailures: row.consecutiveFailures,
    consecutiveNotFound: row.consecutiveNotFound,
    goneAt: row.goneAt,
    pendingMail: pending.get(row.id) ?? 0,
  };
}

function when(iso: string | null): string {
  return iso === null ? "never" : formatSaoPaulo(iso);
}

function outcomeText(s: CaseStatus): string {
  if (s.goneAt !== null) return "gone";
  if (s.lastOutcome === "failed") return `failed x${s.consecutiveFailures}`;
  if (s.lastOutcome === "not_found") return `not found x${s.consecutiveNotFound}`;
  return s.lastOutcome ?? "not checked";
}

export interface DeadMail {
  recipient: string;
  subject: string | null;
  attempts: number;
  lastError: string | null;
}

export function readStatus(db: Db): {
  cases: CaseStatus[];
  lastRun: ReturnType<typeof lastRun>;
  mail: ReturnType<typeof outboxCounts>;
  deadMail: DeadMail[];
} {
  const pending = pendingMailByCase(db);
  return {
    mail: outboxCounts(db),
    deadMail: deadOutbox(db).map((row) => ({
      recipient: row.recipient,
      subject: row.subject,
      attempts: row.attempts,
      lastError: row.lastError,
    })),
    cases: listCases(db, { watchedOnly: true }).map((row) => toStatus(row, pending)),
    lastRun: lastRun(db),
  };
}

export const statusCommand: Command = {
  name: "status",
  summary: "Every watched case: last check, last change, last error, pending mail",
  usage: "monitor status [--json]",
  details: ["Times are America/Sao_Paulo. --json prints the same as one JSON object for scripts."],
  options: { json: { type: "boolean", default: false } },
  async run(args, io) {
    const runtime = loadRuntime(io, "status");
    if (!runtime) return EXIT.usage;
    const path = runtime.config.paths.db;
    if (!existsSync(path)) {
      io.stdout.write(
        args.values.json === true
          ? `${JSON.stringify({ database: path, lastRun: null, cases: [] })}\n`
          : `no database yet at ${path}: run \`monitor run-once\` for a first sweep\n`,
      );
      return EXIT.ok;
    }
    const db = openDatabase(path);
    try {
      const status = readStatus(db);
      if (args.values.json === true) {
        io.stdout.write(`${JSON.stringify({ database: path, ...status })}\n`);
        return EXIT.ok;
      }
      const rows = status.cases.map((s) => [
        s.number,
        s.court,
        s.label ?? "",
        when(s.lastCheckedAt),
        outcomeText(s),
        when(s.lastChangedAt),
        s.pendingMail > 0 ? String(s.pendingMail) : "",
        s.lastError ?? "",
      ]);
      io.stdout.write(
        `${formatTable(["case", "court", "label", "last check", "outcome", "last change", "mail", "last error"], rows)}\n`,
      );
      for (const dead of status.deadMail) {
        io.stdout.write(
          `undeliverable mail to ${dead.recipient} after ${dead.attempts} attempt(s): ${dead.subject ?? ""} (${dead.lastError ?? "no error recorded"})\n`,
        );
      }
      const run = status.lastRun;
      const failing = status.cases.filter((s) => s.lastOutcome === "failed").length;
      io.stdout.write(
        `${status.cases.length} watched case(s); ${failing} failing` +
          `; mail: ${status.mail.pending} pending, ${status.mail.sent} sent, ${status.mail.dead} dead` +
          (run ? `; last sweep ${when(run.startedAt)} (${run.status})\n` : "; no sweep yet\n"),
      );
      return EXIT.ok;
    } finally {
      closeDatabase(db);
    }
  },
};
