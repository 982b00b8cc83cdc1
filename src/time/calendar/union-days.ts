import { addDays, isoDate } from "../calendar-date.js";
import { easterSunday } from "../judicial-calendar.js";
import type { CourtSeat } from "./court-seat.js";
import {
  type DatedRule,
  type DayRule,
  everyDay,
  type LayerYear,
  PLANALTO,
  yearEndSpan,
} from "./day-rule.js";

/*
 * The holidays of the Union's courts: Lei 5.010/1966 art. 62 ("Além dos fixados em lei, serão
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

const LEI_5010_URL = `${PLANALTO}/leis/l5010.htm`;

/** Which act makes the branch keep art. 62's days, after the article's own number. */
const HOW: Readonly<Record<string, string>> = {
  federal: "",
  superior: "",
  electoral: " c/c Res. TSE 18.154/1992",
  labor: " (regimentos dos TRTs)",
};

function art62(seat: CourtSeat, item: string, name: string): DayRule {
  return {
    effect: "holiday",
    name,
    source: `Lei 5.010/1966, art. 62, ${item}${HOW[seat.branch ?? ""] ?? ""}`,
    url: LEI_5010_URL,
    scope: "branch",
  };
}

/**
 * Days of art. 62 a court is known not to keep. TRT13's RI (art. 207 a) makes only Holy Thursday
 * and Friday holidays; its Holy Wednesday is a ponto facultativo declared year by year (OS
 * TRT-SGP 16/2006), so it stays a working day here.
 */
const NOT_KEPT: Readonly<Record<string, ReadonlySet<string>>> = {
  trt13: new Set(["quarta-feira santa"]),
};

/**
 * The ministers' collective holidays, 2 to 31 January and 2 to 31 July (LC 35/1979, LOMAN, art.
 * 66 §1, kept for the superior courts after EC 45/2004). The TST suspends deadlines in them
 * (Súmula 262 II TST; RITST art. 183 §1). The STJ's yearly portarias have said "suspensos"
 * (Portaria STJ/GP 197/2021) and "início e término transferidos" (Portaria 218/2019): they are
 * days on which no deadline begins or ends here, which is the earlier of the two readings.
 */
const COLLECTIVE_HOLIDAYS: Readonly<Record<string, DayRule>> = {
  tst: {
    effect: "suspended",
    name: "férias coletivas dos ministros: prazos suspensos",
    source: "LC 35/1979, art. 66, §1º; Súmula 262, II, do TST; RITST, art. 183, §1º",
    url: `${PLANALTO}/leis/lcp/lcp35.htm`,
    scope: "court",
  },
  stj: {
    effect: "late-opening",
    name: "férias coletivas dos ministros: prazo não começa nem termina",
    source: "LC 35/1979, art. 66, §1º; RISTJ, arts. 81 e 106 (Portaria STJ/GP 197/2021)",
    url: `${PLANALTO}/leis/lcp/lcp35.htm`,
    scope: "court",
  },
};

export function unionDays(seat: CourtSeat, year: number): LayerYear {
  const unkept = NOT_KEPT[seat.court] ?? new Set<string>();
  const easter = easterSunday(year);
  const days: DatedRule[] = [
    ...yearEndSpan(year, 6, art62(seat, "I", "feriado forense (20/12 a 06/01)")),
    { date: addDays(easter, -48), rule: art62(seat, "III", "Carnaval (segunda-feira)") },
    { date: addDays(easter, -47), rule: art62(seat, "III", "Carnaval (terça-feira)") },
    { date: isoDate(year, 8, 11), rule: art62(seat, "IV", "Criação dos cursos jurídicos") },
    { date: isoDate(year, 11, 1), rule: art62(seat, "IV", "Dia de Todos os Santos") },
    { date: isoDate(year, 11, 2), rule: art62(seat, "IV", "Finados") },
    { date: isoDate(year, 12, 8), rule: art62(seat, "IV", "Dia da Justiça") },
  ];
  const holyWeek: ReadonlyArray<[number, string]> = [
    [-4, "quarta-feira santa"],
    [-3, "quinta-feira santa"],
    [-2, "sexta-feira santa"],
    [-1, "sábado de aleluia"],
    [0, "domingo de Páscoa"],
  ];
  for (const [offset, name] of holyWeek) {
    if (unkept.has(name)) continue;
    days.push({ date: addDays(easter, offset), rule: art62(seat, "II", `Semana Santa (${name})`) });
  }
  const collective = COLLECTIVE_HOLIDAYS[seat.court];
  if (collective !== undefined) {
    days.push(...everyDay(isoDate(year, 1, 2), isoDate(year, 1, 31), collective));
    days.push(...everyDay(isoDate(year, 7, 2), isoDate(year, 7, 31), collective));
  }
  const considered = [
    {
      scope: "branch" as const,
      text: `feriados da Justiça da União (Lei 5.010/1966, art. 62${HOW[seat.branch ?? ""] ?? ""}): 20/12 a 06/01, Semana Santa de quarta${unkept.has("quarta-feira santa") ? " (exceto a quarta-feira, que este tribunal não guarda)" : ""} a domingo, segunda e terça de Carnaval, 11/08, 01/11, 02/11 e 08/12`,
    },
  ];
  if (collective !== undefined) {
    considered.push({
      scope: "branch",
      text: `férias coletivas dos ministros de 02 a 31/01 e de 02 a 31/07 (${collective.source})`,
    });
  }
  return {
    days,
    considered,
    // The Dia do Servidor Público (Lei 8.112/1990 art. 236) each court moves by a yearly act:
    // court-rules.ts's "servant-day" topic, for every court.
    notConsidered: [],
  };
}
