import { z } from "zod";
import { addDays, type IsoDate, parseIsoDate, yearOf } from "../calendar-date.js";
import { easterSunday } from "../judicial-calendar.js";
import { loadCalendarTable, MonthDay, SourceFields } from "./calendar-data.js";
import { courtActs } from "./court-acts.js";
import rulesJson from "./court-rules.json" with { type: "json" };
import type { CourtSeat } from "./court-seat.js";
import type { DatedRule, DayRule, LayerYear } from "./day-rule.js";

/*
 * What each court decides for itself (court-rules.json): its organization law or regimento
 * (standing rules), and its yearly calendar acts where one was found. Only what a source says is
 * here; a court without an entry for a topic keeps that day working and `considered` says so (an
 * early estimate is safe, a late one is not). Sources were read through the `search` tool; each
 * entry names its act.
 */

/** The days whose closure differs from court to court, and `considered` reports. */
export type Topic =
  | "carnival-monday"
  | "ash-wednesday"
  | "holy-week"
  | "corpus-christi"
  | "servant-day"
  | "justice-day";

const When = z.union([
  /** Days after Easter Sunday. */
  z.strictObject({ easter: z.number().int(), name: z.string().min(1) }),
  /** MM-DD, every year. */
  z.strictObject({ fixed: MonthDay, name: z.string().min(1) }),
  /** One day. */
  z.strictObject({
    date: z.string().refine((text) => parseIsoDate(text) !== null, "a calendar date, YYYY-MM-DD"),
    name: z.string().min(1),
  }),
]);
type When = z.infer<typeof When>;

const CourtRule = z.strictObject({
  courts: z.array(z.string().regex(/^[a-z0-9-]+$/u)).min(1),
  /** Only in these years (a yearly act); absent: every year (a standing rule). */
  years: z.array(z.number().int()).min(1).optional(),
  when: z.array(When).min(1),
  /** `working`: the act says the court works normally that day (it only settles the topic). */
  effect: z.enum(["closed", "late-opening", "working"]),
  /** The act is the court's whole calendar of the year (every day it closes). */
  annualCalendar: z.literal(true).optional(),
  ...SourceFields,
  /** The act's words or why the rule reads it so. */
  note: z.string().min(1).optional(),
});
type CourtRule = z.infer<typeof CourtRule>;

const RulesFile = z.strictObject({ about: z.string(), rules: z.array(CourtRule) });

/** The rules of a court-rules.json, checked: a dated day belongs to one of its rule's years. */
export function parseCourtRules(json: unknown): readonly CourtRule[] {
  const { rules } = loadCalendarTable("court-rules.json", RulesFile, json);
  for (const rule of rules) {
    for (const when of rule.when) {
      if ("date" in when && rule.years !== undefined && !rule.years.includes(yearOf(when.date))) {
        throw new Error(
          `src/time/calendar/court-rules.json: ${rule.source} dates ${when.date} outside its years`,
        );
      }
    }
  }
  return rules;
}

const RULES: readonly CourtRule[] = parseCourtRules(rulesJson);

const TOPIC_BY_OFFSET: ReadonlyMap<number, Topic> = new Map([
  [-48, "carnival-monday"],
  [-46, "ash-wednesday"],
  [-4, "holy-week"],
  [-3, "holy-week"],
  [60, "corpus-christi"],
]);

export const NOTE_BY_TOPIC: Readonly<Record<Topic, string>> = {
  "carnival-monday": "segunda-feira de Carnaval (ato do tribunal)",
  "ash-wednesday":
    "Quarta-feira de Cinzas (expediente reduzido ou sem expediente por ato do tribunal)",
  "holy-week": "quarta e quinta-feira da Semana Santa (ato do tribunal)",
  "corpus-christi": "Corpus Christi onde não é feriado municipal conhecido (ato do tribunal)",
  "servant-day":
    "Dia do Servidor Público (28/10; Lei 8.112/1990, art. 236, e as leis dos estados), que cada tribunal mantém, transfere ou dispensa por ato anual",
  "justice-day":
    "Dia da Justiça (08/12; Lei 1.408/1951, art. 5º; Decreto-Lei 8.292/1945), que os tribunais dos estados guardam ou transferem por ato (o TJPR o passou a 18/12 em 2026)",
};

/** A day an act names as the Dia do Servidor Público, on 28/10 or moved. */
const SERVANT_DAY = /Dia do (?:Servidor|Funcionário) Público/u;

/** A day an act or law names as the Dia da Justiça, on 08/12 or moved. */
const JUSTICE_DAY = /Dia da Justiça/u;

function dateOf(when: When, year: number): IsoDate | null {
  if ("easter" in when) return addDays(easterSunday(year), when.easter);
  if ("fixed" in when) return `${year}-${when.fixed}`;
  return yearOf(when.date) === year ? when.date : null;
}

function topicOf(date: IsoDate, year: number): Topic | null {
  const easter = easterSunday(year);
  for (const [offset, topic] of TOPIC_BY_OFFSET) {
    if (addDays(easter, offset) === date) return topic;
  }
  return null;
}

/** The topics a day of an act settles: by its date (Easter's days) or its name. */
function topicsOf(date: IsoDate, name: string, year: number): Topic[] {
  const topics: Topic[] = [];
  const topic = topicOf(date, year);
  if (topic !== null) topics.push(topic);
  if (SERVANT_DAY.test(name)) topics.push("servant-day");
  if (JUSTICE_DAY.test(name)) topics.push("justice-day");
  return topics;
}

export interface CourtRulesYear extends LayerYear {
  settled: ReadonlySet<Topic>;
  /** The court's whole calendar of the year is held (an act fixing every day it closes). */
  annualCalendar: boolean;
  /** The court's acts of the year that suspend periods, by month ("01", "07"...). */
  suspendedMonths: ReadonlySet<string>;
}

/** The court's own rules and acts for a year (these and court-acts.json), and what they settle. */
export function courtRules(seat: CourtSeat, year: number): CourtRulesYear {
  const days: DatedRule[] = [];
  const settled = new Set<Topic>();
  const sources: string[] = [];
  let annualCalendar = false;
  for (const entry of RULES) {
    if (!entry.courts.includes(seat.court)) continue;
    if (entry.years !== undefined && !entry.years.includes(year)) continue;
    if (entry.annualCalendar) annualCalendar = true;
    for (const when of entry.when) {
      const date = dateOf(when, year);
      if (date === null) continue;
      for (const topic of topicsOf(date, when.name, year)) settled.add(topic);
      if (entry.effect === "working") continue;
      const rule: DayRule = {
        effect: entry.effect,
        name: when.name,
        source: entry.source,
        url: entry.url,
        scope: "court",
      };
      days.push({ date, rule });
    }
    if (!sources.includes(entry.source)) sources.push(entry.source);
  }
  const acts = courtActs(seat.court, year);
  const suspendedMonths = new Set<string>();
  for (const { date, rule } of acts.days) {
    for (const topic of topicsOf(date, rule.name, year)) settled.add(topic);
    if (rule.effect === "suspended") suspendedMonths.add(date.slice(5, 7));
    days.push({ date, rule });
  }
  for (const act of acts.acts) if (!sources.includes(act)) sources.push(act);
  return {
    days,
    considered:
      sources.length === 0
        ? []
        : [{ scope: "court", text: `atos do tribunal: ${sources.join("; ")}` }],
    notConsidered: [],
    settled,
    annualCalendar: annualCalendar || acts.annualCalendar,
    suspendedMonths,
  };
}
