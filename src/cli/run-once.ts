import { parseCnjNumber } from "../datajud/cnj-number.js";
import { COURT_TIME_ZONE, formatInstant } from "../datajud/dates.js";
import { countText } from "../datajud/glossary.js";
import { LeaseBusyError, LeaseLostError } from "../monitor/run.js";
import type { RunReport } from "../monitor/run-report.js";
import { runSweep, type SweepEvent } from "../monitor/sweep.js";
import { acceptWatchlist } from "../notify/outbox/queue-watchlist-alerts.js";
import { enableCommand } from "../policy/endpoint-health.js";
import { terminalText } from "../text.js";
import { dateNow } from "../time/clock.js";
import type { WatchedCase } from "../watchlist/parse-watchlist.js";
import {
  type Command,
  EXIT,
  PROGRAM,
  programOf,
  stringList,
  systemOf,
  UsageError,
} from "./command.js";
import { interruptedBeforeStartLine } from "./early-interrupt.js";
import { errorNotes } from "./error-notes.js";
import { formatTable } from "./format-table.js";
import { loadRuntime, openMonitorOrReport } from "./runtime.js";
import { type LiveProgress, liveProgress } from "./sweep-progress.js";
import { readWatchlistOrReport, watchlistOptionsOf } from "./watchlist-input.js";

function selectCases(watchlist: readonly WatchedCase[], wanted: readonly string[]): WatchedCase[] {
  if (wanted.length === 0) return [...watchlist];
  const selected: WatchedCase[] = [];
  for (const input of wanted) {
    const parsed = parseCnjNumber(input);
    if (!parsed.ok) throw new UsageError(`--case ${parsed.error}`);
    const matches = watchlist.filter((c) => c.digits === parsed.value.digits);
    if (matches.length === 0) {
      throw new UsageError(
        `--case ${parsed.value.formatted} is not in the watchlist; add it there first`,
      );
    }
    for (const m of matches) if (!selected.includes(m)) selected.push(m);
  }
  return selected;
}

/**
 * One plain line when DJEN could not be reached (or refused this server): what failed, and the
 * two ways out. Null otherwise.
 */
export function djenUnreachableLine(report: RunReport): string | null {
  const p = report.publications;
  if (p === null || p.unreachable === null) return null;
  return `DJEN: ${countText(p.failed, "source", "sources")} not checked: ${p.unreachable}. Run \`${PROGRAM} doctor\` to check the connection; DJEN answers only from Brazil: to run without publications, set DJEN_ENABLED=false.\n`;
}

/** The DJEN phase in a few lines: what was asked, what came, what failed, what is not due yet. */
function publicationsLines(report: RunReport, timeZone: string): string {
  const p = report.publications;
  if (p === null) return "";
  const unreachable = djenUnreachableLine(report);
  if (unreachable !== null) return unreachable;
  const notDue =
    p.notDue > 0
      ? `; ${p.notDue} not due yet${p.nextDueAt === null ? "" : ` (next check due ${formatInstant(p.nextDueAt, timeZone)})`}; \`${PROGRAM} run-once --case CNJ\` asks DJEN for a case now`
      : "";
  const outside = p.outsideWatchlist > 0 ? ` (${p.outsideWatchlist} outside the watchlist)` : "";
  const cancelled =
    p.cancelled > 0 ? `, ${countText(p.cancelled, "cancellation", "cancellations")}` : "";
  const lines = [
    `DJEN: ${countText(p.checked, "source", "sources")} checked, ${p.failed} failed; ${countText(p.newPublications, "new publication", "new publications")}${outside}${cancelled}; ${countText(p.djenRequests, "DJEN request", "DJEN requests")}${notDue}`,
    ...p.failures.map((f) => `  DJEN failed for ${f.source}: ${f.error}`),
    ...(p.deferred > 0
      ? [
          `  DJEN time for this sweep (djen.maxMinutesPerSweep) ran out: ${countText(p.deferred, "source", "sources")} left for the next sweep, asked first`,
        ]
      : []),
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * What became of mail: sent, waiting and why (the server and its error, the next attempt), given
 * up. A run-once from cron exits 3 with mail down (alertsUndelivered); these lines say why.
 */
export function mailLines(report: RunReport, timeZone: string): string {
  const mail = report.mail;
  // Nothing queued, sent, failed or waiting: nothing to say (an unchanged sweep).
  if (
    mail === null ||
    (report.emailsQueued === 0 && mail.sent + mail.failed + mail.dead + mail.pending === 0)
  ) {
    return "";
  }
  const waiting =
    mail.pending > 0 ? `, ${countText(mail.pending, "waiting", "waiting")} in the outbox` : "";
  const lines = [`mail: ${report.emailsQueued} queued, ${mail.sent} sent${waiting}`];
  if (mail.dead > 0) {
    lines.push(
      `  given up: ${countText(mail.dead, "e-mail", "e-mails")} after mail.maxAttempts attempts; \`${PROGRAM} status\` lists them`,
    );
  }
  if (mail.retrying > 0 || mail.failed > 0) {
    const next =
      mail.nextAttemptAt === null ? "" : ` from ${formatInstant(mail.nextAttemptAt, timeZone)}`;
    lines.push(`  not sent: ${mail.lastError ?? "the mail server failed"}`);
    lines.push(
      `  retried${next} by the next \`${PROGRAM} run-once\` or the daemon's mail tick; \`${PROGRAM} status\` shows what waits`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * One line per webhook or chat endpoint with alerts in this run: delivered, waiting (why, and the
 * next attempt), given up, disabled. By its channel and configured name only, never its URL or
 * token; the stored error was cleared of the endpoint's secrets when written.
 */
export function endpointLines(report: RunReport, timeZone: string): string {
  return report.endpoints
    .map((e) => {
      if (e.missing.length > 0) {
        // Queued here, sent by a process that holds the endpoint's secrets.
        const lacking = e.missing.map((v) => terminalText(v)).join(" and ");
        const earlier = e.pending > e.queued ? ` (${e.pending} waiting in all)` : "";
        return `${e.channel} endpoint "${terminalText(e.name)}": ${countText(e.queued, "event", "events")} queued${earlier}; this process has no ${lacking}: the daemon sends them\n`;
      }
      const parts = [...(e.queued > 0 ? [`${e.queued} queued`] : []), `${e.sent} delivered`];
      if (e.pending > 0) parts.push(`${e.pending} waiting`);
      if (e.dead > 0) parts.push(`${e.dead} given up`);
      const said = [parts.join(", ")];
      if (e.condition === "disabled") {
        said.push(
          `DISABLED (${terminalText(e.disabledReason ?? "410 Gone")}): nothing is sent to it until \`${enableCommand(terminalText(e.name))}\``,
        );
      } else if (e.condition === "dead") {
        said.push(`DEAD: alerts to it are being given up; \`${PROGRAM} status\` lists them`);
      }
      if (e.retrying > 0) {
        const next =
          e.nextAttemptAt === null
            ? ""
            : `, next attempt ${formatInstant(e.nextAttemptAt, timeZone)}`;
        said.push(`not delivered: ${terminalText(e.lastError ?? "the endpoint failed")}${next}`);
      }
      return `${e.channel} endpoint "${terminalText(e.name)}": ${said.join("; ")}\n`;
    })
    .join("");
}

/**
 * Whether alerts of this run could not be delivered: an e-mail or endpoint attempt failed or was
 * given up, alerts wait for a retry after a failure, or wait at a disabled endpoint. Alerts held
 * on purpose (a digest's hour, quiet hours) are not undelivered.
 */
export function alertsUndelivered(report: RunReport): boolean {
  const mail = report.mail;
  if (mail !== null && mail.failed + mail.dead + mail.retrying > 0) return true;
  return report.endpoints.some(
    (e) => e.failed + e.dead + e.retrying > 0 || (e.condition === "disabled" && e.pending > 0),
  );
}

/** One plain line when DataJud could not be reached: what failed, where, and what to run. */
export function unreachableLine(report: RunReport): string | null {
  if (report.unreachable === null) return null;
  const cases = report.failed === 1 ? "1 case" : `${report.failed} cases`;
  return `${cases} not checked: ${report.unreachable}. Run \`${PROGRAM} doctor\` to check the connection and the key.\n`;
}

export function renderRunReport(report: RunReport, timeZone: string = COURT_TIME_ZONE): string {
  const unreachable = unreachableLine(report);
  if (unreachable !== null) {
    return `${unreachable}${publicationsLines(report, timeZone)}${mailLines(report, timeZone)}${endpointLines(report, timeZone)}`;
  }
  const errors = errorNotes(
    report.cases.map((c) => c.error),
    { inline: 60, head: 45 },
  );
  const rows = report.cases.map((c, i) => [
    c.outcome,
    c.number,
    c.court,
    c.newMovements > 0 ? String(c.newMovements) : "",
    errors.cells[i] ?? "",
  ]);
  // A sweep stopped before its first answer has no rows: no table, not a header over nothing.
  const table =
    rows.length === 0
      ? ""
      : `${formatTable(["outcome", "case", "court", "new", "error"], rows)}\n${errors.notes.map((n) => `${n}\n`).join("")}`;
  const total =
    `${report.checked} checked, ${report.changed} changed, ${report.failed} failed; ` +
    `${report.datajudRequests} DataJud requests` +
    (report.dryRun ? " (dry run: nothing written)" : "") +
    (report.interrupted
      ? " (interrupted: the rest was not checked; the next sweep checks it)"
      : "");
  const model = report.modelUnavailable === null ? "" : `summaries: ${report.modelUnavailable}\n`;
  return `${table}${total}\n${model}${publicationsLines(report, timeZone)}${mailLines(report, timeZone)}${endpointLines(report, timeZone)}`;
}

export const runOnceCommand: Command = {
  name: "run-once",
  summary: "Check the watched cases once and exit",
  usage: "datajud-monitor run-once [--case CNJ]... [--force] [--dry-run] [--json]",
  details: [
    "--case CNJ   check only this watched case (repeatable)",
    "--force      read every selected case in full, even if its fingerprint did not move",
    "--dry-run    detect and report, write nothing and notify nobody",
    "--json       print the run report as JSON on stdout (logs stay on stderr)",
    "",
    "Each sweep also asks DJEN for the publications of the cases and of the watchlist's OAB",
    "registrations that are due (djen.caseEveryHours, djen.oabEveryHours; with --case, those",
    "cases whether due or not, no registration), unless djen.enabled is false.",
    "",
    "Exit codes: 0 every case checked and every alert delivered (or held for its hour), 1 some",
    "cases (or DJEN checks) failed or the sweep was interrupted, 2 bad config, watchlist or usage,",
    "3 every case checked but alerts could not be delivered (a send failed, was given up, or waits",
    "for a retry or at a disabled endpoint): the outbox keeps them, the lines above say why.",
  ],
  options: {
    case: { type: "string", multiple: true },
    force: { type: "boolean", default: false },
    "dry-run": { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
  async run(args, io) {
    const runtime = loadRuntime(io, "run-once");
    if (!runtime) return EXIT.usage;
    const read = await readWatchlistOrReport(
      io,
      runtime.config.paths.watchlist,
      "run-once",
      watchlistOptionsOf(runtime.config),
    );
    if (!read) return EXIT.usage;
    const { watchlist } = read;
    const selected = selectCases(watchlist.cases, stringList(args.values.case));
    let progress: LiveProgress | null = null;
    const monitor = await openMonitorOrReport(io, runtime, "run-once", () => watchlist, {
      onDataJudEvent: (event) => progress?.onDataJud(event),
      onDjenEvent: (event) => progress?.onDjen(event),
    });
    if (typeof monitor === "number") return monitor;
    // On a terminal, the sweep's progress is drawn on stderr while it runs; nothing elsewhere.
    if (io.signal.aborted) {
      // Ctrl-C while the configuration, watchlist and database were read: no sweep was opened.
      await monitor.close();
      io.stderr.write(interruptedBeforeStartLine(programOf(io), "run-once"));
      return EXIT.failures;
    }
    if (args.values["dry-run"] !== true) {
      // The last good copy the daemon would start on should this file break; an open watchlist
      // incident is over, and its recovery is delivered with the sweep's mail.
      acceptWatchlist(
        {
          db: monitor.db,
          admin: runtime.config.mail.admin,
          domain: monitor.mail.domain,
          now: dateNow(monitor.system.clock),
          policy: monitor.mail.policy(),
        },
        { path: runtime.config.paths.watchlist, text: read.text },
      );
    }
    progress = liveProgress(runtime.live, systemOf(io));
    const shown = progress;
    try {
      const some = stringList(args.values.case).length > 0;
      const deps =
        shown === null
          ? monitor.sweep
          : { ...monitor.sweep, onEvent: (e: SweepEvent) => shown.onSweep(e) };
      const report = await runSweep(deps, {
        watchlist: watchlist.cases,
        selected,
        // --case checks those cases only, due or not: no OAB registration is searched.
        oab: some ? [] : watchlist.oab,
        parties: some ? [] : (watchlist.parties ?? []),
        djen: some ? "all" : "due",
        force: args.values.force === true,
        dryRun: args.values["dry-run"] === true,
        trigger: "manual",
        signal: io.signal,
      });
      shown?.stop();
      monitor.reportDrift();
      io.stdout.write(
        args.values.json === true
          ? `${JSON.stringify(report)}\n`
          : renderRunReport(report, runtime.config.schedule.timezone),
      );
      const djenFailed = (report.publications?.failed ?? 0) > 0;
      if (report.failed > 0 || djenFailed || report.interrupted) return EXIT.failures;
      return alertsUndelivered(report) ? EXIT.attention : EXIT.ok;
    } catch (error) {
      if (!(error instanceof LeaseBusyError || error instanceof LeaseLostError)) throw error;
      io.stderr.write(`${programOf(io)} run-once: ${error.message}\n`);
      return EXIT.failures;
    } finally {
      shown?.stop();
      await monitor.close();
    }
  },
};
