import type { MonitorConfig } from "../config/load-config.js";
import { formatInstant } from "../datajud/dates.js";
import { countText } from "../datajud/glossary.js";
import {
  type CaseStatus as CaseStatusView,
  caseStatuses,
  type DjenCheck,
  djenCheckOf,
} from "../policy/case-status.js";
import { type DjenView, djenRetryAtMs } from "../policy/djen-plan.js";
import { enableCommand } from "../policy/endpoint-health.js";
import { type EndpointStatus, endpointStatuses } from "../policy/endpoint-status.js";
import {
  courtFreshnessLine,
  type FreshnessStatus,
  freshnessStatus,
  saoPauloDay,
} from "../policy/source-freshness.js";
import { acknowledgementCounts, recentAcknowledgements } from "../store/acknowledgements.js";
import { listCases } from "../store/cases.js";
import { closeDatabase, type Db, databaseExists, openDatabase } from "../store/database.js";
import { getDjenReach } from "../store/djen-reach.js";
import { listDjenSources } from "../store/djen-sources.js";
import { endpointStates } from "../store/endpoint-state.js";
import { type HealthIncident, listIncidents } from "../store/health-incidents.js";
import { lastGoodWatchlist } from "../store/last-good-watchlist.js";
import {
  countWaitingOutbox,
  deadOutbox,
  emailsGivenUpSinceDelivery,
  endpointOutbox,
  outboxCounts,
  pendingMailByCase,
  type RetryingMail,
  retryingOutbox,
} from "../store/outbox.js";
import { lastRun } from "../store/runs.js";
import { freshnessInputs, instanceFreshness, listDjenGaps } from "../store/source-freshness.js";
import { terminalText } from "../text.js";
import { dateNow } from "../time/clock.js";
import {
  loadWatchlist,
  type Watchlist,
  type WatchlistResult,
} from "../watchlist/parse-watchlist.js";
import { formatPositionedError } from "../yaml/positioned-error.js";
import { type Command, EXIT, systemOf } from "./command.js";
import { errorNotes } from "./error-notes.js";
import { formatTable } from "./format-table.js";
import { lastSweepLine } from "./last-sweep.js";
import { type PartyStatus, partyLine, partyStatuses } from "./radar-status.js";
import { djenViewOf, loadRuntime } from "./runtime.js";
import { attentionReasons } from "./status-attention.js";
import { type EscalationStatus, escalationLines, escalationStatus } from "./status-escalations.js";
import { readableOutput } from "./terminal.js";

/** A case as `monitor status` shows it: the one status view (policy/case-status.ts) and its mail. */
export type CaseStatus = Omit<CaseStatusView, "state"> & {
  /** Alerts waiting to be sent for the case. */
  pendingMail: number;
};

/** What the current watchlist says of mutes, read the way the sweeps read it; whether DJEN is on. */
interface MuteView {
  watchlist: Watchlist | null;
  now: Date;
  timezone: string;
  /** @default on, no plan */
  djen?: DjenView;
  /** The configured webhook and chat endpoints (channel and name). @default none */
  endpoints?: ReadonlyArray<{ channel: string; name: string }>;
}

/** A source not due yet is "ok, next check due <when>", never failing. */
function djenText(check: DjenCheck | null, enabled: boolean, timeZone: string): string {
  if (!enabled) return "off";
  if (check === null) return "";
  if (check.lastOutcome === "failed") return `failed x${check.consecutiveFailures}`;
  if (check.lastOutcome === "ok" && check.nextCheckDueAt !== null) {
    return `ok, next check due ${when(check.nextCheckDueAt, timeZone)}`;
  }
  return check.lastOutcome ?? "";
}

/** The table's narrower form of djenText: answered, and not due again until "due 06/12 15:00". */
function djenCell(check: DjenCheck | null, enabled: boolean, timeZone: string, now: Date): string {
  if (enabled && check?.lastOutcome === "ok" && check.nextCheckDueAt !== null) {
    return `due ${shortWhen(check.nextCheckDueAt, timeZone, now)}`;
  }
  return djenText(check, enabled, timeZone);
}

/** The status table's width: its rows fit a 100-column terminal (the label is cut to fit). */
export const STATUS_TABLE_WIDTH = 100;

/** A table time: "06/12 15:00" within the current year, "20/11/2023" before it; "never". */
function shortWhen(iso: string | null, timeZone: string, now: Date): string {
  if (iso === null) return "never";
  const full = formatInstant(iso, timeZone);
  const year = formatInstant(now.toISOString(), timeZone).slice(6, 10);
  const match = /^(\d\d\/\d\d)\/(\d{4}) (\d\d:\d\d)$/u.exec(full);
  if (match === null) return full;
  return match[2] === year ? `${match[1]} ${match[3]}` : `${match[1]}/${match[2]}`;
}

/** Every time in this table is one of our own instants, shown in the schedule's time zone. */
function when(iso: string | null, timeZone: string): string {
  return iso === null ? "never" : formatInstant(iso, timeZone);
}

function checkText(s: CaseStatus): string {
  if (s.goneAt !== null) return "gone";
  if (s.lastOutcome === "failed") return `failed x${s.consecutiveFailures}`;
  if (s.lastOutcome === "not_found") return `not found x${s.consecutiveNotFound}`;
  return s.lastOutcome ?? "not checked";
}

/** The check's outcome, and "muted" (until when: the watchlist, and --json's `muted`). */
function outcomeText(s: CaseStatus): string {
  return s.muted === false ? checkText(s) : `${checkText(s)}, muted`;
}

/**
 * Why DataJud may not have a case, under the table when some are not found (or gone): a person
 * reading "not found" should know it is often no mistake of theirs, and what to check.
 */
export function notFoundLines(cases: readonly CaseStatus[], threshold: number): string[] {
  const missing = cases.filter((s) => s.goneAt !== null || s.lastOutcome === "not_found");
  if (missing.length === 0) return [];
  const numbers = missing.map((s) => `${s.number} (${s.court})`).join(", ");
  return [
    `Not found in DataJud: ${numbers}. DataJud's public API`,
    "  - leaves out cases under seal (segredo de justiça): they never appear in it;",
    "  - has a case only once its court has sent it: a new case may take days or weeks to appear;",
    "  - keeps each case in one court's index: check the number's court; a superior court's record",
    "    (STJ, TST...) or a successor court's needs `court:` in the watchlist.",
    `  After ${countText(threshold, "clean not-found answer", "clean not-found answers")} in a row a case counts as gone and mail.admin is told; a failed check never counts.`,
  ];
}

/**
 * One webhook or chat endpoint: its condition, then its alerts (pending, retrying with the next
 * attempt and last error, dead, delivered). Its name and channel only, never its URL; the stored
 * errors were cleared of its secrets when written.
 */
export function endpointLine(e: EndpointStatus, timeZone: string): string {
  const name = `${e.channel} endpoint "${terminalText(e.name)}"`;
  const parts: string[] = [];
  if (e.condition === "disabled") {
    parts.push(
      `DISABLED since ${when(e.disabledAt, timeZone)} (${terminalText(e.disabledReason ?? "410 Gone")}); nothing is sent to it until: ${enableCommand(terminalText(e.name))}`,
    );
  } else if (e.condition === "dead") {
    parts.push(`DEAD since ${when(e.deadSince, timeZone)}: alerts to it are being given up`);
  }
  if (!e.configured) parts.push("no longer in the configuration");
  if (e.daemonMissing.length > 0) {
    // Loud: its alerts are queued and nothing sends them until the daemon has the secret.
    const lacking = e.daemonMissing.map((v) => terminalText(v)).join(" and ");
    parts.push(
      `NOT SENT: the daemon has had no ${lacking} since ${when(e.daemonCheckedAt, timeZone)}; its alerts wait in the outbox until the daemon is restarted with it (environment, ${e.daemonMissing[0] ?? "X"}_FILE or a systemd credential)`,
    );
  }
  parts.push(`${e.pending} pending`);
  if (e.retrying > 0) {
    parts.push(`${e.retrying} retrying, next attempt ${when(e.nextAttemptAt, timeZone)}`);
  }
  parts.push(`${e.dead} dead`, `${e.sent} delivered`);
  if (e.lastError !== null && (e.retrying > 0 || e.dead > 0)) {
    parts.push(`last error: ${terminalText(e.lastError)}`);
  }
  return `${name}: ${parts.join("; ")}`;
}

const INCIDENT_TEXT: Record<HealthIncident["kind"], string> = {
  sweeps_failing: "DataJud answers no sweep",
  auth_rejected: "DataJud rejects the API key",
  djen_failing: "DJEN answers no publication check",
  watchlist_invalid: "the watchlist file is invalid: the daemon runs on its last good copy",
};

export interface DeadMail {
  /** email, or the webhook or chat channel of an endpoint (`recipient` is then its name). */
  channel: string;
  recipient: string;
  subject: string | null;
  attempts: number;
  lastError: string | null;
}

export interface StatusView {
  cases: CaseStatus[];
  lastRun: ReturnType<typeof lastRun>;
  mail: ReturnType<typeof outboxCounts> & {
    /** Of the pending: not due yet (digest hour, quiet hours, retry backoff). */
    waiting: number;
    /** Of the pending: failed at least once; the newest failure and the soonest retry. */
    retrying: RetryingMail;
  };
  deadMail: DeadMail[];
  /** Health problems mail.admin was told of and that are not over yet. */
  incidents: Array<{ kind: HealthIncident["kind"]; since: string; toldTo: string }>;
  /** The OAB registrations DJEN was asked about, with their last check. */
  oab: Array<{ registration: string } & DjenCheck>;
  /** false: djen.enabled is false; no DJEN check is shown, none counts as failing. */
  djenEnabled: boolean;
  /**
   * DJEN could not be reached at its last tries (null: it answered, or it is off): since when,
   * how many trips in a row, why, and when the daemon tries it again between sweeps.
   */
  djenUnreachable: { trippedAt: string; trips: number; reason: string; retryAt: string } | null;
  /** Each webhook and chat endpoint: configured, or with alerts or state left in the database. */
  endpoints: EndpointStatus[];
  /** How fresh each source is per court and instance, what one source has that the other lacks. */
  freshness: ReturnType<typeof readFreshness>;
  /** The watchlist's parties (the radar, docs/radar.md); absent when it watches none. */
  parties?: PartyStatus[];
  /**
   * Urgent alerts that asked to be acknowledged (docs/channels.md, Acknowledgement): counts, and
   * the latest few with who acknowledged them when; absent when none ever asked.
   */
  acknowledgements?: {
    asked: number;
    acknowledged: number;
    waiting: number;
    expired: number;
    latest: Array<{
      subject: string;
      queuedAt: string;
      expiresAt: string;
      acknowledgedAt: string | null;
      acknowledgedBy: string | null;
    }>;
  };
  /** Escalation steps (docs/channels.md, Escalation); absent when no alert ever had a chain. */
  escalations?: EscalationStatus;
}

const ACKS_LISTED = 5;

function acknowledgementsOf(db: Db, now: Date): StatusView["acknowledgements"] {
  const counts = acknowledgementCounts(db, now.toISOString());
  if (counts.asked === 0) return undefined;
  const latest = recentAcknowledgements(db, "", ACKS_LISTED).map((a) => ({
    subject: a.subject,
    queuedAt: a.createdAt,
    expiresAt: a.expiresAt,
    acknowledgedAt: a.acknowledgedAt,
    acknowledgedBy: a.acknowledgedBy,
  }));
  return { ...counts, latest };
}

/** `monitor status`'s lines about acknowledgements: the counts, then the latest alerts. */
export function acknowledgementLines(
  acks: NonNullable<StatusView["acknowledgements"]>,
  when: (iso: string) => string,
  now: Date,
): string[] {
  const lines = [
    `urgent alerts asking acknowledgement: ${acks.waiting} waiting, ${acks.acknowledged} acknowledged, ${acks.expired} expired unacknowledged`,
  ];
  for (const a of acks.latest) {
    const state =
      a.acknowledgedAt !== null
        ? `acknowledged ${when(a.acknowledgedAt)} by ${a.acknowledgedBy ?? "?"}`
        : a.expiresAt <= now.toISOString()
          ? `NOT acknowledged (link expired ${when(a.expiresAt)})`
          : `waiting (link valid until ${when(a.expiresAt)})`;
    lines.push(`  ${when(a.queuedAt)} ${a.subject}: ${state}`);
  }
  return lines;
}

/**
 * docs/freshness.md: each court's figures and findings, and each watched instance's DataJud
 * update (the court's wall clock) with when the monitor saw it move (our instant).
 */
export function readFreshness(
  db: Db,
  now: Date,
): FreshnessStatus & {
  instances: Array<{
    number: string;
    court: string;
    instance: string;
    lastUpdatedAt: string | null;
    movedAt: string | null;
  }>;
} {
  const inputs = freshnessInputs(db, saoPauloDay(now.toISOString()));
  const cases = listCases(db, { watchedOnly: true });
  const numbers = new Map(cases.map((c) => [c.id, c.number]));
  const courts = new Map(cases.map((c) => [c.id, c.court]));
  return {
    ...freshnessStatus(inputs, listDjenGaps(db), numbers, now),
    instances: instanceFreshness(db).map((i) => ({
      number: numbers.get(i.caseId) ?? "?",
      court: courts.get(i.caseId) ?? "?",
      instance: i.instance,
      lastUpdatedAt: i.lastUpdatedAt ?? i.indexedAt,
      movedAt: i.movedAt,
    })),
  };
}

/** The status lines of docs/freshness.md: one per court, then each finding. */
export function freshnessLines(f: FreshnessStatus, tz: string): string[] {
  return [
    ...f.courts.map(courtFreshnessLine),
    ...f.dataJudLate.map(
      (n) =>
        `DataJud late for ${n.number}: DJEN made an intimação available on ${n.availableOn} (${n.days} days ago) that DataJud does not record yet (${n.court.toUpperCase()} mark: ${n.lateAfterDays} days)`,
    ),
    ...f.djenGaps.map(
      (g) =>
        `DJEN missed ${g.number}: DataJud records an act made available on ${g.availableOn} that DJEN, asked completely, did not return; the lawyers were warned ${when(g.foundAt, tz)}${g.urgent ? " (urgent)" : ""}`,
    ),
  ];
}

export function readStatus(db: Db, view: MuteView): StatusView {
  const pending = pendingMailByCase(db);
  const djenEnabled = view.djen?.enabled ?? true;
  // DJEN off: no check is shown, so none counts as failing.
  const sources = djenEnabled ? listDjenSources(db) : [];
  const djen = new Map(sources.map((s) => [`${s.kind}:${s.key}`, s]));
  const rows = listCases(db, { watchedOnly: true });
  const statuses = caseStatuses(rows, {
    cases: view.watchlist?.cases ?? null,
    now: view.now,
    timezone: view.timezone,
    djen,
    plan: view.djen?.plan ?? null,
  });
  // Registrations the watchlist in force follows (all ever asked when it cannot be read).
  const followed = view.watchlist === null ? null : new Set(view.watchlist.oab.map((o) => o.key));
  return {
    mail: {
      ...outboxCounts(db, "email"),
      waiting: countWaitingOutbox(db, view.now.toISOString()),
      retrying: retryingOutbox(db),
    },
    deadMail: deadOutbox(db).map((row) => ({
      channel: row.channel,
      recipient: row.recipient,
      subject: row.subject,
      attempts: row.attempts,
      lastError: row.lastError,
    })),
    cases: rows.map((row, i) => {
      const { state: _state, ...shown } = statuses[i] as CaseStatusView;
      return { ...shown, pendingMail: pending.get(row.id) ?? 0 };
    }),
    oab: sources
      .filter((s) => s.kind === "oab" && (followed === null || followed.has(s.key)))
      .map((s) => ({ registration: s.key, ...djenCheckOf(s, view.djen?.plan ?? null) })),
    djenEnabled,
    djenUnreachable: djenEnabled ? unreachableOf(db) : null,
    endpoints: endpointStatuses(view.endpoints ?? [], endpointOutbox(db), endpointStates(db)),
    freshness: readFreshness(db, view.now),
    ...((view.watchlist?.parties ?? []).length === 0
      ? {}
      : {
          parties: partyStatuses(db, view.watchlist?.parties ?? [], djen, view.djen?.plan ?? null),
        }),
    ...(() => {
      const acknowledgements = acknowledgementsOf(db, view.now);
      return acknowledgements === undefined ? {} : { acknowledgements };
    })(),
    ...(() => {
      const escalations = escalationStatus(db, view.now);
      return escalations === undefined ? {} : { escalations };
    })(),
    lastRun: lastRun(db),
    incidents: listIncidents(db)
      .filter((i) => i.recoveredAt === null && (djenEnabled || i.kind !== "djen_failing"))
      .map((i) => ({ kind: i.kind, since: i.startedAt, toldTo: i.recipient })),
  };
}

function unreachableOf(db: Db): StatusView["djenUnreachable"] {
  const reach = getDjenReach(db);
  if (reach === null) return null;
  const retryAt = new Date(djenRetryAtMs(Date.parse(reach.trippedAt), reach.trips)).toISOString();
  return { ...reach, retryAt };
}

/** Why DJEN has not answered, and when it is tried next: a failure, never "no publications". */
export function djenUnreachableLine(
  u: NonNullable<StatusView["djenUnreachable"]>,
  tz: string,
): string {
  return `DJEN could not be reached at its last ${countText(u.trips, "try", "tries")} (last ${when(u.trippedAt, tz)}: ${terminalText(u.reason)}); the daemon tries it again at ${when(u.retryAt, tz)}, or the next sweep if that comes first`;
}

/** The watchlist file as status shows it: valid, or its errors and the copy the daemon runs on. */
export interface WatchlistView {
  file: string;
  valid: boolean;
  /** `file:line:col message`, as validate prints them. */
  errors: string[];
  /** Since when the daemon runs on the last good copy because of them; null: it does not. */
  refusedSince: string | null;
  /** When the last good copy kept in the database was accepted; null: none is kept. */
  goodCopyAcceptedAt: string | null;
}

/** `db` null: no database yet, so no good copy can have been kept. */
export function watchlistView(file: string, loaded: WatchlistResult, db: Db | null): WatchlistView {
  const copy = db === null ? undefined : lastGoodWatchlist(db);
  const kept = copy?.path === file ? copy : undefined;
  return {
    file,
    valid: loaded.ok,
    errors: loaded.ok ? [] : loaded.errors.map(formatPositionedError),
    refusedSince: loaded.ok ? null : (kept?.refusedSince ?? null),
    goodCopyAcceptedAt: kept?.acceptedAt ?? null,
  };
}

/** The file's errors under a heading that says since when and what the daemon runs on. */
export function watchlistLines(view: WatchlistView, tz: string): string[] {
  if (view.valid) return [];
  const since = view.refusedSince === null ? "" : ` since ${when(view.refusedSince, tz)}`;
  const on =
    view.goodCopyAcceptedAt === null
      ? "no good copy of it is kept: the daemon will not start (exit 2) until it is fixed"
      : view.refusedSince === null
        ? `a daemon started now runs on its last good copy, accepted ${when(view.goodCopyAcceptedAt, tz)}`
        : `the daemon runs on its last good copy, accepted ${when(view.goodCopyAcceptedAt, tz)}`;
  return [
    `WATCHLIST INVALID${since}: ${countText(view.errors.length, "error", "errors")} in ${view.file}; ${on}`,
    ...view.errors.map((e) => `  ${e}`),
  ];
}

/**
 * Before the first sweep there is no database, but a broken watchlist already means the daemon
 * will not start (no good copy can be kept yet): that needs attention, not "all well".
 */
function noDatabaseYet(
  io: Parameters<Command["run"]>[1],
  path: string,
  loaded: WatchlistResult,
  config: MonitorConfig,
  json: boolean,
): number {
  const watchlist = watchlistView(config.paths.watchlist, loaded, null);
  const attention = attentionReasons({
    now: dateNow(systemOf(io).clock),
    watchlist: { errors: watchlist.errors.length, goodCopy: false },
    cases: [],
    oab: [],
    djenUnreachable: false,
    incidents: [],
    endpoints: [],
    mailRetrying: 0,
    mailGivenUp: 0,
    lastRun: undefined,
    schedule: config.schedule,
  });
  const code = attention.length > 0 ? EXIT.attention : EXIT.ok;
  if (json) {
    io.stdout.write(
      `${JSON.stringify({ database: path, lastRun: null, cases: [], watchlistFile: watchlist, attention })}\n`,
    );
    return code;
  }
  const lines = [
    `no database yet at ${path}: run \`monitor run-once\` for a first sweep`,
    ...watchlistLines(watchlist, config.schedule.timezone),
  ];
  if (attention.length > 0) lines.push(`needs attention: ${attention.join("; ")}`);
  io.stdout.write(`${lines.join("\n")}\n`);
  return code;
}

type Status = ReturnType<typeof readStatus>;

/** Why `status` exits 3, each reason in a few words (also --json's attention). */
function statusAttention(
  db: Db,
  status: Status,
  watchlist: WatchlistView,
  config: MonitorConfig,
  now: Date,
): string[] {
  return attentionReasons({
    now,
    watchlist: {
      errors: watchlist.errors.length,
      goodCopy: watchlist.goodCopyAcceptedAt !== null,
    },
    cases: status.cases,
    oab: status.oab,
    djenUnreachable: status.djenUnreachable !== null,
    incidents: [
      ...status.incidents
        .filter((i) => i.kind !== "watchlist_invalid")
        .map((i) => INCIDENT_TEXT[i.kind]),
      // docs/freshness.md: a court silent in DataJud while DJEN publishes.
      ...status.freshness.courts
        .filter((c) => c.silentSince !== null)
        .map((c) => `DataJud silent for ${c.court.toUpperCase()} while DJEN publishes`),
    ],
    endpoints: status.endpoints,
    mailRetrying: status.mail.retrying.rows,
    mailGivenUp: emailsGivenUpSinceDelivery(db),
    lastRun: status.lastRun,
    schedule: config.schedule,
  });
}

/** The table of watched cases, and the notes of the errors its rows point to. */
function caseTable(status: Status, tz: string, now: Date): string[] {
  // Long errors (the same 401 on every case) are said once under the table.
  const errors = errorNotes(
    status.cases.map(
      (s) =>
        [s.lastError, s.djen?.lastOutcome === "failed" ? `DJEN: ${s.djen.lastError ?? ""}` : null]
          .filter((e) => e !== null)
          .join("; ") || null,
    ),
    // Each error under the table, "[1]" in its rows: the rows stay narrow.
    { inline: 0, head: 0 },
  );
  // When each case was last checked is in --json; the last sweep's line says when it ran.
  const rows = status.cases.map((s, i) => [
    s.number,
    s.foundIn === null || s.foundIn === s.court ? s.court : `${s.court} (in ${s.foundIn})`,
    s.label ?? "",
    outcomeText(s),
    shortWhen(s.lastChangedAt, tz, now),
    djenCell(s.djen, status.djenEnabled, tz, now),
    s.pendingMail > 0 ? String(s.pendingMail) : "",
    errors.cells[i] ?? "",
  ]);
  return [
    formatTable(
      ["case", "court", "label", "outcome", "last change", "djen", "mail", "error"],
      rows,
      { maxWidth: STATUS_TABLE_WIDTH, shrink: 2 },
    ),
    ...errors.notes,
  ];
}

/** E-mail that failed and waits for its next attempt; null when none. */
function retryingLine(status: Status, tz: string): string | null {
  const retrying = status.mail.retrying;
  if (retrying.rows === 0) return null;
  const next =
    retrying.nextAttemptAt === null ? "" : `; next attempt ${when(retrying.nextAttemptAt, tz)}`;
  return `mail not sent yet: ${countText(retrying.rows, "e-mail", "e-mails")} failed (${retrying.lastError ?? "no error recorded"})${next}`;
}

/** The line of totals: cases, failing checks, DJEN, mail. */
function totalsLine(status: Status): string {
  const failing = status.cases.filter((s) => s.lastOutcome === "failed").length;
  const djenFailing =
    status.cases.filter((s) => s.djen?.lastOutcome === "failed").length +
    status.oab.filter((o) => o.lastOutcome === "failed").length +
    (status.parties ?? []).reduce((sum, p) => sum + p.failingNames, 0);
  return (
    `${countText(status.cases.length, "watched case", "watched cases")}; ${failing} failing` +
    (status.djenEnabled
      ? djenFailing > 0
        ? `; ${djenFailing} failing DJEN checks`
        : ""
      : "; DJEN off (djen.enabled: false): no publication is read") +
    `; mail: ${status.mail.pending} pending${status.mail.waiting > 0 ? ` (${status.mail.waiting} not due yet)` : ""}, ${status.mail.sent} sent, ${status.mail.dead} dead`
  );
}

/**
 * What `status` prints, line by line: the cases, the DJEN sources, undeliverable mail, the
 * endpoints, acknowledgements, the sources' freshness, the watchlist, open incidents, the
 * totals, the last sweep, and why it needs attention.
 */
export function statusLines(
  status: Status,
  watchlist: WatchlistView,
  attention: readonly string[],
  context: { tz: string; now: Date; notFoundThreshold: number },
): string[] {
  const { tz, now } = context;
  const at = (iso: string | null) => when(iso, tz);
  return [
    ...caseTable(status, tz, now),
    ...notFoundLines(status.cases, context.notFoundThreshold),
    ...status.oab.map(
      (o) =>
        `OAB ${o.registration}: DJEN last checked ${at(o.lastCheckedAt)}, ${djenText(o, true, tz)}${o.lastOutcome === "failed" ? `: ${terminalText(o.lastError ?? "")}` : ""}`,
    ),
    ...(status.parties ?? []).map((p) => partyLine(p, at)),
    ...status.deadMail
      .filter((d) => d.channel === "email")
      .map(
        (dead) =>
          `undeliverable mail to ${dead.recipient} after ${countText(dead.attempts, "attempt", "attempts")}: ${terminalText(dead.subject ?? "")} (${terminalText(dead.lastError ?? "no error recorded")})`,
      ),
    ...status.endpoints.map((endpoint) => endpointLine(endpoint, tz)),
    ...(status.acknowledgements === undefined
      ? []
      : acknowledgementLines(status.acknowledgements, at, now).map((line) => terminalText(line))),
    ...(status.escalations === undefined
      ? []
      : escalationLines(status.escalations, at).map((line) => terminalText(line))),
    ...[retryingLine(status, tz)].filter((line) => line !== null),
    ...(status.djenUnreachable === null ? [] : [djenUnreachableLine(status.djenUnreachable, tz)]),
    ...freshnessLines(status.freshness, tz).map((line) => terminalText(line)),
    ...watchlistLines(watchlist, tz),
    // The watchlist's incident is said by the lines above, with its errors.
    ...status.incidents
      .filter((i) => i.kind !== "watchlist_invalid")
      .map(
        (incident) =>
          `${INCIDENT_TEXT[incident.kind]} since ${at(incident.since)} (${incident.toldTo} was told)`,
      ),
    totalsLine(status),
    lastSweepLine(status.lastRun, tz),
    ...(attention.length > 0 ? [`needs attention: ${attention.join("; ")}`] : []),
  ];
}

export const statusCommand: Command = {
  name: "status",
  summary: "Every watched case: last check, last change, DJEN check, last error, pending mail",
  usage: "datajud-monitor status [--json]",
  details: [
    "Times are in schedule.timezone. --json prints the same as one JSON object for scripts.",
    "",
    "Exit codes: 0 all well, 3 needs attention (the watchlist file is invalid, cases or DJEN checks",
    "failing, DJEN unreachable, a health incident open, an endpoint disabled or dead, e-mail failing",
    "or given up, the last sweep failed or crashed, or no sweep since one was due by schedule.cron;",
    "each reason is printed last, and listed in --json's attention), 2 bad config or usage.",
  ],
  options: { json: { type: "boolean", default: false } },
  async run(args, io) {
    const runtime = loadRuntime(io, "status");
    if (!runtime) return EXIT.usage;
    const path = runtime.config.paths.db;
    // Mutes are the watchlist's; an unreadable watchlist only hides them (validate says why).
    const loaded = await loadWatchlist(runtime.config.paths.watchlist);
    if (!databaseExists(path))
      return noDatabaseYet(io, path, loaded, runtime.config, args.values.json === true);
    const db = openDatabase(path);
    try {
      const status = readStatus(db, {
        watchlist: loaded.ok ? loaded.watchlist : null,
        now: dateNow(systemOf(io).clock),
        timezone: runtime.config.schedule.timezone,
        djen: djenViewOf(runtime.config),
        endpoints: runtime.config.notify.declared,
      });
      const watchlist = watchlistView(runtime.config.paths.watchlist, loaded, db);
      const attention = statusAttention(
        db,
        status,
        watchlist,
        runtime.config,
        dateNow(systemOf(io).clock),
      );
      const code = attention.length > 0 ? EXIT.attention : EXIT.ok;
      if (args.values.json === true) {
        io.stdout.write(
          `${JSON.stringify({ database: path, ...status, watchlistFile: watchlist, attention })}\n`,
        );
        return code;
      }
      // Labels, court units and DataJud's errors are hostile text: written out, never acted on.
      const out = readableOutput(io.stdout);
      const lines = statusLines(status, watchlist, attention, {
        tz: runtime.config.schedule.timezone,
        now: dateNow(systemOf(io).clock),
        notFoundThreshold: runtime.config.monitor.notFoundThreshold,
      });
      for (const line of lines) out.write(`${line}\n`);
      return code;
    } finally {
      closeDatabase(db);
    }
  },
};
