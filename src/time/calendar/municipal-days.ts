import { z } from "zod";
import { addDays, type IsoDate } from "../calendar-date.js";
import { easterSunday } from "../judicial-calendar.js";
import { loadCalendarTable, MonthDay, SourceFields } from "./calendar-data.js";
import type { CourtSeat } from "./court-seat.js";
import { citations, type DatedRule, type DayRule, type LayerYear } from "./day-rule.js";
import municipalJson from "./municipal-days.json" with { type: "json" };

/*
 * The municipal holidays of the 27 capitals (municipal-days.json, by IBGE code), each with the
 * municipal law that makes it one (Lei 9.093/1995 art. 2: up to four religious days, Good Friday
 * among them, by municipal law), or, where the law's number was not found, the official act that
 * lists it as a municipal holiday. A day whose basis was not found is not here: it stays a working
 * day and `considered` names it. Good Friday is already a holiday everywhere (national-days.ts).
 * Brasília's days are the Federal District's (state-days.ts).
 */

const MunicipalDay = z.union([
  z.strictObject({ fixed: MonthDay, name: z.string().min(1), ...SourceFields }),
  /** Days after Easter Sunday (60: Corpus Christi). */
  z.strictObject({ easter: z.number().int(), name: z.string().min(1), ...SourceFields }),
]);
type MunicipalDay = z.infer<typeof MunicipalDay>;

const Capital = z.strictObject({
  ibge: z.number().int().min(1_000_000).max(9_999_999),
  name: z.string().min(1),
  days: z.array(MunicipalDay),
  /** Days said to be municipal holidays whose legal basis was not found here: kept working. */
  notFound: z.array(z.string().min(1)).optional(),
});
type Capital = z.infer<typeof Capital>;

const MunicipalFile = z.strictObject({ about: z.string(), capitals: z.array(Capital) });

/** The capitals of a municipal-days.json, checked: no capital twice. */
export function parseMunicipalDays(json: unknown): readonly Capital[] {
  const { capitals } = loadCalendarTable("municipal-days.json", MunicipalFile, json);
  const seen = new Set<number>();
  for (const capital of capitals) {
    if (seen.has(capital.ibge)) {
      throw new Error(`src/time/calendar/municipal-days.json lists ${capital.ibge} twice`);
    }
    seen.add(capital.ibge);
  }
  return capitals;
}

const CAPITALS: ReadonlyMap<number, Capital> = new Map(
  parseMunicipalDays(municipalJson).map((capital) => [capital.ibge, capital]),
);

/** Capitals whose holidays are here, by IBGE code (for tests and docs/deadlines.md). */
export const CAPITAL_CODES: readonly number[] = [...CAPITALS.keys()];

/** A capital's name by IBGE code, or null for a seat whose days are not here. */
export function municipalityName(code: number): string | null {
  return CAPITALS.get(code)?.name ?? null;
}

function dateOf(day: MunicipalDay, year: number): IsoDate {
  return "easter" in day ? addDays(easterSunday(year), day.easter) : `${year}-${day.fixed}`;
}

function municipalRule({ name, source, url }: MunicipalDay): DayRule {
  return { effect: "holiday", name, source, url, scope: "municipal" };
}

/** The municipal holidays of the seat in `year`. */
export function municipalDays(
  seat: CourtSeat,
  year: number,
): LayerYear & { corpusChristi: boolean } {
  if (seat.branch === "superior" || seat.branch === null) {
    return { days: [], considered: [], notConsidered: [], corpusChristi: false };
  }
  if (seat.municipality === null) {
    return {
      days: [],
      considered: [],
      notConsidered: ["feriados municipais (a sede da unidade não é conhecida)"],
      corpusChristi: false,
    };
  }
  const capital = CAPITALS.get(seat.municipality);
  if (capital === undefined) {
    return {
      days: [],
      considered: [],
      notConsidered: [
        `feriados municipais da sede (IBGE ${seat.municipality}): só os das capitais estão nos dados`,
      ],
      corpusChristi: false,
    };
  }
  const days: DatedRule[] = capital.days.map((d) => ({
    date: dateOf(d, year),
    rule: municipalRule(d),
  }));
  const sources = citations(capital.days.map((day) => day.source));
  return {
    days,
    considered:
      days.length === 0
        ? []
        : [{ scope: "municipal", text: `feriados municipais de ${capital.name} (${sources})` }],
    notConsidered: (capital.notFound ?? []).map((n) => `feriado municipal: ${n}`),
    corpusChristi: capital.days.some((day) => "easter" in day && day.easter === 60),
  };
}
