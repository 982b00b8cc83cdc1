import { addDays, type IsoDate } from "../time/calendar-date.js";
import type { CourtCalendar } from "../time/court-calendar.js";

/*
 * When to remind a lawyer of a last day: a number of the court's business days before it, so a
 * reminder "two business days before" a Monday deadline after a holiday Friday falls on the
 * Wednesday, a day the lawyer can still act at that court.
 */

/** A reminder is never set further back than this (a court closed for months is no reminder). */
const MAX_DAYS_BACK = 120;

/**
 * The day `businessDays` business days of `calendar` before `lastDay` (0: the last day itself).
 * A business day is a day the court works (neither weekend, holiday, recess nor closed); a day
 * opening late counts, since the lawyer can act on it.
 */
export function businessDaysBefore(
  calendar: CourtCalendar,
  lastDay: IsoDate,
  businessDays: number,
): IsoDate {
  let day = lastDay;
  let left = businessDays;
  for (let back = 0; left > 0 && back < MAX_DAYS_BACK; back += 1) {
    day = addDays(day, -1);
    if (calendar.dayStatus(day).kind === "working") left -= 1;
  }
  return day;
}
