import { z } from "zod";
import { addDays, type IsoDate, parseIsoDate, yearOf } from "../calendar-date.js";
import { loadCalendarTable } from "./calendar-data.js";
import actsJson from "./court-acts.json" with { type: "json" };
import type { DatedRule, DayRule } from "./day-rule.js";

/*
 * The courts' yearly acts kept as data (court-acts.json): days an act closes, opens late or
 * on which it suspends periods, each with the act and where it was read. An act spanning the
 * year's turn (a suspension from 20/12 to 31/01) belongs to both years. `annualCalendar` marks
 * the court's whole calendar for the year (every day it closes), which settles what an act of
 * that year could add; a partial act settles only the days it names.
 */

const DateText = z
  .string()
  .refine((text) => parseIsoDate(text) !== null, "a calendar date, YYYY-MM-DD");

const ActDay = z.strictObject({
  from: DateText,
  /** Inclusive; absent: the one day `from`. */
  to: DateText.optional(),
  effect: z.enum(["closed", "late-opening", "suspended"]),
  name: z.string().min(1),
  /** false: the act excepts criminal cases (CPP arts. 798 and 798-A); absent: it applies to all. */
  criminal: z.literal(false).optional(),
});

const Act = z.strictObject({
  courts: z.array(z.string().regex(/^[a-z0-9-]+$/u)).min(1),
  act: z.string().min(1),
  url: z.string().url().nullable(),
  annualCalendar: z.boolean(),
  days: z.array(ActDay).min(1),
});

const ActsFile = z.strictObject({ about: z.string(), acts: z.array(Act) });
type Act = z.infer<typeof Act>;

/** The acts of a court-acts.json, checked: a damaged file stops the process naming where. */
export function parseCourtActs(json: unknown): readonly Act[] {
  const { acts } = loadCalendarTable("court-acts.json", ActsFile, json);
  for (const act of acts) {
    for (const day of act.days) {
      if (day.to !== undefined && day.to < day.from) {
        throw new Error(`court-acts.json: ${act.act} ends ${day.to} before it starts ${day.from}`);
      }
    }
  }
  return acts;
}

const ACTS = parseCourtActs(actsJson);

/** The years an act touches. */
function yearsOf(act: Act): Set<number> {
  const years = new Set<number>();
  for (const day of act.days) {
    for (let y = yearOf(day.from); y <= yearOf(day.to ?? day.from); y++) years.add(y);
  }
  return years;
}

export interface CourtActsYear {
  days: DatedRule[];
  /** The acts of this court that touch the year, by name. */
  acts: string[];
  /** One of them is the court's whole calendar of the year. */
  annualCalendar: boolean;
}

/** The acts of `court` (a DataJud alias) that touch `year`, and their days in that year. */
export function courtActs(court: string, year: number, acts: readonly Act[] = ACTS): CourtActsYear {
  const out: CourtActsYear = { days: [], acts: [], annualCalendar: false };
  for (const act of acts) {
    if (!act.courts.includes(court) || !yearsOf(act).has(year)) continue;
    out.acts.push(act.act);
    if (act.annualCalendar) out.annualCalendar = true;
    for (const day of act.days) {
      const rule: DayRule = {
        effect: day.effect,
        name: day.name,
        source: act.act,
        url: act.url,
        scope: "court",
        ...(day.criminal === false ? { notInCriminal: true as const } : {}),
      };
      for (let date: IsoDate = day.from; date <= (day.to ?? day.from); date = addDays(date, 1)) {
        if (yearOf(date) === year) out.days.push({ date, rule });
      }
    }
  }
  return out;
}

/** Every act held, for tests and the docs. */
export const COURT_ACTS: readonly Act[] = ACTS;
