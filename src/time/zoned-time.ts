import {
  type CalendarDate,
  type IsoDate,
  parseCalendarDate,
  SAO_PAULO_ZONE,
} from "./calendar-date.js";

/*
 * A zone's wall clock and real instants, both ways, with the zone's own history of offsets (Intl's
 * IANA data, never a fixed -3 h, never the machine's zone): the schedule's local days and hours,
 * and the São Paulo day's first instant. Pure.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export interface LocalDateTime extends CalendarDate {
  /** Milliseconds since local midnight. */
  timeOfDayMs: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (formatter === undefined) {
    // h23, not hour12: false, which some ICU versions render as "24" at midnight.
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      fractionalSecondDigits: 3,
    });
    formatters.set(timezone, formatter);
  }
  return formatter;
}

export function localDateTime(at: Date, timezone: string): LocalDateTime {
  const values: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {};
  for (const part of formatterFor(timezone).formatToParts(at)) {
    if (part.type !== "literal") values[part.type] = Number(part.value);
  }
  const hour = values.hour ?? 0;
  const minute = values.minute ?? 0;
  const second = values.second ?? 0;
  const millisecond = values.fractionalSecond ?? 0;
  return {
    year: values.year ?? 0,
    month: values.month ?? 1,
    day: values.day ?? 1,
    timeOfDayMs: hour * HOUR_MS + minute * MINUTE_MS + second * 1000 + millisecond,
  };
}

/** The local wall clock as if it were UTC, so wall times compare and subtract as plain numbers. */
function wallMs(local: LocalDateTime): number {
  return Date.UTC(local.year, local.month - 1, local.day) + local.timeOfDayMs;
}

/** How far the zone's wall clock is ahead of UTC at `instant`. */
function offsetMs(instant: number, timezone: string): number {
  return wallMs(localDateTime(new Date(instant), timezone)) - instant;
}

/**
 * The instants whose local wall clock reads `wall` (a wall time written as UTC ms), earliest first.
 * Usually one; two when clocks go back over it; in a DST gap, where it never happens, the instant
 * of the jump, when the local clock first reads a later time.
 */
export function instantsOfWall(wall: number, timezone: string): [number, ...number[]] {
  // Offsets on either side of any transition near `wall` (no zone's offset exceeds 14 h).
  const before = offsetMs(wall - DAY_MS, timezone);
  const after = offsetMs(wall + DAY_MS, timezone);
  const exact = [...new Set([wall - before, wall - after])]
    .filter((instant) => offsetMs(instant, timezone) === wall - instant)
    .sort((a, b) => a - b);
  const [first, ...rest] = exact;
  if (first !== undefined) return [first, ...rest];
  // The jump lies in (wall - later offset, wall - earlier offset]: find its first millisecond.
  let low = wall - Math.max(before, after);
  let high = wall - Math.min(before, after);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (wallMs(localDateTime(new Date(middle), timezone)) >= wall) high = middle;
    else low = middle;
  }
  return [high];
}

function parseLocalDate(date: string): CalendarDate {
  const parsed = parseCalendarDate(date);
  if (parsed === null) throw new Error(`"${date}" is not a calendar date written as YYYY-MM-DD`);
  return parsed;
}

/** The first instant of the local day after `date` (YYYY-MM-DD) in `timezone`. */
export function endOfLocalDate(date: string, timezone: string): Date {
  const { year, month, day } = parseLocalDate(date);
  return new Date(instantsOfWall(Date.UTC(year, month - 1, day + 1), timezone)[0]);
}

const WALL_TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?$/u;

/**
 * The instant the wall clock `date` `time` (`HH:MM`, `HH:MM:SS` or `HH:MM:SS.fff`) names in
 * `timeZone`: "2026-03-02" "00:00" in São Paulo is 2026-03-02T03:00:00Z. A time a daylight-saving
 * change skipped is the first instant after the gap; one it repeated, the earlier.
 */
export function instantInZone(date: IsoDate, time = "00:00", timeZone = SAO_PAULO_ZONE): number {
  const day = parseCalendarDate(date);
  const clock = WALL_TIME.exec(time);
  const [hour, minute, second] = [Number(clock?.[1]), Number(clock?.[2]), Number(clock?.[3] ?? 0)];
  if (day === null || clock === null || hour > 23 || minute > 59 || second > 59) {
    throw new RangeError(`"${date} ${time}" is not a wall clock (YYYY-MM-DD and HH:MM[:SS])`);
  }
  const ms = Number((clock[4] ?? "0").padEnd(3, "0"));
  const wall =
    Date.UTC(day.year, day.month - 1, day.day) +
    hour * HOUR_MS +
    minute * MINUTE_MS +
    second * 1000 +
    ms;
  return instantsOfWall(wall, timeZone)[0];
}
