import { type DjenCheck, djenCheckOf } from "../../policy/case-status.js";
import { latestScheduledAt } from "../../policy/delivery-time.js";
import type { DjenView } from "../../policy/djen-plan.js";
import type { MailPolicy } from "../../policy/mail-policy.js";
import { getCase } from "../../store/cases.js";
import { type Db, immediate } from "../../store/database.js";
import { listDjenSources } from "../../store/djen-sources.js";
import { ledgerReceipt, sealLedger } from "../../store/ledger.js";
import { latestMovementTimes } from "../../store/movements.js";
import { outboxIdByDedupeKey } from "../../store/outbox.js";
import { type PublicationRow, publicationsSeenSince } from "../../store/publications.js";
import type { WatchedCase, WatchedOab } from "../../watchlist/parse-watchlist.js";
import { buildStatusReport, type StatusReport } from "../render/status-report.js";
import { concernsRegistration, reportPublication } from "../render/status-report-djen.js";
import { statusReport, statusReportKey } from "./messages.js";
import { dedupeKey, type Endpoint, queuedRows, queueMessage } from "./queue.js";

/** A report whose hour passed while the monitor was down still goes out within this window. */
export const DEFAULT_REPORT_LOOKBACK_MS = 24 * 60 * 60_000;

/** A report's publications are those read since the schedule's previous hour, at most this far back. */
const MAX_PERIOD_MS = 31 * 24 * 60 * 60_000;

export interface QueueStatusReportsInput {
  db: Db;
  policy: MailPolicy;
  /** The watchlist in force: a report lists the watcher's cases in it, in its order. */
  cases: readonly WatchedCase[];
  /** The watchlist's OAB registrations: a report lists the watcher's, with their DJEN checks. */
  oab: readonly WatchedOab[];
  now: Date;
  staleAfterDays: number;
  /** The domain of our Message-IDs. */
  domain: string;
  /** @default 24 h */
  lookbackMs?: number;
  /** Whether DJEN is on, and when each source is due. @default on, no plan */
  djen?: DjenView;
}

/** Read in the period, or seen cancelled in it (news of the period too). */
function inPeriod(row: PublicationRow, start: string): boolean {
  return row.firstSeenAt >= start || (row.cancelledAt !== null && row.cancelledAt >= start);
}

/** A watcher's report that is due: the fire time it is for and the period it covers. */
interface DueReport {
  address: string;
  fire: Date;
  periodStart: Date;
}

/** What every report of one call reads from the database once, before the transaction. */
interface ReportSources {
  lastMovement: Map<number, string>;
  check: (source: string) => DjenCheck | null;
  labels: Map<string, string | null>;
  publications: PublicationRow[];
  djenOff: boolean;
}

/**
 * Queues the status report of every watcher whose `status_report` schedule has fired since the
 * lookback window began and whose report for that fire time is not queued yet. Called every minute
 * by the daemon and after every sweep; the dedupe key (watcher, fire time) makes it once per fire.
 * Returns how many reports were queued.
 */
export function queueStatusReports(input: QueueStatusReportsInput): number {
  const { db, policy, now } = input;
  const due = dueReports(input);
  if (due.length === 0) return 0;
  const djen = input.djen ?? { enabled: true, plan: null };
  const oldest = Math.min(...due.map((d) => d.periodStart.getTime()));
  const sources: ReportSources = {
    lastMovement: latestMovementTimes(db),
    check: djenChecks(db, djen),
    labels: caseLabels(input.cases),
    publications: publicationsSeenSince(db, new Date(oldest).toISOString()),
    djenOff: !djen.enabled,
  };
  return immediate(db, () => {
    // The report cites the record's newest hash: everything written so far is chained first.
    sealLedger(db);
    let queued = 0;
    for (const report of due) {
      queued += queuedRows(
        queueMessage(
          { db, domain: input.domain, at: now, policy },
          statusReport(watcherReport(input, report, sources), report.fire),
          [{ channel: "email", address: report.address }],
        ),
      );
    }
    return queued;
  });
}

/** The watchers whose schedule fired within the lookback and whose report for it is not queued. */
function dueReports(input: QueueStatusReportsInput): DueReport[] {
  const { db, policy, now } = input;
  const due: DueReport[] = [];
  for (const watcher of policy.watchers) {
    if (watcher.statusReport === null) continue;
    const fire = latestScheduledAt(
      watcher.statusReport,
      policy.timezone,
      now,
      input.lookbackMs ?? DEFAULT_REPORT_LOOKBACK_MS,
    );
    if (fire === null) continue;
    const endpoint: Endpoint = { channel: "email", address: watcher.address };
    if (outboxIdByDedupeKey(db, dedupeKey(statusReportKey(fire), endpoint)) === undefined) {
      // The period ends now, not at the fire time: what was read since is in no report yet.
      const previous = latestScheduledAt(
        watcher.statusReport,
        policy.timezone,
        new Date(fire.getTime() - 1),
        MAX_PERIOD_MS,
      );
      const periodStart = previous ?? new Date(fire.getTime() - MAX_PERIOD_MS);
      due.push({ address: watcher.address, fire, periodStart });
    }
  }
  return due;
}

/** Each DJEN source's last check, by "case:DIGITS" or "oab:KEY"; none with DJEN off. */
function djenChecks(db: Db, djen: DjenView): (source: string) => DjenCheck | null {
  // DJEN off: no check is shown, so none counts as failing; the report says it is off.
  const sources = new Map(
    (djen.enabled ? listDjenSources(db) : []).map((r) => [`${r.kind}:${r.key}`, r]),
  );
  return (key) => {
    const row = sources.get(key);
    return row === undefined ? null : djenCheckOf(row, djen.plan);
  };
}

/** Each watched case number's label: the first entry's that has one. */
function caseLabels(cases: readonly WatchedCase[]): Map<string, string | null> {
  const labels = new Map<string, string | null>();
  for (const c of cases) labels.set(c.digits, labels.get(c.digits) ?? c.label);
  return labels;
}

/** One watcher's report: their cases in watchlist order, their registrations, the period's publications. */
function watcherReport(
  input: QueueStatusReportsInput,
  { address, periodStart }: DueReport,
  sources: ReportSources,
): StatusReport {
  const { db } = input;
  const start = periodStart.toISOString();
  const who = address.toLowerCase();
  const told = (notify: readonly string[]): boolean => notify.some((a) => a.toLowerCase() === who);
  const watched = input.cases.filter((c) => told(c.notify));
  const cases = watched.map((c) => {
    const row = getCase(db, c.digits, c.court);
    return {
      number: c.number,
      court: c.court,
      label: c.label,
      policy: c.policy,
      row,
      lastMovementAt: row === undefined ? null : (sources.lastMovement.get(row.id) ?? null),
      djen: sources.check(`case:${c.digits}`),
      record: ledgerReceipt(db, c.digits, start),
    };
  });
  const oab = input.oab.filter((o) => told(o.notify));
  const theirs = (row: PublicationRow): boolean =>
    (row.caseNumber !== null && watched.some((c) => c.digits === row.caseNumber)) ||
    oab.some((o) => concernsRegistration(row, { key: o.key, ...o.registration }));
  return buildStatusReport({
    cases,
    now: input.now,
    staleAfterDays: input.staleAfterDays,
    timezone: input.policy.timezone,
    djenOff: sources.djenOff,
    oab: oab.map((o) => ({ registration: o.key, djen: sources.check(`oab:${o.key}`) })),
    periodStart: start,
    publications: sources.publications
      .filter((row) => inPeriod(row, start) && theirs(row))
      .map((row) => reportPublication(row, sources.labels))
      .sort(
        (a, b) => a.availableOn.localeCompare(b.availableOn) || a.djenId.localeCompare(b.djenId),
      ),
  });
}
