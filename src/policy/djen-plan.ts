import { cappedDoublingMs } from "../pacing/backoff.js";
import type { DjenSourceRow } from "../store/djen-sources.js";
import { isWorkingDay } from "../time/judicial-calendar.js";
import { dateInZone, SAO_PAULO_ZONE } from "../time/zoned-time.js";

/*
 * When each DJEN source (a watched case number, an OAB registration) is due its next complete look,
 * and in which order the due ones are asked. Pure: the caller reads the sources' last answers from
 * the database and passes the time.
 *
 * Why these rules (Lei 11.419/2006 art. 4 §§3-4; CPC art. 224 §§2-3): a communication made
 * available on day D counts as published on the next working day and its period starts on the
 * working day after that. A look within hours of D leaves the lawyer the most of the period; one
 * complete look per working day is the least that loses no day of it. On a day without court
 * (weekend, holiday, recess) what is made available counts as published on the next working day,
 * so one look a day is enough then. What a source's window asks for starts at the day of its last
 * complete answer (catchUpWindow), so a look that comes later never misses what came meanwhile.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export type SourceKind = "case" | "oab" | "party";

export interface PlanSettings {
  /** Hours between two complete looks at a case number on working days; 0: whenever asked. */
  caseEveryHours: number;
  /** Hours between two complete looks at an OAB registration on working days; 0: whenever asked. */
  oabEveryHours: number;
  /**
   * Hours between two complete looks at a watched party's name on working days (the radar);
   * absent: 24, once a working day.
   */
  partyEveryHours?: number;
}

/** A party's name is asked once a working day unless configured otherwise. */
export const PARTY_EVERY_HOURS = 24;

export interface SourceState {
  kind: SourceKind;
  key: string;
  /** When it last answered whole, in ms; null: never (its baseline is due). */
  lastOkMs: number | null;
  /** When its last check failed, in ms; null when the last check answered whole (or none was made). */
  failedAtMs: number | null;
}

export interface PlannedSource extends SourceState {
  /** When it is due, in ms: -Infinity for a source never answered. */
  dueAtMs: number;
}

export interface Plan {
  /** Due now, in the order to ask them: never answered first, then the longest overdue. */
  due: PlannedSource[];
  /** Not due yet, the soonest first. */
  later: PlannedSource[];
}

export interface PlanOptions {
  /**
   * How long after a failed check the source is due again. A sweep asks again at once (0: a
   * failure is retried, never taken for an answer); between sweeps a pause keeps a source that
   * fails from being asked over and over.
   * @default 0
   */
  retryFailedAfterMs?: number;
}

function everyMs(kind: SourceKind, settings: PlanSettings): number {
  if (kind === "party") return (settings.partyEveryHours ?? PARTY_EVERY_HOURS) * HOUR_MS;
  return (kind === "case" ? settings.caseEveryHours : settings.oabEveryHours) * HOUR_MS;
}

/** Local midnights fall on quarter hours of UTC in every zone (offsets are whole quarter hours). */
const QUARTER_HOUR_MS = 15 * 60_000;
const workingMemo = new Map<number, boolean>();

/**
 * Whether `ms` falls on a working day in São Paulo, remembered per quarter hour: a plan asks it of
 * every watched source (thousands) each time it is made, and formatting a date is what costs.
 */
function workingAt(ms: number): boolean {
  const quarter = Math.floor(ms / QUARTER_HOUR_MS);
  let working = workingMemo.get(quarter);
  if (working === undefined) {
    if (workingMemo.size > 50_000) workingMemo.clear();
    // DJEN's dates and the courts' days are São Paulo's.
    working = isWorkingDay(dateInZone(ms, SAO_PAULO_ZONE));
    workingMemo.set(quarter, working);
  }
  return working;
}

/**
 * When the next complete look after one at `lastOkMs` is due: `every` later when that falls on a
 * working day (São Paulo), else a day after it at the soonest.
 */
export function nextLookMs(lastOkMs: number, every: number): number {
  const next = lastOkMs + every;
  if (every === 0 || workingAt(next)) return next;
  return Math.max(next, lastOkMs + DAY_MS);
}

/** When `source` is due its next look (see PlanOptions for a failed one). */
export function dueAtMs(
  source: SourceState,
  settings: PlanSettings,
  options: PlanOptions = {},
): number {
  if (source.failedAtMs !== null) return source.failedAtMs + (options.retryFailedAfterMs ?? 0);
  if (source.lastOkMs === null) return Number.NEGATIVE_INFINITY;
  return nextLookMs(source.lastOkMs, everyMs(source.kind, settings));
}

/**
 * The sources due at `nowMs`, in the order to ask them, and the others. Equals keep the order
 * they were given in (the watchlist's: case numbers, then registrations).
 */
export function planLooks(
  sources: readonly SourceState[],
  nowMs: number,
  settings: PlanSettings,
  options: PlanOptions = {},
): Plan {
  // Thousands of sources, planned every minute between sweeps: no spreads, one object each.
  const due: Array<[PlannedSource, number]> = [];
  const later: Array<[PlannedSource, number]> = [];
  sources.forEach((source, index) => {
    const planned: PlannedSource = {
      kind: source.kind,
      key: source.key,
      lastOkMs: source.lastOkMs,
      failedAtMs: source.failedAtMs,
      dueAtMs: dueAtMs(source, settings, options),
    };
    (planned.dueAtMs <= nowMs ? due : later).push([planned, index]);
  });
  const never = (s: PlannedSource): number => (s.lastOkMs === null ? 0 : 1);
  due.sort(([a, i], [b, j]) => never(a) - never(b) || order(a.dueAtMs, b.dueAtMs) || i - j);
  later.sort(([a, i], [b, j]) => order(a.dueAtMs, b.dueAtMs) || i - j);
  return { due: due.map(([s]) => s), later: later.map(([s]) => s) };
}

/** Ascending, -Infinity (never answered) included. */
function order(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Between sweeps, the first wait after DJEN could not be reached; it doubles per trip in a row. */
export const FIRST_RETRY_AFTER_TRIP_MS = 10 * 60_000;
/**
 * The longest wait between two tries while DJEN stays unreachable: 4 h is 6 tries a day instead of
 * 144 at a fixed 10 minutes, and a DJEN back up is asked again within 4 h (a sweep asks at once).
 */
export const MAX_RETRY_AFTER_TRIP_MS = 4 * HOUR_MS;

/**
 * When the daemon tries DJEN again between sweeps after `trips` trips in a row (unreachable, or
 * refusing this server), the last at `trippedAtMs`: 10 min, 20, 40... at most 4 h after it. A
 * sweep tries at once, whatever this says; a complete answer ends the streak.
 */
export function djenRetryAtMs(trippedAtMs: number, trips: number): number {
  const doublings = Math.min(Math.max(trips, 1) - 1, 20);
  return (
    trippedAtMs + cappedDoublingMs(FIRST_RETRY_AFTER_TRIP_MS, doublings, MAX_RETRY_AFTER_TRIP_MS)
  );
}

/** Whether DJEN is asked at all, and when each source is due: what the status views show. */
export interface DjenView {
  enabled: boolean;
  plan: PlanSettings | null;
}

/**
 * When a source that answered its last check is due its next look (ISO), for `status` and the
 * reports; null when it is due now: never answered, or its last check failed (it is failing, and
 * retried at once).
 */
export function nextCheckDueAt(
  row: Pick<DjenSourceRow, "kind" | "lastOkAt" | "lastOutcome">,
  settings: PlanSettings,
): string | null {
  if (row.lastOutcome !== "ok" || row.lastOkAt === null) return null;
  const lastOk = Date.parse(row.lastOkAt);
  if (!Number.isFinite(lastOk)) return null;
  return new Date(nextLookMs(lastOk, everyMs(row.kind, settings))).toISOString();
}
