/**
 * Days on the courts' calendar as `YYYY-MM-DD` strings, with no time and no time zone (muted_until,
 * digest and mute days, DJEN's dates): whether one exists, its parts, and arithmetic on them. The
 * arithmetic goes through UTC midnight, where no day is ever 23 or 25 hours long.
 */

export function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** YYYY-MM-DD if the parts make a calendar date, else null. */
export function calendarDate(year: number, month: number, day: number): string | null {
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return null;
  }
  const pad = (n: number, width: number): string => String(n).padStart(width, "0");
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** The parts of a date written exactly `YYYY-MM-DD`; null for any other text or no such day. */
export function parseCalendarDate(text: string): CalendarDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return calendarDate(year, month, day) === null ? null : { year, month, day };
}

/** A `YYYY-MM-DD` day. */
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
