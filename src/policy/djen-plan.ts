import { dateInZone } from "../time/calendar-date.js";
import { isWorkingDay } from "../time/judicial-calendar.js";

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
/** DJEN's dates and the courts' days are São Paulo's. */
const DJEN_TIME_ZONE = "America/Sao_Paulo";

export type SourceKind = "case" | "oab";

export interface PlanSettings {
  /** Hours between two complete looks at a case number on working days; 0: whenever asked. */
  caseEveryHours: number;
  /** Hours between two complete looks at an OAB registration on working days; 0: whenever asked. */
  oabEveryHours: number;
}

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
  return (kind === "case" ? settings.caseEveryHours : settings.oabEveryHours) * HOUR_MS;
}

/**
 * When the next complete look after one at `lastOkMs` is due: `every` later when that falls on a
 * working day (São Paulo), else a day after it at the soonest.
 */
export function nextLookMs(lastOkMs: number, every: number): number {
  const next = lastOkMs + every;
  if (every === 0 || isWorkingDay(dateInZone(next, DJEN_TIME_ZONE))) return next;
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
  const planned = sources.map((source, index) => ({
    ...source,
    dueAtMs: dueAtMs(source, settings, options),
    index,
  }));
  const neverFirst = (a: { lastOkMs: number | null }): number => (a.lastOkMs === null ? 0 : 1);
  const byDue = (a: (typeof planned)[number], b: (typeof planned)[number]): number =>
    neverFirst(a) - neverFirst(b) || a.dueAtMs - b.dueAtMs || a.index - b.index;
  const strip = ({ index: _index, ...source }: (typeof planned)[number]): PlannedSource => source;
  return {
    due: planned
      .filter((s) => s.dueAtMs <= nowMs)
      .sort(byDue)
      .map(strip),
    later: planned
      .filter((s) => s.dueAtMs > nowMs)
      .sort((a, b) => a.dueAtMs - b.dueAtMs || a.index - b.index)
      .map(strip),
  };
}
