import { addDays, type IsoDate, isoDate, parseIsoDate, weekday, yearOf } from "./calendar-date.js";
import { easterSunday } from "./judicial-calendar.js";

/*
 * The judicial calendar of one court at one seat: which days it works, which it does not, which
 * open late, on which deadlines are suspended, and for each of them the reason and where the
 * reason comes from (a law and its article, the court's act, the operator's configuration).
 *
 * A day treated as closed where the court works makes an estimate LATE; a working day the court
 * in fact closes makes it early. So a day whose closure is not known for this court is a working
 * day here, and `considered` says what was left out.
 */

/** A DataJud court and, when known, the municipality of the court unit's seat. */
export interface CourtPlace {
  /** DataJud index alias: `tjsp`, `trf3`, `trt2`, `tst`, `stj`, `tjmsp`, `tre-sp`. */
  court: string;
  /** IBGE code of the seat (DataJud's `orgaoJulgador.codigoMunicipioIBGE`); 0 or absent: unknown. */
  municipality?: number | undefined;
}

export type DayKind = "working" | "weekend" | "holiday" | "recess" | "closed";

/**
 * What a reason does to the day. `late-opening` covers all of CPC art. 224 §1: the court opens
 * late, closes early or its electronic system is down; such a day neither begins nor ends a count.
 * `suspended`: deadlines do not run, although the court may work (CPC art. 220).
 */
export type DayEffect = "weekend" | "holiday" | "recess" | "closed" | "suspended" | "late-opening";

/** Whose rule it is. */
export type DayScope = "national" | "branch" | "state" | "municipal" | "court" | "configuration";

export interface DayReason {
  effect: DayEffect;
  /** What the day is, in Portuguese for the lawyer: "Tiradentes", "recesso forense". */
  name: string;
  /** Where it comes from: "Lei 662/1949, art. 1º", "Res. CNJ 244/2016, art. 1º", an act's number. */
  source: string;
  /** A link to the source, when there is one. */
  url: string | null;
  scope: DayScope;
}

export interface CourtDayStatus {
  date: IsoDate;
  /** holiday before weekend before closed before recess: the first reason of that effect names it. */
  kind: DayKind;
  /** A working day that neither begins nor ends a count (CPC art. 224 §1). */
  lateOpening: boolean;
  /** Deadlines do not run on this day, whatever its kind (CPC art. 220 and acts like it). */
  countingSuspended: boolean;
  /** Every reason that applies, the one naming `kind` first; empty on a plain working day. */
  reasons: readonly DayReason[];
}

/**
 * A closure or suspension the operator learned of (a portaria, an outage, a ponto facultativo),
 * from the configuration. `effect`: `closed` (no expediente: not a business day, CPC art. 216),
 * `suspended` (deadlines suspended by the court's act), `late-opening` (late opening, early
 * closing or the electronic system down: CPC art. 224 §1).
 */
export interface CourtClosure {
  /** DataJud index alias, as in `CourtPlace.court`. */
  court: string;
  /** Only at these seats (IBGE codes); empty: every seat of the court. */
  municipalities: readonly number[];
  from: IsoDate;
  /** Inclusive; equal to `from` for one day. */
  to: IsoDate;
  effect: "closed" | "suspended" | "late-opening";
  /** Why, in Portuguese for the lawyer: "Portaria de suspensão: indisponibilidade do sistema". */
  reason: string;
  /** The act: "Portaria TJSP nº 10.500/2025"; the configuration's place is added by the caller. */
  source: string;
  url: string | null;
}

/** One thing a calendar took into account, or left out, for a court and year. */
export interface ConsideredItem {
  scope: DayScope;
  /** Portuguese: "feriados nacionais (Lei 662/1949, Lei 6.802/1980, Lei 14.759/2023)". */
  text: string;
}

export interface CalendarConsidered {
  year: number;
  considered: readonly ConsideredItem[];
  /** What the calendar does not know for this court and year, each treated as a working day. */
  notConsidered: readonly string[];
  /** The estimate note: "Considera: ...; não considera: ...". */
  note: string;
}

export interface CourtCalendar {
  readonly place: CourtPlace;
  dayStatus(date: IsoDate): CourtDayStatus;
  considered(year: number): CalendarConsidered;
}

const CPC_216 = "CPC, art. 216";
const PLANALTO = "https://www.planalto.gov.br/ccivil_03";

const LEI_662 = {
  source: "Lei 662/1949, art. 1º (redação da Lei 10.607/2002)",
  url: `${PLANALTO}/leis/l0662.htm`,
};

interface DayRule {
  name: string;
  source: string;
  url: string | null;
  scope: DayScope;
  effect: DayEffect;
}

/** Fixed national holidays. */
const NATIONAL_FIXED: ReadonlyArray<{
  month: number;
  day: number;
  name: string;
  source: string;
  url: string;
  since?: number;
}> = [
  { month: 1, day: 1, name: "Confraternização Universal", ...LEI_662 },
  { month: 4, day: 21, name: "Tiradentes", ...LEI_662 },
  { month: 5, day: 1, name: "Dia do Trabalho", ...LEI_662 },
  { month: 9, day: 7, name: "Independência do Brasil", ...LEI_662 },
  {
    month: 10,
    day: 12,
    name: "Nossa Senhora Aparecida",
    source: "Lei 6.802/1980, art. 1º",
    url: `${PLANALTO}/leis/l6802.htm`,
  },
  { month: 11, day: 2, name: "Finados", ...LEI_662 },
  { month: 11, day: 15, name: "Proclamação da República", ...LEI_662 },
  {
    month: 11,
    day: 20,
    name: "Dia Nacional de Zumbi e da Consciência Negra",
    source: "Lei 14.759/2023, art. 1º",
    url: `${PLANALTO}/_ato2023-2026/2023/lei/l14759.htm`,
    since: 2024,
  },
  { month: 12, day: 25, name: "Natal", ...LEI_662 },
];

/** A day each court closes by its own act, where this calendar presumes it closed. */
function closedByCourtAct(name: string): DayRule {
  return {
    name,
    source: "fechamento por ato de cada tribunal",
    url: null,
    scope: "court",
    effect: "closed",
  };
}

/** Days counted from Easter Sunday that close every court this calendar knows of. */
const FROM_EASTER: ReadonlyArray<{ offset: number; rule: DayRule }> = [
  { offset: -48, rule: closedByCourtAct("Carnaval (segunda-feira)") },
  { offset: -47, rule: closedByCourtAct("Carnaval (terça-feira)") },
  {
    offset: -2,
    rule: {
      name: "Sexta-feira Santa",
      source: "Lei 9.093/1995, art. 2º",
      url: `${PLANALTO}/leis/l9093.htm`,
      scope: "national",
      effect: "holiday",
    },
  },
  { offset: 60, rule: closedByCourtAct("Corpus Christi") },
];

const ASH_WEDNESDAY: DayRule = {
  name: "Quarta-feira de Cinzas: expediente a partir do meio-dia",
  source: "ato de cada tribunal; CPC, art. 224, §1º",
  url: null,
  scope: "court",
  effect: "late-opening",
};

const RECESS: DayRule = {
  name: "recesso forense (20/12 a 06/01)",
  source: "Res. CNJ 244/2016, art. 1º",
  url: "https://atos.cnj.jus.br/atos/detalhar/2299",
  scope: "national",
  effect: "recess",
};

const SUSPENSION: DayRule = {
  name: "prazos suspensos de 20/12 a 20/01",
  source: "CPC, art. 220",
  url: `${PLANALTO}/_ato2015-2018/2015/lei/l13105.htm`,
  scope: "national",
  effect: "suspended",
};

const SATURDAY: DayRule = {
  name: "sábado",
  source: CPC_216,
  url: null,
  scope: "national",
  effect: "weekend",
};
const SUNDAY: DayRule = { ...SATURDAY, name: "domingo" };

function reason(rule: DayRule): DayReason {
  return {
    effect: rule.effect,
    name: rule.name,
    source: rule.source,
    url: rule.url,
    scope: rule.scope,
  };
}

/** The national days of a year, by date. */
function nationalDays(year: number): ReadonlyMap<IsoDate, readonly DayRule[]> {
  const days = new Map<IsoDate, DayRule[]>();
  const add = (date: IsoDate, rule: DayRule): void => {
    const list = days.get(date);
    if (list === undefined) days.set(date, [rule]);
    else list.push(rule);
  };
  for (const fixed of NATIONAL_FIXED) {
    if (fixed.since !== undefined && year < fixed.since) continue;
    add(isoDate(year, fixed.month, fixed.day), {
      name: fixed.name,
      source: fixed.source,
      url: fixed.url,
      scope: "national",
      effect: "holiday",
    });
  }
  const easter = easterSunday(year);
  for (const { offset, rule } of FROM_EASTER) add(addDays(easter, offset), rule);
  add(addDays(easter, -46), ASH_WEDNESDAY);
  return days;
}

function inRecess(date: IsoDate): boolean {
  const monthDay = date.slice(5);
  return monthDay >= "12-20" || monthDay <= "01-06";
}

function inSuspension(date: IsoDate): boolean {
  const monthDay = date.slice(5);
  return monthDay >= "12-20" || monthDay <= "01-20";
}

const KIND_ORDER: ReadonlyArray<{ effect: DayEffect; kind: DayKind }> = [
  { effect: "holiday", kind: "holiday" },
  { effect: "weekend", kind: "weekend" },
  { effect: "closed", kind: "closed" },
  { effect: "recess", kind: "recess" },
];

/** The reasons in `kind` order (the deciding one first), and the day's status. */
function statusOf(date: IsoDate, reasons: readonly DayReason[]): CourtDayStatus {
  const ordered: DayReason[] = [];
  for (const { effect } of KIND_ORDER) ordered.push(...reasons.filter((r) => r.effect === effect));
  ordered.push(...reasons.filter((r) => r.effect === "suspended" || r.effect === "late-opening"));
  const deciding = KIND_ORDER.find(({ effect }) => reasons.some((r) => r.effect === effect));
  const kind = deciding?.kind ?? "working";
  return {
    date,
    kind,
    lateOpening: kind === "working" && reasons.some((r) => r.effect === "late-opening"),
    countingSuspended: reasons.some((r) => r.effect === "suspended"),
    reasons: ordered,
  };
}

/** `closure` is of the place's court already. */
function closureApplies(closure: CourtClosure, place: CourtPlace, date: IsoDate): boolean {
  if (date < closure.from || date > closure.to) return false;
  if (closure.municipalities.length === 0) return true;
  return place.municipality !== undefined && closure.municipalities.includes(place.municipality);
}

function closureReason(closure: CourtClosure): DayReason {
  return {
    effect: closure.effect,
    name: closure.reason,
    source: closure.source,
    url: closure.url,
    scope: "configuration",
  };
}

const CONSIDERED_NATIONAL: readonly ConsideredItem[] = [
  {
    scope: "national",
    text: "sábados e domingos (CPC, art. 216) e feriados nacionais (Lei 662/1949, Lei 6.802/1980, Lei 14.759/2023)",
  },
  { scope: "national", text: "Sexta-feira Santa (Lei 9.093/1995, art. 2º)" },
  { scope: "court", text: "Carnaval e Corpus Christi como dias sem expediente" },
  {
    scope: "court",
    text: "Quarta-feira de Cinzas com expediente a partir do meio-dia (CPC, art. 224, §1º)",
  },
  { scope: "national", text: "recesso forense de 20/12 a 06/01 (Res. CNJ 244/2016)" },
  { scope: "national", text: "suspensão dos prazos de 20/12 a 20/01 (CPC, art. 220)" },
];

const NOT_CONSIDERED_NATIONAL: readonly string[] = [
  "feriados estaduais e municipais",
  "dias sem expediente declarados pelo tribunal",
];

function consideredNote(
  considered: readonly ConsideredItem[],
  notConsidered: readonly string[],
): string {
  const yes = `Considera: ${considered.map((c) => c.text).join("; ")}.`;
  return notConsidered.length === 0 ? yes : `${yes} Não considera: ${notConsidered.join("; ")}.`;
}

/**
 * The calendar of `place`. `closures` are the operator's configured closures and suspensions;
 * those of other courts or seats are ignored, so the same list can go to every calendar.
 */
export function courtCalendar(
  place: CourtPlace,
  closures: readonly CourtClosure[] = [],
): CourtCalendar {
  const seat: CourtPlace = {
    court: place.court.trim().toLowerCase(),
    municipality:
      place.municipality === undefined || place.municipality === 0 ? undefined : place.municipality,
  };
  const ours = closures.filter((c) => c.court.trim().toLowerCase() === seat.court);
  const years = new Map<number, ReadonlyMap<IsoDate, readonly DayRule[]>>();
  const daysOf = (year: number): ReadonlyMap<IsoDate, readonly DayRule[]> => {
    let days = years.get(year);
    if (days === undefined) {
      days = nationalDays(year);
      years.set(year, days);
    }
    return days;
  };

  return {
    place: seat,
    dayStatus(date: IsoDate): CourtDayStatus {
      if (parseIsoDate(date) === null) {
        throw new RangeError(`"${date}" is not a calendar date (YYYY-MM-DD)`);
      }
      const reasons: DayReason[] = (daysOf(yearOf(date)).get(date) ?? []).map(reason);
      const day = weekday(date);
      if (day === 6) reasons.push(reason(SATURDAY));
      if (day === 0) reasons.push(reason(SUNDAY));
      if (inRecess(date)) reasons.push(reason(RECESS));
      if (inSuspension(date)) reasons.push(reason(SUSPENSION));
      for (const closure of ours) {
        if (closureApplies(closure, seat, date)) reasons.push(closureReason(closure));
      }
      return statusOf(date, reasons);
    },
    considered(year: number): CalendarConsidered {
      const considered = [...CONSIDERED_NATIONAL];
      const configured = ours.filter((c) => yearOf(c.from) <= year && yearOf(c.to) >= year);
      if (configured.length > 0) {
        considered.push({
          scope: "configuration",
          text: `fechamentos e suspensões configurados: ${configured.map((c) => `${c.reason} (${c.source})`).join(", ")}`,
        });
      }
      return {
        year,
        considered,
        notConsidered: NOT_CONSIDERED_NATIONAL,
        note: consideredNote(considered, NOT_CONSIDERED_NATIONAL),
      };
    },
  };
}
