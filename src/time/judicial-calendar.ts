import { addDays, type IsoDate, isoDate, weekday, yearOf } from "./calendar-date.js";

/*
 * The national judicial calendar, as far as it is the same in (almost) every Brazilian court.
 * Local holidays (a city's anniversary, a state's own days, a court's own closures) are not here:
 * whatever uses this says the dates are estimates.
 *
 * Where courts differ, the day is left a working day, so an estimated date is never later than
 * the real one in a court that closes on it: an early warning costs a lawyer a day, a late one a
 * deadline. The exceptions are the days on which practically every court is closed (Carnaval,
 * Good Friday, Corpus Christi) and the end-of-year recess, which CNJ set for all of them.
 */

export interface Holiday {
  date: IsoDate;
  name: string;
}

/** Fixed national holidays (Lei 662/1949 as amended, Lei 6.802/1980, Lei 14.759/2023). */
const FIXED: ReadonlyArray<{ month: number; day: number; name: string; since?: number }> = [
  { month: 1, day: 1, name: "Confraternização Universal" },
  { month: 4, day: 21, name: "Tiradentes" },
  { month: 5, day: 1, name: "Dia do Trabalho" },
  { month: 9, day: 7, name: "Independência do Brasil" },
  { month: 10, day: 12, name: "Nossa Senhora Aparecida" },
  { month: 11, day: 2, name: "Finados" },
  { month: 11, day: 15, name: "Proclamação da República" },
  // A national holiday only from 2024 (Lei 14.759/2023); before, a holiday in some places only.
  { month: 11, day: 20, name: "Dia Nacional de Zumbi e da Consciência Negra", since: 2024 },
  { month: 12, day: 25, name: "Natal" },
];

/**
 * Days counted from Easter Sunday on which courts close almost everywhere, although only Good
 * Friday is a holiday by law (Lei 9.093/1995, declared by the municipalities): Carnaval is a
 * closure each court declares, Corpus Christi likewise.
 */
const FROM_EASTER: ReadonlyArray<{ offset: number; name: string }> = [
  { offset: -48, name: "Carnaval (segunda-feira)" },
  { offset: -47, name: "Carnaval (terça-feira)" },
  { offset: -2, name: "Sexta-feira Santa" },
  { offset: 60, name: "Corpus Christi" },
];

/**
 * Ash Wednesday: most courts open at noon or later. A deadline that would start (or end) on a day
 * the courts open late moves to the next working day (CPC art. 224 §1), so it is a working day
 * that never starts a deadline.
 */
const ASH_WEDNESDAY_OFFSET = -46;

/** Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm, Meeus/Jones/Butcher). */
export function easterSunday(year: number): IsoDate {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return isoDate(year, month, day);
}

const holidayCache = new Map<number, ReadonlyMap<IsoDate, string>>();

/** The national holidays and the nationwide Easter-based closures of a year, by date. */
export function judicialHolidays(year: number): ReadonlyMap<IsoDate, string> {
  const cached = holidayCache.get(year);
  if (cached) return cached;
  const days = new Map<IsoDate, string>();
  for (const fixed of FIXED) {
    if (fixed.since !== undefined && year < fixed.since) continue;
    days.set(isoDate(year, fixed.month, fixed.day), fixed.name);
  }
  const easter = easterSunday(year);
  for (const moving of FROM_EASTER) days.set(addDays(easter, moving.offset), moving.name);
  holidayCache.set(year, days);
  return days;
}

/** The holidays of a year in date order. */
export function holidayList(year: number): Holiday[] {
  return [...judicialHolidays(year)]
    .map(([date, name]) => ({ date, name }))
    .sort((a, b) => (a.date < b.date ? -1 : 1));
}

/**
 * 20 December to 6 January: the courts' recess, with the offices closed except for urgent
 * matters (Res. CNJ 244/2016 art. 1; Lei 5.010/1966 art. 62 I for the federal courts).
 */
export function inRecess(date: IsoDate): boolean {
  const monthDay = date.slice(5);
  return monthDay >= "12-20" || monthDay <= "01-06";
}

/** 20 December to 20 January, both included: deadlines do not run (CPC art. 220). */
export function countingSuspended(date: IsoDate): boolean {
  const monthDay = date.slice(5);
  return monthDay >= "12-20" || monthDay <= "01-20";
}

export type DayKind = "working" | "weekend" | "holiday" | "recess";

export interface DayStatus {
  date: IsoDate;
  kind: DayKind;
  /** The holiday's name, "recesso forense" or the weekday, for a day that is not working. */
  reason: string | null;
  /** A working day on which courts open late (Ash Wednesday): never the first day of a count. */
  lateOpening: boolean;
}

const RECESS = "recesso forense (20/12 a 06/01)";

export function dayStatus(date: IsoDate): DayStatus {
  const holiday = judicialHolidays(yearOf(date)).get(date);
  if (holiday !== undefined) return { date, kind: "holiday", reason: holiday, lateOpening: false };
  const day = weekday(date);
  if (day === 0 || day === 6) {
    return { date, kind: "weekend", reason: day === 0 ? "domingo" : "sábado", lateOpening: false };
  }
  if (inRecess(date)) return { date, kind: "recess", reason: RECESS, lateOpening: false };
  const lateOpening = date === addDays(easterSunday(yearOf(date)), ASH_WEDNESDAY_OFFSET);
  return { date, kind: "working", reason: null, lateOpening };
}

export function isWorkingDay(date: IsoDate): boolean {
  return dayStatus(date).kind === "working";
}
