import { Cron } from "croner";
import { type CalendarDate, parseCalendarDate } from "../time/calendar-date.js";

/*
 * When a queued mail may go out: quiet hours, digest schedules and local calendar days, all in the
 * schedule's time zone. Pure: every instant is a parameter, and local time comes from Intl or
 * croner, never from the machine's own zone.
 */

/** Local "HH:MM" (24 h) in the schedule's time zone; start > end crosses midnight (22:00-07:00). */
export interface QuietHours {
  start: string;
  end: string;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const CLOCK_TIME = /^(\d{1,2}):(\d{2})$/;

/** "7:00" and "07:00" are fine; "24:00", "7h" and "07:60" are not. */
export function parseClockTime(text: string): { hour: number; minute: number } | null {
  const match = CLOCK_TIME.exec(text);
  if (match === null) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  if (hour > 23 || minute > 59) return null;
  return { hour, minute };
}

interface LocalDateTime extends CalendarDate {
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

function localDateTime(at: Date, timezone: string): LocalDateTime {
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
function instantsOfWall(wall: number, timezone: string): [number, ...number[]] {
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

/**
 * Null when `at` is outside the window (or there is none); otherwise when the window ends, the next
 * local `end` after `at`. The window is [start, end); start === end is no window at all.
 */
export function quietHoursEnd(at: Date, quiet: QuietHours | null, timezone: string): Date | null {
  if (quiet === null) return null;
  const start = parseClockTime(quiet.start);
  const end = parseClockTime(quiet.end);
  if (start === null || end === null) {
    throw new Error(`quiet hours "${quiet.start}-${quiet.end}" are not two HH:MM times`);
  }
  const startMs = start.hour * HOUR_MS + start.minute * MINUTE_MS;
  const endMs = end.hour * HOUR_MS + end.minute * MINUTE_MS;
  if (startMs === endMs) return null;
  const local = localDateTime(at, timezone);
  const t = local.timeOfDayMs;
  const inside = startMs < endMs ? t >= startMs && t < endMs : t >= startMs || t < endMs;
  if (!inside) return null;
  // Before `end` today the window closes today; in the evening part of 22:00-07:00, tomorrow.
  const dayShift = t < endMs ? 0 : 1;
  const endWall = Date.UTC(local.year, local.month - 1, local.day + dayShift) + endMs;
  // Inside a repeated hour (clocks going back) the first reading of `end` may be behind `at`.
  const ends = instantsOfWall(endWall, timezone);
  return new Date(ends.find((instant) => instant > at.getTime()) ?? ends[0]);
}

function schedule(cron: string, timezone: string): Cron {
  return new Cron(cron, { timezone, paused: true });
}

/** The next fire strictly after `after`. */
export function nextScheduledAt(cron: string, timezone: string, after: Date): Date {
  const job = schedule(cron, timezone);
  try {
    const next = job.nextRun(after);
    if (next === null) {
      throw new Error(
        `the schedule "${cron}" (${timezone}) never fires after ${after.toISOString()}`,
      );
    }
    return next;
  } finally {
    job.stop();
  }
}

/** The latest fire t with at - lookbackMs < t <= at, or null: is a periodic report due? */
export function latestScheduledAt(
  cron: string,
  timezone: string,
  at: Date,
  lookbackMs: number,
): Date | null {
  const job = schedule(cron, timezone);
  try {
    // previousRuns excludes a fire exactly at its reference; fires are whole seconds, so +1 ms
    // includes one at `at` and nothing later.
    const [latest] = job.previousRuns(1, new Date(at.getTime() + 1));
    if (latest === undefined || latest.getTime() <= at.getTime() - lookbackMs) return null;
    return latest;
  } finally {
    job.stop();
  }
}

export interface DeliveryInput {
  /** When the mail is queued. */
  at: Date;
  delivery: "instant" | "digest";
  /** Cron; only used with digest. */
  digestSchedule: string | null;
  quietHours: QuietHours | null;
  /** Urgent alerts may skip quiet hours when the setting allows. */
  bypassQuietHours: boolean;
  timezone: string;
}

/** When the mail may go out; null: now. */
export function deliveryTime(input: DeliveryInput): Date | null {
  const quiet = input.bypassQuietHours ? null : input.quietHours;
  if (input.delivery === "instant" || input.digestSchedule === null) {
    return quietHoursEnd(input.at, quiet, input.timezone);
  }
  const fire = nextScheduledAt(input.digestSchedule, input.timezone, input.at);
  return quietHoursEnd(fire, quiet, input.timezone) ?? fire;
}
