/**
 * Calendar dates as `YYYY-MM-DD` strings: a day on the courts' calendar, with no time and no
 * time zone. Arithmetic goes through UTC midnight, where no day is ever 23 or 25 hours long.
 */
export type CalendarDate = string;

const SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/u;
const DAY_MS = 86_400_000;

/** The date if `text` is a real `YYYY-MM-DD` day (no 2025-02-30), else null. */
export function parseCalendarDate(text: string): CalendarDate | null {
  const match = SHAPE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(Date.UTC(year, month - 1, day));
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) {
    return null;
  }
  return text;
}

function toUtcMs(date: CalendarDate): number {
  if (parseCalendarDate(date) === null) {
    throw new RangeError(`"${date}" is not a calendar date (YYYY-MM-DD)`);
  }
  return Date.parse(`${date}T00:00:00Z`);
}

function fromUtcMs(ms: number): CalendarDate {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `date` moved by `days` (negative goes back). */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  return fromUtcMs(toUtcMs(date) + days * DAY_MS);
}

/** 0 = Sunday ... 6 = Saturday. */
export function weekday(date: CalendarDate): number {
  return new Date(toUtcMs(date)).getUTCDay();
}

export function calendarDate(year: number, month: number, day: number): CalendarDate {
  return fromUtcMs(Date.UTC(year, month - 1, day));
}

export function yearOf(date: CalendarDate): number {
  return Number(date.slice(0, 4));
}

/** "30/09/2025", as Brazilian readers write dates. */
export function formatBrazilian(date: CalendarDate): string {
  const [year, month, day] = date.split("-");
  return `${day}/${month}/${year}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar date an instant falls on in `timeZone` (DJEN's dates are São Paulo dates). */
export function dateInZone(instantMs: number, timeZone = "America/Sao_Paulo"): CalendarDate {
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
