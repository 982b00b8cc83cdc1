import { TZDate, tzOffset } from "@date-fns/tz";
import { type CalendarDate, type IsoDate, parseCalendarDate } from "./calendar-date.js";

/*
 * The one home of time-zone arithmetic: a zone's wall clock and real instants, both ways, with the
 * zone's own history of offsets (@date-fns/tz over Intl's IANA data, never a fixed -3 h, never the
 * machine's zone): the São Paulo day, the schedule's local days and hours, the courts' wall clock
 * of an instant. Pure.
 */

/**
 * São Paulo's clock, Brasília time: the day DJEN dates its publications by, the superior courts'
 * and the token budget's day, and the schedule's default zone. Its offset comes from the IANA
 * data, never a fixed -3 h (Brazil kept daylight saving until 2019: Decreto 9.242/2017 set its
 * last seasons, Decreto 9.772/2019 ended it).
 */
export const SAO_PAULO_ZONE = "America/Sao_Paulo";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export interface LocalDateTime extends CalendarDate {
  /** Milliseconds since local midnight. */
  timeOfDayMs: number;
}

/** Whether `name` is a time zone this runtime knows (an IANA name such as America/Manaus, or UTC). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * How far the zone's wall clock is ahead of UTC at `instant`, in milliseconds (negative west of
 * Greenwich: -3 h in São Paulo since 2019, -2 h in its summers before). Local mean times of the
 * early 1900s have seconds; they are kept.
 */
export function zoneOffsetMs(instant: number, timezone: string): number {
  const minutes = tzOffset(timezone, new Date(instant));
  // tzOffset answers NaN for a name Intl does not know, where Intl itself throws.
  if (Number.isNaN(minutes)) throw new RangeError(`"${timezone}" is not a time zone`);
  return Math.round(minutes * MINUTE_MS);
}

export function localDateTime(at: Date, timezone: string): LocalDateTime {
  const wall = new Date(at.getTime() + zoneOffsetMs(at.getTime(), timezone));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    timeOfDayMs:
      wall.getUTCHours() * HOUR_MS +
      wall.getUTCMinutes() * MINUTE_MS +
      wall.getUTCSeconds() * 1000 +
      wall.getUTCMilliseconds(),
  };
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

/** The calendar date an instant falls on in `timeZone` (DJEN's dates are São Paulo dates). */
export function dateInZone(instantMs: number, timeZone = SAO_PAULO_ZONE): IsoDate {
  const { year, month, day } = localDateTime(new Date(instantMs), timeZone);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** `HH:mm:ss` on the wall clock of `timeZone` at `instantMs`, to the second. */
export function timeOfDayInZone(instantMs: number, timeZone = SAO_PAULO_ZONE): string {
  const seconds = Math.floor(localDateTime(new Date(instantMs), timeZone).timeOfDayMs / 1000);
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
}

/** The zone-less wall clock `YYYY-MM-DDTHH:mm:ss` `timeZone` shows at `instantMs`. */
export function wallClockInZone(instantMs: number, timeZone = SAO_PAULO_ZONE): string {
  return `${dateInZone(instantMs, timeZone)}T${timeOfDayInZone(instantMs, timeZone)}`;
}

/**
 * One of our own instants for a log line, in `timeZone` (the schedule's) with its offset:
 * "2026-12-04T16:00:00.000-03:00", the same instant as the UTC text, read as the other times are.
 */
export function zonedIso(instant: Date | number, timeZone: string = SAO_PAULO_ZONE): string {
  return new TZDate(
    typeof instant === "number" ? instant : instant.getTime(),
    timeZone,
  ).toISOString();
}

/**
 * The instants whose local wall clock reads `wall` (a wall time written as UTC ms), earliest first.
 * Usually one; two when clocks go back over it; in a DST gap, where it never happens, the instant
 * of the jump, when the local clock first reads a later time.
 */
export function instantsOfWall(wall: number, timezone: string): [number, ...number[]] {
  // Offsets on either side of any transition near `wall` (no zone's offset exceeds 14 h).
  const before = zoneOffsetMs(wall - DAY_MS, timezone);
  const after = zoneOffsetMs(wall + DAY_MS, timezone);
  const exact = [...new Set([wall - before, wall - after])]
    .filter((instant) => zoneOffsetMs(instant, timezone) === wall - instant)
    .sort((a, b) => a - b);
  const [first, ...rest] = exact;
  if (first !== undefined) return [first, ...rest];
  // The jump lies in (wall - later offset, wall - earlier offset]: find its first millisecond.
  let low = wall - Math.max(before, after);
  let high = wall - Math.min(before, after);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (middle + zoneOffsetMs(middle, timezone) >= wall) high = middle;
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
