import { z } from "zod";
import { addDays, type IsoDate, isoDate, weekday } from "../calendar-date.js";
import { easterSunday } from "../judicial-calendar.js";
import { Law, loadCalendarTable, SourceFields } from "./calendar-data.js";
import type { CourtSeat } from "./court-seat.js";
import { type DatedRule, type DayRule, type LayerYear, yearEndSpan } from "./day-rule.js";
import nationalJson from "./national-days.json" with { type: "json" };

/*
 * What binds every court of the country (national-days.json): the national holidays, the days Lei
 * 1.408/1951 art. 5 closes every court ("Dia da Justiça" aside, whose date the law leaves to
 * others), weekends, the suspension of deadlines from 20 December to 20 January, and, for the
 * states' courts, the CNJ's recess (the Union's courts have theirs by law, union-days.ts).
 * Weekends: `weekendRule`.
 */

const Named = z.strictObject({ name: z.string().min(1), ...SourceFields });

const NationalFile = z.strictObject({
  about: z.string(),
  fixed: z.array(
    z.strictObject({
      month: z.number().int().min(1).max(12),
      day: z.number().int().min(1).max(31),
      name: z.string().min(1),
      ...SourceFields,
      /** From this year on (the law's first year); absent: every year. */
      since: z.number().int().optional(),
    }),
  ),
  goodFriday: Named,
  carnivalTuesday: Named,
  weekend: Law,
  cnjRecess: Named,
  yearEndSuspension: Named,
  /** The labour courts' own rule for the same days (Lei 13.545/2017). */
  labourYearEndSuspension: Law,
});

/** The national tables of a national-days.json, checked. */
export function parseNationalDays(json: unknown): z.infer<typeof NationalFile> {
  return loadCalendarTable("national-days.json", NationalFile, json);
}

const TABLE = parseNationalDays(nationalJson);

function rule(
  effect: DayRule["effect"],
  { name, source, url }: { name: string; source: string; url: string | null },
): DayRule {
  return { effect, name, source, url, scope: "national" };
}

const FIXED = TABLE.fixed.map((fixed) => ({
  month: fixed.month,
  day: fixed.day,
  since: fixed.since,
  rule: rule("holiday", fixed),
}));

/** Good Friday is a municipal religious holiday (Lei 9.093/1995 art. 2) every court keeps by Lei 1.408. */
const GOOD_FRIDAY = rule("holiday", TABLE.goodFriday);

const CARNIVAL_TUESDAY = rule("holiday", TABLE.carnivalTuesday);

const SATURDAY = rule("weekend", { name: "sábado", ...TABLE.weekend });
const SUNDAY: DayRule = { ...SATURDAY, name: "domingo" };

export const CNJ_RECESS: DayRule = rule("recess", TABLE.cnjRecess);

const CPC_220: DayRule = rule("suspended", TABLE.yearEndSuspension);

const CLT_775A: DayRule = { ...CPC_220, ...TABLE.labourYearEndSuspension };

export function weekendRule(date: IsoDate): DayRule | null {
  const day = weekday(date);
  if (day === 6) return SATURDAY;
  if (day === 0) return SUNDAY;
  return null;
}
export function nationalDays(seat: CourtSeat, year: number): LayerYear {
  const days: DatedRule[] = [];
  for (const fixed of FIXED) {
    if (fixed.since !== undefined && year < fixed.since) continue;
    days.push({ date: isoDate(year, fixed.month, fixed.day), rule: fixed.rule });
  }
  const easter = easterSunday(year);
  days.push({ date: addDays(easter, -2), rule: GOOD_FRIDAY });
  days.push({ date: addDays(easter, -47), rule: CARNIVAL_TUESDAY });
  const suspension = seat.branch === "labor" ? CLT_775A : CPC_220;
  days.push(...yearEndSpan(year, 20, suspension));
  if (!unionCourt(seat)) {
    days.push(...yearEndSpan(year, 6, CNJ_RECESS));
  }
  return {
    days,
    considered: [
      {
        scope: "national",
        text: "sábados e domingos (CPC, art. 216) e feriados nacionais (Lei 662/1949, Lei 6.802/1980, Lei 14.759/2023)",
      },
      {
        scope: "national",
        text: "Sexta-feira Santa e terça-feira de Carnaval (Lei 1.408/1951, art. 5º)",
      },
      {
        scope: "national",
        text: `suspensão dos prazos de 20/12 a 20/01 (${suspension.source})`,
      },
      ...(unionCourt(seat)
        ? []
        : [
            {
              scope: "national" as const,
              text: "recesso forense de 20/12 a 06/01 (Res. CNJ 244/2016)",
            },
          ]),
    ],
    notConsidered: [],
  };
}

/** The courts of the Union, whose recess is a holiday by Lei 5.010/1966 art. 62 I. */
export function unionCourt(seat: CourtSeat): boolean {
  return (
    seat.branch === "federal" ||
    seat.branch === "labor" ||
    seat.branch === "electoral" ||
    seat.branch === "superior"
  );
}
