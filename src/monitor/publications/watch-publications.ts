import { formatCnjNumber } from "../../datajud/cnj-number.js";
import { djenUnreachableReason, notAskedMessage } from "../../djen/errors.js";
import type { Logger } from "../../log.js";
import {
  type Plan,
  type PlanOptions,
  type PlanSettings,
  planLooks,
  type SourceKind,
} from "../../policy/djen-plan.js";
import type { Db } from "../../store/database.js";
import { clearDjenTrips, recordDjenTrip } from "../../store/djen-reach.js";
import { listDjenSources } from "../../store/djen-sources.js";
import { addDays } from "../../time/calendar-date.js";
import { type Clock, isoNow } from "../../time/clock.js";
import { dateInZone, SAO_PAULO_ZONE } from "../../time/zoned-time.js";
import type { WatchedCase, WatchedOab, WatchedParty } from "../../watchlist/parse-watchlist.js";
import type { SweepRun } from "../run.js";
import type { PublicationsReport } from "../run-report.js";
import { tellListener } from "../sweep-events.js";
import type { DjenWindow, PublicationGateway, PublicationSource } from "./djen-gateway.js";
import { type RadarTargets, recordPartySource } from "./record-party-hits.js";
import { recordSource, type SourceOutcome } from "./record-publications.js";

/** What the DJEN phase needs, built once per process by the composition root. */
export interface PublicationsDeps {
  gateway: PublicationGateway;
  /** Days of disponibilização asked for on each look, ending today (`djen.windowDays`). */
  windowDays: number;
  /**
   * How long one sweep waits for DJEN, in minutes (`djen.maxMinutesPerSweep`); 0: no limit. What
   * is left is asked between sweeps (the daemon) or first by the next sweep, from the day of its
   * last complete answer.
   */
  maxMinutesPerSweep: number;
  /** When each source is due its next look (`djen.caseEveryHours`, `djen.oabEveryHours`). */
  plan: PlanSettings;
  /**
   * Tool calls in flight at once (`djen.concurrency`): DJEN takes 15 s or more to answer, so one
   * call at a time sends far fewer requests than `djen.requestsPerMinute`; the client's limiter
   * still paces every request, so more calls never mean more than that rate.
   */
  concurrency: number;
  /** DJEN requests this process has sent so far, for the run report. */
  requests: () => number;
}

/** What the DJEN phase of a sweep uses. */
export interface WatchDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** Absent when DJEN is off: the phase asks nothing. */
  publications?: PublicationsDeps | undefined;
  /** Told as the phase goes (sources planned, checked, deferred), for progress and metrics. */
  onEvent?: ((event: PublicationsEvent) => void) | undefined;
}

/** Case numbers per tool call: each costs a DJEN request or more, at about 20 a minute. */
const CASES_PER_CALL = 10;

/** The window a look at `nowMs` asks for: `days` São Paulo dates ending today. */
export function djenWindow(nowMs: number, days: number): DjenWindow {
  const to = dateInZone(nowMs, SAO_PAULO_ZONE);
  return { from: addDays(to, -(Math.max(1, days) - 1)), to };
}

/**
 * How far back a look reaches for a source that last answered whole before the window: DJEN
 * keeps its items, so days the monitor was stopped, DJEN failing or the source not due are asked
 * for again, up to a month (older days would be a first read again, and cost pages).
 */
export const MAX_CATCH_UP_DAYS = 31;

/**
 * The window for sources whose last complete answers came at `lastOkMs` (null: never, or at the
 * baseline): the configured window, started earlier at the São Paulo day of the oldest of them,
 * since anything made available from that day on may have been published after that answer.
 */
export function catchUpWindow(
  window: DjenWindow,
  lastOkMs: readonly (number | null)[],
): DjenWindow {
  const floor = addDays(window.to, -(MAX_CATCH_UP_DAYS - 1));
  let from = window.from;
  for (const ms of lastOkMs) {
    if (ms === null || !Number.isFinite(ms)) continue;
    const day = dateInZone(ms, SAO_PAULO_ZONE);
    if (day < from) from = day;
  }
  // YYYY-MM-DD strings order as the days they name.
  return { from: [from, floor].sort()[1] ?? from, to: window.to };
}

function describeSource(kind: string, key: string): string {
  if (kind === "party") return `party name "${key}"`;
  return kind === "oab" ? `OAB ${key}` : `case ${formatCnjNumber(key)}`;
}

type SourceFailure = { kind: string; message: string; retryable: boolean };

function errorOf(error: unknown): SourceFailure {
  // DjenError inside the tool, DataJudError from the MCP call: both carry kind and retryable.
  if (error instanceof Error && "kind" in error) {
    const e = error as Error & { kind: string; retryable?: boolean };
    return { kind: e.kind, message: e.message, retryable: e.retryable ?? true };
  }
  return {
    kind: "internal",
    message: error instanceof Error ? error.message : String(error),
    retryable: true,
  };
}

/** One tool call: case numbers, or one registration, or parties' names (the radar). */
export type Batch = { cnjNumbers: string[]; oab: string[]; parties?: string[] };

/** Parties' names per call: each costs a DJEN request or more, like a case number. */
const PARTIES_PER_CALL = 10;

/** A source DJEN is asked about. */
export interface DjenSourceRef {
  kind: SourceKind;
  key: string;
}

/**
 * The calls that ask `sources` in their order: consecutive case numbers share a call, ten at
 * most; a registration has a call of its own (its seven suffix variants are seven requests).
 * With `atOnce` calls in flight (djen.concurrency), the first source is a call of its own, the
 * one askBatches sends alone to learn whether DJEN answers at all, and the other case numbers and
 * names are spread over at least `atOnce` calls where there are enough of them: a call asks its
 * sources one after another, so eight case numbers in one call would leave the other places idle.
 */
export function batchesOf(sources: readonly DjenSourceRef[], atOnce = 1): Batch[] {
  const [first, ...rest] = sources;
  if (atOnce <= 1 || first === undefined || rest.length === 0) return callsOf(sources, atOnce);
  return [...callsOf([first], 1), ...callsOf(rest, atOnce)];
}

function callsOf(sources: readonly DjenSourceRef[], atOnce: number): Batch[] {
  const perCall = (kind: SourceKind, most: number): number => {
    const count = sources.filter((s) => s.kind === kind).length;
    return Math.min(most, Math.max(1, Math.ceil(count / Math.max(1, atOnce))));
  };
  const casesPerCall = perCall("case", CASES_PER_CALL);
  const partiesPerCall = perCall("party", PARTIES_PER_CALL);
  const batches: Batch[] = [];
  for (const source of sources) {
    const last = batches.at(-1);
    if (source.kind === "party") {
      const names = last?.parties;
      if (names !== undefined && names.length < partiesPerCall) names.push(source.key);
      else batches.push({ cnjNumbers: [], oab: [], parties: [source.key] });
      continue;
    }
    if (source.kind === "oab") batches.push({ cnjNumbers: [], oab: [source.key] });
    else if (
      last !== undefined &&
      last.oab.length === 0 &&
      last.parties === undefined &&
      last.cnjNumbers.length < casesPerCall
    ) {
      last.cnjNumbers.push(source.key);
    } else batches.push({ cnjNumbers: [source.key], oab: [] });
  }
  return batches;
}

function sourcesIn(batch: Batch): number {
  return batch.cnjNumbers.length + batch.oab.length + (batch.parties?.length ?? 0);
}

/** The sources a failed call asked for, each with the call's error. */
function failedSources(batch: Batch, failure: SourceFailure): PublicationSource[] {
  return [
    ...batch.cnjNumbers.map((key) => ({ kind: "case" as const, key })),
    ...batch.oab.map((key) => ({ kind: "oab" as const, key })),
    ...(batch.parties ?? []).map((key) => ({ kind: "party" as const, key })),
  ].map((source) => ({ ...source, complete: false, publications: [], error: failure }));
}

/**
 * The watchlist's DJEN sources, each once: case numbers, OAB registrations, then the names and
 * aliases of the watched parties (the radar; one name shared by two parties is asked once).
 */
export function sourcesOf(
  cases: readonly WatchedCase[],
  oab: readonly WatchedOab[],
  parties: readonly WatchedParty[] = [],
): DjenSourceRef[] {
  return [
    ...[...new Set(cases.map((c) => c.digits))].map((key) => ({ kind: "case" as const, key })),
    ...[...new Set(oab.map((o) => o.key))].map((key) => ({ kind: "oab" as const, key })),
    ...[...new Set(parties.flatMap((p) => p.queries))].map((key) => ({
      kind: "party" as const,
      key,
    })),
  ];
}

/** Each planned source's last complete answer, by "kind:key", for askBatches. */
export function lastOkOf(plan: Plan): Map<string, number | null> {
  return new Map(
    [...plan.due, ...plan.later].map((s) => [`${s.kind}:${s.key}`, s.lastOkMs] as const),
  );
}

/** When each source last answered whole and whether its last check failed, from the database. */
export function planFor(
  db: Db,
  sources: readonly DjenSourceRef[],
  nowMs: number,
  settings: PlanSettings,
  options: PlanOptions = {},
): Plan {
  const rows = new Map(listDjenSources(db).map((row) => [`${row.kind}:${row.key}`, row]));
  const ms = (iso: string | null | undefined): number | null => {
    const parsed = iso == null ? Number.NaN : Date.parse(iso);
    return Number.isFinite(parsed) ? parsed : null;
  };
  return planLooks(
    sources.map((source) => {
      const row = rows.get(`${source.kind}:${source.key}`);
      return {
        ...source,
        lastOkMs: ms(row?.lastOkAt),
        failedAtMs: row?.lastOutcome === "failed" ? ms(row.lastCheckedAt) : null,
      };
    }),
    nowMs,
    settings,
    options,
  );
}

/** What the DJEN phase tells as it goes, for progress: its plan, then each source's check. */
export type PublicationsEvent =
  | { type: "djen-planned"; sources: number }
  | { type: "djen-checked"; kind: SourceKind; ok: boolean }
  | { type: "djen-deferred"; sources: number };

/** What asking some batches needs: where to record, what to tell, each source's last answer. */
export interface AskContext {
  db: Db;
  clock: Clock;
  logger: Logger;
  phase: PublicationsDeps;
  /** The sweep's run; null between sweeps. */
  runId: number | null;
  write: boolean;
  signal: AbortSignal;
  /** Stop asking once this much time has passed (ms); 0: no limit. */
  budgetMs: number;
  /** The sources' last complete answers (the plan's), by "kind:key": each window starts there. */
  lastOk: ReadonlyMap<string, number | null>;
  onEvent?: (event: PublicationsEvent) => void;
  /** The watched parties and cases a party name's answer is read against (the radar). */
  radar?: RadarTargets;
}

const NO_RADAR: RadarTargets = { parties: [], watched: new Set() };

/** What asking came to. */
export interface Asked {
  outcomes: SourceOutcome[];
  /** Due but not asked: the time ran out. */
  deferred: number;
  interrupted: boolean;
  /**
   * Why the rest was not sent: DJEN refused this server's address, or could not be reached
   * (refused, DNS, TLS, every attempt timing out) once a source had spent its retries. Null when
   * every batch was asked.
   */
  stopped: string | null;
}

type Answer = { sources: PublicationSource[] } | { error: unknown };

/**
 * Asks `batches`, the first alone and then up to `phase.concurrency` calls in flight (a DJEN that
 * refuses this server or cannot be reached is found by one call, as when calls went one at a
 * time), and records their answers in the batches' order, each source's answer committed on its own (new publications, cancellations,
 * the check); an answer that comes early waits for those before it. DJEN refusing this server's
 * address, or not reachable at all once one source has spent its retries, refuses every other
 * request too: nothing more is sent, and each source not yet asked gets one failed check saying
 * why (never "no publications"); calls already in flight are recorded as they answered. A failed
 * attempt that a retry got past is no such thing. The time limit and the abort signal are
 * checked before each call starts, as when calls went one at a time.
 */
export async function askBatches(ctx: AskContext, batches: readonly Batch[]): Promise<Asked> {
  const { phase, signal } = ctx;
  const startedAt = ctx.clock.now();
  const window = djenWindow(startedAt, phase.windowDays);
  const asked: Asked = { outcomes: [], deferred: 0, interrupted: false, stopped: null };
  let stop: SourceFailure | null = null;
  const limit = Math.max(1, Math.floor(phase.concurrency)) || 1;
  // One call until the first has answered without DJEN refusing or out of reach.
  let answeredOnce = false;
  const inFlight = new Map<number, Promise<Answer>>();
  let started = 0;
  // Why the next batch may not start now; null when it may.
  const heldBack = (): "aborted" | "time" | "stopped" | null => {
    if (signal.aborted) return "aborted";
    if (ctx.budgetMs > 0 && ctx.clock.now() - startedAt >= ctx.budgetMs) return "time";
    return stop === null ? null : "stopped";
  };
  const ask = (batch: Batch): Promise<Answer> =>
    phase.gateway.read(batch, batchWindow(window, batch, ctx.lastOk), signal).then(
      (sources) => ({ sources }),
      (error: unknown) => ({ error }),
    );
  const fill = (): void => {
    const places = answeredOnce ? limit : 1;
    while (started < batches.length && inFlight.size < places && heldBack() === null) {
      const batch = batches[started];
      if (batch !== undefined) inFlight.set(started, ask(batch));
      started++;
    }
  };
  try {
    for (const [index, batch] of batches.entries()) {
      fill();
      let sources: PublicationSource[] = [];
      const answer = inFlight.get(index);
      const why = answer === undefined ? heldBack() : null;
      if (why === "aborted") {
        asked.interrupted = true;
        break;
      }
      if (why === "time") {
        // Not a failure: nothing was asked. They stay due, asked first next time.
        asked.deferred = batches.slice(index).reduce((sum, b) => sum + sourcesIn(b), 0);
        break;
      }
      if (why === "stopped" && stop !== null) sources = failedSources(batch, stop);
      else {
        // fill() started this batch unless something held it back (above).
        const answered = await (answer ?? ask(batch));
        inFlight.delete(index);
        if ("error" in answered) {
          if (signal.aborted) {
            asked.interrupted = true;
            break;
          }
          const error = errorOf(answered.error);
          ctx.logger.warn({ sources: batch, error }, "DJEN publication read failed");
          sources = failedSources(batch, error);
        } else sources = answered.sources;
      }
      stop = recordAnswers(ctx, sources, asked, stop);
      answeredOnce = true;
    }
  } finally {
    // Interrupted: the calls still in flight end with the signal; none outlives the phase.
    await Promise.all(inFlight.values());
  }
  // DJEN's reach, for the backoff between sweeps and for `status`: a trip counts, an answer ends it.
  if (ctx.write) {
    if (asked.stopped !== null) recordDjenTrip(ctx.db, isoNow(ctx.clock), asked.stopped);
    else if (asked.outcomes.some((o) => o.ok)) clearDjenTrips(ctx.db);
  }
  return asked;
}

/** The window of one call: the phase's, started at the oldest last complete answer of its sources. */
export function batchWindow(
  window: DjenWindow,
  batch: Batch,
  lastOk: ReadonlyMap<string, number | null>,
): DjenWindow {
  const since = (kind: SourceKind, key: string): number | null =>
    lastOk.get(`${kind}:${key}`) ?? null;
  return catchUpWindow(window, [
    ...batch.cnjNumbers.map((key) => since("case", key)),
    ...batch.oab.map((key) => since("oab", key)),
    ...(batch.parties ?? []).map((key) => since("party", key)),
  ]);
}

/**
 * Records each source's answer, committed on its own, and tells it; returns what stops the rest:
 * `stop` as it came, or DJEN refusing this server or out of reach as these answers first show it
 * (then `asked.stopped` says why). A source that failed otherwise is logged and stops nothing.
 */
function recordAnswers(
  ctx: AskContext,
  sources: readonly PublicationSource[],
  asked: Asked,
  stop: SourceFailure | null,
): SourceFailure | null {
  for (const source of sources) {
    const record = { db: ctx.db, runId: ctx.runId, write: ctx.write, nowIso: isoNow(ctx.clock) };
    const outcome =
      source.kind === "party"
        ? recordPartySource(record, source, ctx.radar ?? NO_RADAR)
        : recordSource(record, source);
    asked.outcomes.push(outcome);
    tellListener(ctx.onEvent, { type: "djen-checked", kind: outcome.kind, ok: outcome.ok });
    if (outcome.error === null || stop !== null) continue;
    const where = describeSource(source.kind, source.key);
    const stopping = stopAfter(outcome.error);
    if (stopping === null) {
      ctx.logger.warn({ source: where, error: outcome.error }, "DJEN check failed");
      continue;
    }
    stop = stopping.stop;
    asked.stopped = stopping.reason;
    if (outcome.error.kind === "geo_blocked") {
      ctx.logger.error({ error: stopping.reason }, "DJEN refuses this server's address");
    } else {
      ctx.logger.error(
        { source: where, error: stopping.reason },
        "DJEN cannot be reached: the rest is not asked now",
      );
    }
  }
  return stop;
}

/**
 * Whether a source's failure stops the rest of the phase, and what each source not asked is then
 * told: DJEN refusing this server's address (no retry helps) or DJEN out of reach once the source
 * spent its retries. Null: the failure is the source's own.
 */
export function stopAfter(error: {
  kind: string;
  message: string;
}): { stop: SourceFailure; reason: string } | null {
  if (error.kind === "geo_blocked") {
    return { stop: { ...error, retryable: false }, reason: error.message };
  }
  const unreachable = djenUnreachableReason(error);
  if (unreachable === null) return null;
  return {
    stop: { kind: error.kind, message: notAskedMessage(unreachable), retryable: true },
    reason: unreachable,
  };
}

/** What a sweep asks DJEN about. */
export interface PublicationTargets {
  selected: readonly WatchedCase[];
  oab: readonly WatchedOab[];
  /** The watched parties whose names are asked (the radar); absent: none. */
  parties?: readonly WatchedParty[];
  /** Every case of the watchlist: a publication of another case found by OAB is "outside". */
  watchlist: readonly WatchedCase[];
  /** Ask every selected source now, due or not (`run-once --case`). @default false */
  everySelected?: boolean;
}

export interface WatchedPublications {
  report: PublicationsReport;
  interrupted: boolean;
}

/**
 * The DJEN phase: the selected case numbers and the watchlist's OAB registrations that are due
 * (djen-plan.ts) are asked for their window's publications through the MCP tool, never-answered
 * first, then the longest overdue, until `djen.maxMinutesPerSweep` is up; the rest waits for its
 * due time. A source that fails is a failed check, counted and shown, never "no publications".
 */
export async function watchPublications(
  deps: WatchDeps,
  run: SweepRun,
  targets: PublicationTargets,
): Promise<WatchedPublications> {
  const phase = deps.publications;
  if (phase === undefined) {
    const nothing: Asked = { outcomes: [], deferred: 0, interrupted: false, stopped: null };
    return {
      report: publicationsReport(nothing, { due: [], later: [] }, new Set(), 0),
      interrupted: false,
    };
  }
  const sources = sourcesOf(targets.selected, targets.oab, targets.parties ?? []);
  const plan = planFor(
    deps.db,
    sources,
    deps.clock.now(),
    targets.everySelected === true
      ? { caseEveryHours: 0, oabEveryHours: 0, partyEveryHours: 0 }
      : phase.plan,
  );
  const watched = new Set(targets.watchlist.map((c) => c.digits));
  const requestsBefore = phase.requests();
  const batches = batchesOf(plan.due, phase.concurrency);
  tellListener(deps.onEvent, { type: "djen-planned", sources: plan.due.length });
  const asked = await askBatches(
    {
      db: deps.db,
      clock: deps.clock,
      logger: deps.logger,
      phase,
      runId: run.id,
      write: run.write,
      signal: run.signal,
      budgetMs: phase.maxMinutesPerSweep * 60_000,
      lastOk: lastOkOf(plan),
      ...(deps.onEvent === undefined ? {} : { onEvent: deps.onEvent }),
      radar: { parties: targets.parties ?? [], watched },
    },
    batches,
  );
  if (asked.deferred > 0) {
    deps.logger.info(
      { deferred: asked.deferred, maxMinutesPerSweep: phase.maxMinutesPerSweep },
      "DJEN time for this sweep is up: the rest is asked next, first",
    );
    tellListener(deps.onEvent, { type: "djen-deferred", sources: asked.deferred });
  }
  const djenRequests = phase.requests() - requestsBefore;
  const report = publicationsReport(asked, plan, watched, djenRequests);
  if (report.checked > 0) {
    const { checked, failed, newPublications, cancelled, deferred, notDue } = report;
    deps.logger.info(
      { checked, failed, newPublications, cancelled, djenRequests, deferred, notDue },
      "DJEN publications checked",
    );
  }
  return { report, interrupted: asked.interrupted };
}

/**
 * What the phase came to, for the run report: each publication and cancellation counted once
 * however many sources brought it, a publication "outside" when its case is not in `watched` (or
 * it names none), each failed source with why.
 */
export function publicationsReport(
  asked: Asked,
  plan: Plan,
  /** The watchlist's case numbers (digits). */
  watched: ReadonlySet<string>,
  djenRequests: number,
): PublicationsReport {
  const { outcomes } = asked;
  const fresh = new Map(outcomes.flatMap((o) => o.stored).map((p) => [p.id, p]));
  const next = plan.later[0]?.dueAtMs;
  return {
    checked: outcomes.length,
    failed: outcomes.filter((o) => !o.ok).length,
    newPublications: fresh.size,
    outsideWatchlist: [...fresh.values()].filter(
      (p) => p.caseNumber === null || !watched.has(p.caseNumber),
    ).length,
    cancelled: new Set(outcomes.flatMap((o) => o.cancelled).map((p) => p.id)).size,
    djenRequests,
    deferred: asked.deferred,
    notDue: plan.later.length,
    nextDueAt: next === undefined ? null : new Date(next).toISOString(),
    unreachable: asked.stopped,
    failures: outcomes.flatMap((o) =>
      o.error === null
        ? []
        : [{ source: describeSource(o.kind, o.key), kind: o.error.kind, error: o.error.message }],
    ),
  };
}
