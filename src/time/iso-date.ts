import { parseCalendarDate } from "./calendar-date.js";

/**
 * Days on the courts' calendar as `YYYY-MM-DD` strings, with no time and no time zone, and the
 * arithmetic on them. It goes through UTC midnight, where no day is ever 23 or 25 hours long.
 */
export type IsoDate = string;

const DAY_MS = 86_400_000;

/** The date if `text` is a real `YYYY-MM-DD` day (no 2025-02-30), else null. */
export function parseIsoDate(text: string): IsoDate | null {
  return parseCalendarDate(text) === null ? null : text;
}

function toUtcMs(date: IsoDate): number {
  if (parseIsoDate(date) === null) {
    throw new RangeError(`"${date}" is not a calendar date (YYYY-MM-DD)`);
  }
  return Date.parse(`${date}T00:00:00Z`);
}

function fromUtcMs(ms: number): IsoDate {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `date` moved by `days` (negative goes back). */
export function addDays(date: IsoDate, days: number): IsoDate {
  return fromUtcMs(toUtcMs(date) + days * DAY_MS);
}

/** 0 = Sunday ... 6 = Saturday. */
export function weekday(date: IsoDate): number {
  return new Date(toUtcMs(date)).getUTCDay();
}

export function isoDate(year: number, month: number, day: number): IsoDate {
  return fromUtcMs(Date.UTC(year, month - 1, day));
}

export function yearOf(date: IsoDate): number {
  return Number(date.slice(0, 4));
}

/** "30/09/2025", as Brazilian readers write dates. */
export function formatBrazilian(date: IsoDate): string {
  const [year, month, day] = date.split("-");
  return `${day}/${month}/${year}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar date an instant falls on in `timeZone` (DJEN's dates are São Paulo dates). */
export function dateInZone(instantMs: number, timeZone = "America/Sao_Paulo"): IsoDate {
  let format = formatters.get(timeZone);
  if (format === undefined) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    formatters.set(timeZone, format);
  }
  return format.format(new Date(instantMs));
}
