import { addDays, type IsoDate, parseIsoDate } from "./calendar-date.js";
import { countingSuspended, type DayStatus, dayStatus } from "./judicial-calendar.js";

/**
 * When a DJEN communication counts as published and when its deadline starts to run.
 *
 * - Made available (disponibilizada) on day D: it counts as published on the first working day
 *   after D (Lei 11.419/2006 art. 4 §3; CPC art. 224 §2).
 * - The deadline starts on the first working day after publication (Lei 11.419/2006 art. 4 §4;
 *   CPC art. 224 §3), counting working days only (CPC art. 219), never inside 20 December -
 *   20 January (CPC art. 220), and never on a day the courts open late (CPC art. 224 §1).
 */
export interface CountingDates {
  /** DJEN's `data_disponibilizacao`. */
  availableOn: IsoDate;
  /** The date it counts as published. */
  publishedOn: IsoDate;
  /** The first day of the deadline's count. */
  countingStartsOn: IsoDate;
  /**
   * Why the dates fall later than the next weekdays would put them (holidays, the recess, the
   * suspension of deadlines, a late opening), first met first, each once; weekends not listed.
   */
  reasons: string[];
  /** Always true: local holidays and a court's own closures are not known here. */
  estimate: true;
}

const SUSPENDED = "prazos suspensos de 20/12 a 20/01 (CPC art. 220)";
const LATE_OPENING = "Quarta-feira de Cinzas: expediente reduzido (CPC art. 224 §1)";

/** A year of days with no working day cannot happen; stop rather than loop on a bad table. */
const MAX_DAYS = 366;

function note(reasons: string[], reason: string): void {
  if (!reasons.includes(reason)) reasons.push(reason);
}

/** Why `status` cannot take the role asked of it, or null when it can. */
type Refusal = (status: DayStatus) => string | null;

function firstDayAfter(date: IsoDate, refuse: Refusal, reasons: string[]): IsoDate {
  let day = date;
  for (let i = 0; i < MAX_DAYS; i++) {
    day = addDays(day, 1);
    const status = dayStatus(day);
    const why = refuse(status);
    if (why === null) return day;
    if (status.kind !== "weekend") note(reasons, why);
  }
  throw new Error(`no working day within a year after ${date}: the judicial calendar is wrong`);
}

const notPublishing: Refusal = (status) => (status.kind === "working" ? null : status.reason);

const notStartingCount: Refusal = (status) => {
  if (status.kind !== "working") return status.reason;
  if (countingSuspended(status.date)) return SUSPENDED;
  if (status.lateOpening) return LATE_OPENING;
  return null;
};

export function countingDates(availableOn: IsoDate): CountingDates {
  if (parseIsoDate(availableOn) === null) {
    throw new RangeError(`"${availableOn}" is not a calendar date (YYYY-MM-DD)`);
  }
  const reasons: string[] = [];
  const publishedOn = firstDayAfter(availableOn, notPublishing, reasons);
  const countingStartsOn = firstDayAfter(publishedOn, notStartingCount, reasons);
  return { availableOn, publishedOn, countingStartsOn, reasons, estimate: true };
}
