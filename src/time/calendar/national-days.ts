import { addDays, type IsoDate, isoDate, weekday } from "../calendar-date.js";
import { easterSunday } from "../judicial-calendar.js";
import type { CourtSeat } from "./court-seat.js";
import { type DatedRule, type DayRule, type LayerYear, PLANALTO, yearEndSpan } from "./day-rule.js";

/*
 * What binds every court of the country: the national holidays, the days Lei 1.408/1951 art. 5
 * closes every court ("Dia da Justiça" aside, whose date the law leaves to others), weekends, the
 * suspension of deadlines from 20 December to 20 January, and, for the states' courts, the CNJ's
 * recess (the Union's courts have theirs by law, union-days.ts). Weekends: `weekendRule`.
 */

const LEI_662 = {
  source: "Lei 662/1949, art. 1º (redação da Lei 10.607/2002)",
  url: `${PLANALTO}/leis/l0662.htm`,
};

const LEI_1408 = {
  source: "Lei 1.408/1951, art. 5º",
  url: "https://legis.senado.leg.br/norma/543073/publicacao/15639216",
};

function holiday(name: string, where: { source: string; url: string }): DayRule {
  return { effect: "holiday", name, ...where, scope: "national" };
}

const FIXED: ReadonlyArray<{ month: number; day: number; rule: DayRule; since?: number }> = [
  { month: 1, day: 1, rule: holiday("Confraternização Universal", LEI_662) },
  { month: 4, day: 21, rule: holiday("Tiradentes", LEI_662) },
  { month: 5, day: 1, rule: holiday("Dia do Trabalho", LEI_662) },
  { month: 9, day: 7, rule: holiday("Independência do Brasil", LEI_662) },
  {
    month: 10,
    day: 12,
    rule: holiday("Nossa Senhora Aparecida", {
      source: "Lei 6.802/1980, art. 1º",
      url: `${PLANALTO}/leis/l6802.htm`,
    }),
  },
  { month: 11, day: 2, rule: holiday("Finados", LEI_662) },
  { month: 11, day: 15, rule: holiday("Proclamação da República", LEI_662) },
  {
    month: 11,
    day: 20,
    rule: holiday("Dia Nacional de Zumbi e da Consciência Negra", {
      source: "Lei 14.759/2023, art. 1º",
      url: `${PLANALTO}/_ato2023-2026/2023/lei/l14759.htm`,
    }),
    since: 2024,
  },
  { month: 12, day: 25, rule: holiday("Natal", LEI_662) },
];

/** Good Friday is a municipal religious holiday (Lei 9.093/1995 art. 2) every court keeps by Lei 1.408. */
const GOOD_FRIDAY = holiday("Sexta-feira Santa", {
  source: "Lei 1.408/1951, art. 5º; Lei 9.093/1995, art. 2º",
  url: LEI_1408.url,
});

const CARNIVAL_TUESDAY = holiday("Carnaval (terça-feira)", LEI_1408);

const WEEKEND = { source: "CPC, art. 216", url: `${PLANALTO}/_ato2015-2018/2015/lei/l13105.htm` };
const SATURDAY: DayRule = { effect: "weekend", name: "sábado", ...WEEKEND, scope: "national" };
const SUNDAY: DayRule = { ...SATURDAY, name: "domingo" };

export const CNJ_RECESS: DayRule = {
  effect: "recess",
  name: "recesso forense (20/12 a 06/01)",
  source: "Res. CNJ 244/2016, art. 1º",
  url: "https://atos.cnj.jus.br/atos/detalhar/2299",
  scope: "national",
};

const CPC_220: DayRule = {
  effect: "suspended",
  name: "prazos suspensos de 20/12 a 20/01",
  source: "CPC, art. 220",
  url: `${PLANALTO}/_ato2015-2018/2015/lei/l13105.htm`,
  scope: "national",
};

/** The labour courts' own rule for the same days (Lei 13.545/2017). */
const CLT_775A: DayRule = {
  ...CPC_220,
  source: "CLT, art. 775-A",
  url: `${PLANALTO}/decreto-lei/del5452.htm`,
};

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
