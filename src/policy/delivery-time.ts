import { Cron } from "croner";
import { instantsOfWall, localDateTime } from "../time/zoned-time.js";

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
