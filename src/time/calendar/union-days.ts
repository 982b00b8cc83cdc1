import { z } from "zod";
import { addDays, isoDate } from "../calendar-date.js";
import { easterSunday } from "../judicial-calendar.js";
import { loadCalendarTable, MonthDay, SourceFields } from "./calendar-data.js";
import type { CourtSeat } from "./court-seat.js";
import {
  type ConsideredItem,
  type DatedRule,
  type DayRule,
  EMPTY_LAYER,
  everyDay,
  type LayerYear,
  type PartAnswer,
  partAnswer,
  partNotApplicable,
  yearEndSpan,
} from "./day-rule.js";
import unionJson from "./union-days.json" with { type: "json" };

/*
 * The holidays of the Union's courts (union-days.json): Lei 5.010/1966 art. 62 ("Além dos fixados em lei, serão
 * feriados na Justiça Federal, inclusive nos Tribunais Superiores", wording of Lei 6.741/1979):
 * I 20/12 to 06/01; II Holy Wednesday to Easter Sunday; III Carnival Monday and Tuesday; IV 11/08,
 * 01/11, 02/11 and 08/12. The other branches of the Union keep the same days:
 * - electoral: Res. TSE 18.154/1992 (cited with art. 62 by TRE-AP Portaria 285/2019; TRE-SP
 *   Portarias 319/2024 and 261/2025, TRE-DF Portaria Conjunta 29/2022, TSE Portaria 13/2023 list
 *   every one of them);
 * - labour: each TRT's rules, citing art. 62 (TRT6 OS TRT-GP 273/2018, TRT2 Portaria GP 44/2004,
 *   TRT20 RA 55/2021, TRT24 Portaria 83/2024, TRT14 RI art. 290); the TST's calendar likewise;
 * - the superior courts by the article itself; the STJ also by its RI, art. 81 §2.
 * The recess of art. 62 I is a holiday in these courts, not the CNJ's recess of the states'.
 */

const Art62Day = z.strictObject({
  item: z.enum(["I", "II", "III", "IV"]),
  when: z.union([
    /** From 20/12 to this day of January, both ends of the year. */
    z.strictObject({ yearEnd: MonthDay }),
    z.strictObject({ easter: z.number().int() }),
    z.strictObject({ fixed: MonthDay }),
  ]),
  name: z.string().min(1),
  /** What `notKept` calls the day. */
  key: z.string().min(1).optional(),
});

const UnionFile = z.strictObject({
  about: z.string(),
  art62: z.strictObject({
    ...SourceFields,
    /** Which act makes the branch keep art. 62's days, after the article's own number. */
    byBranch: z.record(z.string(), z.string()),
    days: z.array(Art62Day).min(1),
  }),
  /** Days of art. 62 a court is known not to keep, by `key`, and why. */
  notKept: z.record(
    z.string(),
    z.strictObject({ days: z.array(z.string().min(1)).min(1), why: z.string().min(1) }),
  ),
  /**
   * The ministers' collective holidays, 2 to 31 January and 2 to 31 July (LC 35/1979, LOMAN, art.
   * 66 §1, kept for the superior courts after EC 45/2004; CF art. 93 XII forbids them below).
   * - STF: "o ano judiciário divide-se em dois períodos" with the vacations in January and July
   *   (RISTF art. 78), and periods do not run in the recess or the vacations, save where a law says
   *   otherwise (art. 105): suspended, as its yearly portarias also say (Portaria GDG 218/2024:
   *   20/12/2024 to 31/01/2025; Portaria 82/2025: 02-31/07/2025), except criminal periods, which
   *   "não se interrompem por férias" (CPP art. 798).
   * - TST: suspended (Súmula 262 II TST; RITST art. 183 §1).
   * - STJ: its yearly portarias have said "suspensos" (Portaria STJ/GP 941/2025, 20/12 to 31/01)
   *   and "início e término transferidos" (Portaria 218/2019): where no portaria of the year is
   *   held (court-acts.json), they are days on which no period begins or ends, the earlier reading.
   */
  collectiveHolidays: z.record(
    z.string(),
    z.strictObject({
      effect: z.enum(["suspended", "late-opening"]),
      name: z.string().min(1),
      ...SourceFields,
      notInCriminal: z.literal(true).optional(),
    }),
  ),
  /** Superior courts whose ministers have collective holidays but whose rule on periods is not held. */
  vacationsNotKnown: z.record(z.string(), z.string().min(1)),
});

/** The Union's tables of a union-days.json, checked. */
export function parseUnionDays(json: unknown): z.infer<typeof UnionFile> {
  const table = loadCalendarTable("union-days.json", UnionFile, json);
  const keys = new Set(table.art62.days.map((day) => day.key));
  for (const [court, { days }] of Object.entries(table.notKept)) {
    const unknown = days.find((key) => !keys.has(key));
    if (unknown !== undefined) {
      throw new Error(
        `src/time/calendar/union-days.json: ${court} does not keep '${unknown}', no day of art. 62`,
      );
    }
  }
  return table;
}

const TABLE = parseUnionDays(unionJson);

const HOW: Readonly<Record<string, string>> = TABLE.art62.byBranch;

function art62(seat: CourtSeat, item: string, name: string): DayRule {
  return {
    effect: "holiday",
    name,
    source: `${TABLE.art62.source}, ${item}${HOW[seat.branch ?? ""] ?? ""}`,
    url: TABLE.art62.url,
    scope: "branch",
  };
}

const NOT_KEPT: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  Object.entries(TABLE.notKept).map(([court, { days }]) => [court, new Set(days)]),
);

const COLLECTIVE_HOLIDAYS: Readonly<Record<string, DayRule>> = Object.fromEntries(
  Object.entries(TABLE.collectiveHolidays).map(
    ([court, { effect, name, source, url, notInCriminal }]) => [
      court,
      {
        effect,
        name,
        source,
        url,
        scope: "court",
        ...(notInCriminal === true ? { notInCriminal } : {}),
      } satisfies DayRule,
    ],
  ),
);

const VACATIONS_NOT_KNOWN: Readonly<Record<string, string>> = TABLE.vacationsNotKnown;

const MONTH_NAME: Readonly<Record<string, string>> = { "01": "janeiro", "07": "julho" };

/**
 * The court's own vacations in `year`: the collective holidays of the superior courts, or why a
 * court has none. `suspendedMonths`: the months in which the court's acts of the year (held as
 * data) suspend periods, which settle the STJ's reading of those months.
 */
export function vacationDays(
  seat: CourtSeat,
  year: number,
  suspendedMonths: ReadonlySet<string>,
): LayerYear & { part: PartAnswer } {
  const collective = COLLECTIVE_HOLIDAYS[seat.court];
  if (collective === undefined) {
    const unknown = VACATIONS_NOT_KNOWN[seat.court];
    if (unknown !== undefined) {
      return {
        ...EMPTY_LAYER,
        part: partAnswer("vacations", { considered: [], notConsidered: [unknown] }),
      };
    }
    return {
      ...EMPTY_LAYER,
      part: partNotApplicable(
        seat.branch === "superior"
          ? "sem férias coletivas conhecidas"
          : "sem férias coletivas (CF, art. 93, XII, red. EC 45/2004)",
      ),
    };
  }
  const days: DatedRule[] = [
    ...everyDay(isoDate(year, 1, 2), isoDate(year, 1, 31), collective),
    ...everyDay(isoDate(year, 7, 2), isoDate(year, 7, 31), collective),
  ];
  const considered: ConsideredItem[] = [
    {
      scope: "court",
      text: `férias coletivas dos ministros de 02 a 31/01 e de 02 a 31/07, ${collective.effect === "suspended" ? "prazos suspensos" : "sem começo nem fim de prazo"} (${collective.source})`,
    },
  ];
  // The STJ's reading waits on its portaria of the year: suspended where one is held.
  const notConsidered =
    collective.effect === "late-opening"
      ? ["01", "07"]
          .filter((month) => !suspendedMonths.has(month))
          .map(
            (month) =>
              `a portaria do ano do STJ sobre as férias de ${MONTH_NAME[month]}: sem ela, contamos só que o prazo não começa nem termina nas férias; se suspender os prazos, como a Portaria STJ/GP 941/2025 de 20/12/2025 a 31/01/2026, o prazo termina mais tarde`,
          )
      : [];
  return {
    days,
    considered,
    notConsidered,
    part: partAnswer("vacations", { considered, notConsidered }),
  };
}

export function unionDays(seat: CourtSeat, year: number): LayerYear {
  const unkept = NOT_KEPT[seat.court] ?? new Set<string>();
  const easter = easterSunday(year);
  const days: DatedRule[] = [];
  for (const { item, when, name, key } of TABLE.art62.days) {
    if (key !== undefined && unkept.has(key)) continue;
    const rule = art62(seat, item, name);
    if ("yearEnd" in when) days.push(...yearEndSpan(year, Number(when.yearEnd.slice(3)), rule));
    else if ("easter" in when) days.push({ date: addDays(easter, when.easter), rule });
    else
      days.push({
        date: isoDate(year, Number(when.fixed.slice(0, 2)), Number(when.fixed.slice(3))),
        rule,
      });
  }
  const considered = [
    {
      scope: "branch" as const,
      text: `feriados da Justiça da União (${TABLE.art62.source}${HOW[seat.branch ?? ""] ?? ""}): 20/12 a 06/01, Semana Santa de quarta${unkept.has("quarta-feira santa") ? " (exceto a quarta-feira, que este tribunal não guarda)" : ""} a domingo, segunda e terça de Carnaval, 11/08, 01/11, 02/11 e 08/12`,
    },
  ];
  return {
    days,
    considered,
    // The Dia do Servidor Público (Lei 8.112/1990 art. 236) each court moves by a yearly act:
    // court-rules.ts's "servant-day" topic, for every court.
    notConsidered: [],
  };
}
