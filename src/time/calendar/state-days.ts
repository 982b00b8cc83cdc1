import Holidays from "date-holidays";
import { z } from "zod";
import { addDays, type IsoDate, isoDate, weekday } from "../calendar-date.js";
import { loadCalendarTable, SourceFields } from "./calendar-data.js";
import { type CourtSeat, IBGE_UF, type Uf } from "./court-seat.js";
import { citations, type DatedRule, type DayRule, type LayerYear } from "./day-rule.js";
import stateJson from "./state-days.json" with { type: "json" };

/*
 * The states' holidays (state-days.json), kept by every court sitting in the state (Lei
 * 1.408/1951 art. 5: no expediente "nos dias que a Lei estadual designar"). The dates come from
 * date-holidays 3.37.0 (npm, ISC/CC-BY-3.0) where its rule was checked against the state's law or
 * the courts' own calendars for 2025-2027; each kept rule carries that source. Where the library
 * is wrong the rule is dropped with the reason, and what it lacks is added with its law.
 *
 * A holiday a state or court moves by decree from year to year (Acre's Lei 2.126/2009 celebrates
 * its holidays on Fridays, but decrees have picked Mondays and Tuesdays too; Rondônia's Dia do
 * Evangélico went to a Friday in 2019) is closed here only when it falls on a Friday, where no move
 * happens; in other years it stays a working day and `considered` says so.
 */

const Verdict = z.discriminatedUnion("keep", [
  z.strictObject({ keep: z.literal(true), name: z.string().min(1), ...SourceFields }),
  z.strictObject({
    keep: z.literal(false),
    why: z.string().min(1),
    /** Dropped because no law was found (not because the library is wrong): named to the lawyer. */
    unverified: z.literal(true).optional(),
  }),
]);
type Verdict = z.infer<typeof Verdict>;

const Addition = z.strictObject({
  month: z.number().int().min(1).max(12),
  day: z.number().int().min(1).max(31),
  name: z.string().min(1),
  ...SourceFields,
  since: z.number().int().optional(),
  /** How the law moves it off its date; absent: it stays. */
  move: z.enum(["fridays-only", "tuesday-to-monday-thursday-to-friday"]).optional(),
});
type Addition = z.infer<typeof Addition>;

const UfKey = z.enum(Object.keys(IBGE_UF) as [Uf, ...Uf[]]);

const StateFile = z.strictObject({
  about: z.string(),
  /** The date-holidays version whose rule keys `libraryRules` judges. */
  library: z.string().min(1),
  /** date-holidays' rule key for each state (every state listed), with what was found of it. */
  libraryRules: z.record(UfKey, z.record(z.string(), Verdict)),
  /** What date-holidays lacks, with its law. */
  additions: z.partialRecord(UfKey, z.array(Addition)),
});

/** The states' tables of a state-days.json, checked. */
export function parseStateDays(json: unknown): z.infer<typeof StateFile> {
  return loadCalendarTable("state-days.json", StateFile, json);
}

const TABLE = parseStateDays(stateJson);

export const DATE_HOLIDAYS = TABLE.library;

/** date-holidays' rule key (`getHolidays()[i].rule`) for each state, with what was found of it. */
export const LIBRARY_RULES: Readonly<Record<Uf, Readonly<Record<string, Verdict>>>> =
  TABLE.libraryRules;

const ADDITIONS: Readonly<Partial<Record<Uf, readonly Addition[]>>> = TABLE.additions;

const nationalRules = new Set(new Holidays("BR").getHolidays(2026).map((h) => h.rule));

/** The day an addition is kept on in `year`, or null where a decree decides (not known here). */
function additionDate(addition: Addition, year: number): IsoDate | null {
  const date = isoDate(year, addition.month, addition.day);
  const day = weekday(date);
  if (addition.move === "fridays-only") return day === 5 || day === 0 || day === 6 ? date : null;
  if (addition.move === "tuesday-to-monday-thursday-to-friday") {
    if (day === 2) return addDays(date, -1);
    if (day === 4) return addDays(date, 1);
  }
  return date;
}

function stateRule(name: string, source: string, url: string | null): DayRule {
  return { effect: "holiday", name, source, url, scope: "state" };
}

const cache = new Map<string, LayerYear>();

/** The holidays of the seat's state in `year`. */
export function stateDays(seat: CourtSeat, year: number): LayerYear {
  if (seat.uf === null || seat.branch === "superior") {
    return {
      days: [],
      considered: [],
      notConsidered:
        seat.branch === "superior" || seat.branch === null
          ? []
          : ["feriados estaduais (o estado da sede não é conhecido)"],
    };
  }
  const key = `${seat.uf}|${year}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const uf = seat.uf;
  const verdicts = LIBRARY_RULES[uf];
  const days: DatedRule[] = [];
  const unchecked: string[] = [];
  const moved: string[] = [];
  const library = new Holidays("BR", uf.toUpperCase()).getHolidays(year);
  for (const holiday of library) {
    if (holiday.type !== "public" || nationalRules.has(holiday.rule)) continue;
    const verdict = verdicts[holiday.rule];
    if (verdict === undefined) {
      unchecked.push(
        `${holiday.name} (${holiday.date.slice(0, 10)}: regra de ${DATE_HOLIDAYS} sem fonte conferida)`,
      );
      continue;
    }
    if (!verdict.keep) {
      if (verdict.unverified)
        unchecked.push(`${holiday.name} (${holiday.date.slice(0, 10)}: ${verdict.why})`);
      continue;
    }
    days.push({
      date: holiday.date.slice(0, 10),
      rule: stateRule(verdict.name, verdict.source, verdict.url),
    });
  }
  for (const addition of ADDITIONS[uf] ?? []) {
    if (addition.since !== undefined && year < addition.since) continue;
    const date = additionDate(addition, year);
    if (date === null) {
      moved.push(
        `${addition.name} (${addition.day}/${addition.month}, transferido por decreto a cada ano)`,
      );
      continue;
    }
    days.push({ date, rule: stateRule(addition.name, addition.source, addition.url) });
  }
  const sources = citations(days.map((d) => d.rule.source));
  const layer: LayerYear = {
    days,
    considered: [
      {
        scope: "state",
        text: `feriados estaduais de ${uf.toUpperCase()} (${sources === "" ? "nenhum além dos nacionais" : sources}; datas de ${DATE_HOLIDAYS}, conferidas)`,
      },
    ],
    notConsidered: [
      ...unchecked.map((u) => `feriado estadual ${u}`),
      ...moved.map((m) => `feriado estadual ${m}`),
    ],
  };
  cache.set(key, layer);
  return layer;
}
