import { formatCnjNumber } from "../../datajud/cnj-number.js";
import { getDjenSource } from "../../store/djen-sources.js";
import { addDays, dateInZone } from "../../time/calendar-date.js";
import type { WatchedCase, WatchedOab } from "../../watchlist/parse-watchlist.js";
import type { SweepRun } from "../run.js";
import type { PublicationsReport } from "../run-report.js";
import type { SweepDeps } from "../sweep.js";
import { tellListener } from "../sweep-events.js";
import type { DjenWindow, PublicationGateway, PublicationSource } from "./djen-gateway.js";
import { recordSource, type SourceOutcome } from "./record-publications.js";

/** What the DJEN phase needs, built once per process by the composition root. */
export interface PublicationsDeps {
  gateway: PublicationGateway;
  /** Days of disponibilização asked for on each sweep, ending today (`djen.windowDays`). */
  windowDays: number;
  /**
   * How long one sweep keeps asking DJEN, in minutes (`djen.maxMinutesPerSweep`); 0: no limit.
   * What is left is asked first by the next sweep, from the day of its last complete answer.
   */
  maxMinutesPerSweep: number;
  /** DJEN requests this process has sent so far, for the run report. */
  requests: () => number;
}

/** DJEN's dates are the courts' calendar days, in São Paulo. */
const DJEN_TIME_ZONE = "America/Sao_Paulo";

/** Case numbers per tool call: each costs a DJEN request or more, at about 20 a minute. */
const CASES_PER_CALL = 10;

/** The window a sweep at `nowMs` asks for: `days` São Paulo dates ending today. */
export function djenWindow(nowMs: number, days: number): DjenWindow {
  const to = dateInZone(nowMs, DJEN_TIME_ZONE);
  return { from: addDays(to, -(Math.max(1, days) - 1)), to };
}

/**
 * How far back a sweep reaches for a source that last answered whole before the window: DJEN
 * keeps its items, so days the monitor was stopped or DJEN failing are asked for again, up to
 * a month (older days would be a first read again, and cost pages).
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
    const day = dateInZone(ms, DJEN_TIME_ZONE);
    if (day < from) from = day;
  }
  // YYYY-MM-DD strings order as the days they name.
  return { from: [from, floor].sort()[1] ?? from, to: window.to };
}

function describeSource(kind: string, key: string): string {
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

type Batch = { cnjNumbers: string[]; oab: string[] };

/** When a source last answered whole, in ms; null when it never did (its baseline is due). */
type LastOk = (kind: "case" | "oab", key: string) => number | null;

/**
 * The calls of a sweep, in the order a time limit should cut them: sources never answered first
 * (their baseline is due), then the longest unanswered, so what one sweep leaves the next asks
 * first and nothing waits forever. Equals keep the watchlist's order (case numbers, then
 * registrations); consecutive case numbers share a call, ten at most.
 */
export function batchesOf(
  selected: readonly WatchedCase[],
  oab: readonly WatchedOab[],
  lastOk: LastOk,
): Batch[] {
  const sources = [
    ...[...new Set(selected.map((c) => c.digits))].map((key) => ({ kind: "case" as const, key })),
    ...oab.map((o) => ({ kind: "oab" as const, key: o.key })),
  ]
    .map((source, index) => ({
      ...source,
      index,
      since: lastOk(source.kind, source.key) ?? Number.NEGATIVE_INFINITY,
    }))
    .sort((a, b) => a.since - b.since || a.index - b.index);
  const batches: Batch[] = [];
  for (const source of sources) {
    const last = batches.at(-1);
    if (source.kind === "oab") {
      // One registration per call: its seven suffix variants are seven requests or more.
      batches.push({ cnjNumbers: [], oab: [source.key] });
    } else if (
      last !== undefined &&
      last.oab.length === 0 &&
      last.cnjNumbers.length < CASES_PER_CALL
    ) {
      last.cnjNumbers.push(source.key);
    } else {
      batches.push({ cnjNumbers: [source.key], oab: [] });
    }
  }
  return batches;
}

function sourcesIn(batch: Batch): number {
  return batch.cnjNumbers.length + batch.oab.length;
}

/** The sources a failed call asked for, each with the call's error. */
function failedSources(batch: Batch, failure: SourceFailure): PublicationSource[] {
  return [
    ...batch.cnjNumbers.map((key) => ({ kind: "case" as const, key })),
    ...batch.oab.map((key) => ({ kind: "oab" as const, key })),
  ].map((source) => ({ ...source, complete: false, publications: [], error: failure }));
}

/** What the DJEN phase tells as it goes, for progress: its plan, then each source's check. */
export type PublicationsEvent =
  | { type: "djen-planned"; sources: number }
  | { type: "djen-checked"; kind: "case" | "oab"; ok: boolean }
  | { type: "djen-deferred"; sources: number };

/** What a sweep asks DJEN about. */
export interface PublicationTargets {
  selected: readonly WatchedCase[];
  oab: readonly WatchedOab[];
  /** Every case of the watchlist: a publication of another case found by OAB is "outside". */
  watchlist: readonly WatchedCase[];
}

export interface WatchedPublications {
  report: PublicationsReport;
  interrupted: boolean;
}

/**
 * The DJEN phase: every selected case number and every OAB registration of the watchlist is
 * asked for the window's publications through the MCP tool, and each source's answer is committed
 * on its own (new publications, cancellations, the check) before the next is asked. A source that
 * fails is a failed check, counted and shown, never "no publications".
 */
export async function watchPublications(
  deps: SweepDeps,
  run: SweepRun,
  targets: PublicationTargets,
): Promise<WatchedPublications> {
  const phase = deps.publications;
  const empty: PublicationsReport = {
    checked: 0,
    failed: 0,
    newPublications: 0,
    outsideWatchlist: 0,
    cancelled: 0,
    djenRequests: 0,
    deferred: 0,
    failures: [],
  };
  if (phase === undefined) return { report: empty, interrupted: false };
  // Read once per source: batchesOf orders by it, and each call's window starts from it.
  const lastOkSeen = new Map<string, number | null>();
  const lastOk: LastOk = (kind, key) => {
    const id = `${kind}:${key}`;
    if (!lastOkSeen.has(id)) {
      const at = getDjenSource(deps.db, kind, key)?.lastOkAt;
      const ms = at == null ? Number.NaN : Date.parse(at);
      lastOkSeen.set(id, Number.isFinite(ms) ? ms : null);
    }
    return lastOkSeen.get(id) ?? null;
  };
  const startedAt = deps.clock.now();
  const budgetMs = phase.maxMinutesPerSweep * 60_000;
  let deferred = 0;
  const { signal } = run;
  const requestsBefore = phase.requests();
  const window = djenWindow(deps.clock.now(), phase.windowDays);
  const watched = new Set(targets.watchlist.map((c) => c.digits));
  const outcomes: SourceOutcome[] = [];
  let interrupted = false;
  // DJEN refusing this server's address refuses every request: the rest is not asked.
  let blocked: SourceFailure | null = null;
  const batches = batchesOf(targets.selected, targets.oab, lastOk);
  const tell = (event: PublicationsEvent): void => tellListener(deps.onEvent, event);
  tell({ type: "djen-planned", sources: batches.reduce((sum, b) => sum + sourcesIn(b), 0) });
  for (const [index, batch] of batches.entries()) {
    if (signal.aborted) {
      interrupted = true;
      break;
    }
    if (budgetMs > 0 && deps.clock.now() - startedAt >= budgetMs) {
      // Not a failure: nothing was asked. The next sweep starts with these (the stalest).
      deferred = batches.slice(index).reduce((sum, b) => sum + sourcesIn(b), 0);
      deps.logger.info(
        { deferred, maxMinutesPerSweep: phase.maxMinutesPerSweep },
        "DJEN time for this sweep is up: the rest is asked first next sweep",
      );
      tell({ type: "djen-deferred", sources: deferred });
      break;
    }
    let sources: PublicationSource[];
    const since = [
      ...batch.cnjNumbers.map((key) => lastOk("case", key)),
      ...batch.oab.map((key) => lastOk("oab", key)),
    ];
    try {
      sources =
        blocked === null
          ? await phase.gateway.read(batch, catchUpWindow(window, since), signal)
          : failedSources(batch, blocked);
    } catch (error) {
      if (signal.aborted) {
        interrupted = true;
        break;
      }
      deps.logger.warn({ sources: batch, error: errorOf(error) }, "DJEN publication read failed");
      sources = failedSources(batch, errorOf(error));
    }
    for (const source of sources) {
      const outcome = recordSource(
        {
          db: deps.db,
          runId: run.id,
          write: run.write,
          nowIso: new Date(deps.clock.now()).toISOString(),
        },
        source,
      );
      outcomes.push(outcome);
      tell({ type: "djen-checked", kind: outcome.kind, ok: outcome.ok });
      if (outcome.error?.kind === "geo_blocked" && blocked === null) {
        blocked = { ...outcome.error, retryable: false };
        deps.logger.error({ error: outcome.error.message }, "DJEN refuses this server's address");
        continue;
      }
      if (outcome.error !== null && blocked === null) {
        deps.logger.warn(
          { source: describeSource(source.kind, source.key), error: outcome.error },
          "DJEN check failed",
        );
      }
    }
  }
  const fresh = new Map(outcomes.flatMap((o) => o.stored).map((p) => [p.id, p]));
  const report: PublicationsReport = {
    checked: outcomes.length,
    failed: outcomes.filter((o) => !o.ok).length,
    newPublications: fresh.size,
    outsideWatchlist: [...fresh.values()].filter(
      (p) => p.caseNumber === null || !watched.has(p.caseNumber),
    ).length,
    cancelled: new Set(outcomes.flatMap((o) => o.cancelled).map((p) => p.id)).size,
    djenRequests: phase.requests() - requestsBefore,
    deferred,
    failures: outcomes.flatMap((o) =>
      o.error === null
        ? []
        : [{ source: describeSource(o.kind, o.key), kind: o.error.kind, error: o.error.message }],
    ),
  };
  if (report.checked > 0) {
    deps.logger.info(
      {
        window,
        checked: report.checked,
        failed: report.failed,
        newPublications: report.newPublications,
        cancelled: report.cancelled,
        djenRequests: report.djenRequests,
        deferred: report.deferred,
      },
      "DJEN publications checked",
    );
  }
  return { report, interrupted };
}
