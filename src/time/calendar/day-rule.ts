import { addDays, type IsoDate, isoDate } from "../calendar-date.js";

/**
 * What a reason does to the day. `late-opening` covers all of CPC art. 224 §1: the court opens
 * late, closes early or its electronic system is down; such a day neither begins nor ends a count.
 * `suspended`: deadlines do not run, although the court may work (CPC art. 220).
 */
export type DayEffect = "weekend" | "holiday" | "recess" | "closed" | "suspended" | "late-opening";

/** Whose rule it is. */
export type DayScope = "national" | "branch" | "state" | "municipal" | "court" | "configuration";

/** One reason for a day, with where it comes from. */
export interface DayRule {
  effect: DayEffect;
  /** What the day is, in Portuguese for the lawyer: "Tiradentes", "recesso forense". */
  name: string;
  /** Where it comes from: "Lei 662/1949, art. 1º", "Res. CNJ 244/2016, art. 1º", an act's number. */
  source: string;
  /** A link to the source, when there is one. */
  url: string | null;
  scope: DayScope;
  /**
   * A suspension the rule or act does not extend to criminal periods: they "não se interrompem por
   * férias" (CPP, art. 798) and follow art. 798-A only. Absent: it applies to every procedure.
   */
  notInCriminal?: true;
}

export interface DatedRule {
  date: IsoDate;
  rule: DayRule;
}

/** One thing a calendar took into account for a court and year. */
export interface ConsideredItem {
  scope: DayScope;
  /** Portuguese: "feriados nacionais (Lei 662/1949, Lei 6.802/1980, Lei 14.759/2023)". */
  text: string;
}

/** What one layer of a court's calendar knows of a year. */
export interface LayerYear {
  days: readonly DatedRule[];
  considered: readonly ConsideredItem[];
  /** What this layer knows it does not know, each day of it treated as a working day. */
  notConsidered: readonly string[];
}

/**
 * The kinds of day that can close a court or stop its periods. A calendar answers for each of
 * them, every year: applied with its sources, named as not known, or not a kind this court has.
 */
export type CalendarPart = "national" | "state" | "municipal" | "court" | "vacations";

export const CALENDAR_PARTS: readonly CalendarPart[] = [
  "national",
  "vacations",
  "state",
  "municipal",
  "court",
];

/** What a calendar knows of one kind of day for a court and year. */
export interface PartAnswer {
  /** false: no day of this kind can close this court; `why` says so. */
  applies: boolean;
  considered: readonly ConsideredItem[];
  notConsidered: readonly string[];
  /** Why the kind does not apply (empty when it does). */
  why: string;
}

/**
 * One part's answer; a part that applies but names nothing, applied or unknown, is a fault in the
 * calendar's tables, never a silent "complete".
 */
export function partAnswer(part: CalendarPart, layer: Omit<LayerYear, "days">): PartAnswer {
  if (layer.considered.length === 0 && layer.notConsidered.length === 0) {
    throw new Error(`the calendar's ${part} part says neither what it applies nor what it lacks`);
  }
  return {
    applies: true,
    considered: layer.considered,
    notConsidered: layer.notConsidered,
    why: "",
  };
}

export function partNotApplicable(why: string): PartAnswer {
  return { applies: false, considered: [], notConsidered: [], why };
}

export const EMPTY_LAYER: LayerYear = { days: [], considered: [], notConsidered: [] };

export const PLANALTO = "https://www.planalto.gov.br/ccivil_03";

/** Every day from `from` to `to`, both included, with the same rule. */
export function everyDay(from: IsoDate, to: IsoDate, rule: DayRule): DatedRule[] {
  const out: DatedRule[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) out.push({ date, rule });
  return out;
}

/** A year's part of a span that runs from 20 December into January: both ends of the year. */
export function yearEndSpan(year: number, lastJanuaryDay: number, rule: DayRule): DatedRule[] {
  return [
    ...everyDay(isoDate(year, 1, 1), isoDate(year, 1, lastJanuaryDay), rule),
    ...everyDay(isoDate(year, 12, 20), isoDate(year, 12, 31), rule),
  ];
}

export function merge(layers: readonly LayerYear[]): LayerYear {
  return {
    days: layers.flatMap((l) => l.days),
    considered: layers.flatMap((l) => l.considered),
    notConsidered: [...new Set(layers.flatMap((l) => l.notConsidered))],
  };
}

/** The acts behind `sources`, each named once: "Lei X; Lei Y" from rules that share parts. */
export function citations(sources: readonly string[]): string {
  const parts: string[] = [];
  for (const source of sources) {
    for (const part of source.split("; ")) if (!parts.includes(part)) parts.push(part);
  }
  return parts.join("; ");
}
