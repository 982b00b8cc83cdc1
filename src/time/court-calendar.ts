import { courtRules, NOTE_BY_TOPIC, type Topic } from "./calendar/court-rules.js";
import { type CourtSeat, courtSeat } from "./calendar/court-seat.js";
import {
  CALENDAR_PARTS,
  type CalendarPart,
  type ConsideredItem,
  type DayEffect,
  type DayRule,
  type LayerYear,
  merge,
  type PartAnswer,
  partAnswer,
  partNotApplicable,
} from "./calendar/day-rule.js";
import { municipalDays } from "./calendar/municipal-days.js";
import { nationalDays, unionCourt, weekendRule } from "./calendar/national-days.js";
import { stateDays } from "./calendar/state-days.js";
import { unionDays, vacationDays } from "./calendar/union-days.js";
import { type IsoDate, parseIsoDate, yearOf } from "./calendar-date.js";

export type {
  CalendarPart,
  ConsideredItem,
  DayEffect,
  DayScope,
  PartAnswer,
} from "./calendar/day-rule.js";

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

/** One reason for a day: what it does, what it is, and its source. */
export type DayReason = DayRule;

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

export interface CalendarConsidered {
  year: number;
  considered: readonly ConsideredItem[];
  /** What the calendar does not know for this court and year, each treated as a working day. */
  notConsidered: readonly string[];
  /**
   * The same, kind of day by kind of day (national, the court's vacations, state, municipal of the
   * seat, the court's acts): every kind answered, applied, not known or not this court's.
   */
  parts: Readonly<Record<CalendarPart, PartAnswer>>;
  /** The estimate note: "Considera: ...; não considera: ...". */
  note: string;
}

export interface CourtCalendar {
  readonly place: CourtPlace;
  dayStatus(date: IsoDate): CourtDayStatus;
  considered(year: number): CalendarConsidered;
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

/** The same reason twice (a day both in a law and in an act citing it) is told once. */
function sameReason(a: DayReason, b: DayReason): boolean {
  return a.effect === b.effect && a.name === b.name && a.source === b.source;
}

/** A court's act closing a day a law already closes, under the same name, adds nothing. */
function sameDay(first: DayReason, later: DayReason): boolean {
  const closes = (r: DayReason): boolean => r.effect === "holiday" || r.effect === "closed";
  return closes(first) && closes(later) && first.name === later.name;
}

/** `closure` is of the seat's court already. */
function closureApplies(closure: CourtClosure, seat: CourtSeat, date: IsoDate): boolean {
  if (date < closure.from || date > closure.to) return false;
  if (closure.municipalities.length === 0) return true;
  return seat.municipality !== null && closure.municipalities.includes(seat.municipality);
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

/** What no layer knows yet, for every court. */
const NOT_KNOWN_ANYWHERE: readonly string[] = [
  "dias sem expediente declarados pelo tribunal (portarias, indisponibilidade do sistema) que não estejam na configuração",
];

/** What no court rule found settles, for `considered`. */
function unsettled(seat: CourtSeat, settled: ReadonlySet<Topic>): string[] {
  const known = new Set(settled);
  if (unionCourt(seat)) {
    // Lei 5.010/1966 art. 62: Carnival Monday, Holy Week and 08/12 are holidays of the Union's courts.
    known.add("carnival-monday");
    known.add("holy-week");
    known.add("justice-day");
  }
  return (Object.keys(NOTE_BY_TOPIC) as Topic[])
    .filter((t) => !known.has(t))
    .map((t) => NOTE_BY_TOPIC[t]);
}

const BRASILIA = 5300108;

interface YearParts {
  layer: LayerYear;
  parts: Readonly<Record<CalendarPart, PartAnswer>>;
}

/**
 * Every kind of day that could close the court in `year`, each answered: the days applied with
 * their sources, what is not known named, or why the kind is not this court's. A part that
 * answers nothing throws (day-rule.ts `partAnswer`), so a note never reads as complete by omission.
 */
function partsOf(seat: CourtSeat, year: number): YearParts {
  const rules = courtRules(seat, year);
  const municipal = municipalDays(seat, year);
  const state = stateDays(seat, year);
  const settled = new Set(rules.settled);
  if (municipal.corpusChristi) settled.add("corpus-christi");
  const national = merge([
    nationalDays(seat, year),
    ...(unionCourt(seat) ? [unionDays(seat, year)] : []),
  ]);
  const vacations = vacationDays(seat, year, rules.suspendedMonths);
  const unknownCourt = seat.branch === null;
  const superior = seat.branch === "superior";
  const court: LayerYear = {
    days: rules.days,
    considered: rules.considered,
    notConsidered: [
      ...unsettled(seat, settled),
      ...(rules.annualCalendar
        ? []
        : [
            // Without the year: a note the same every year reads once across the year's turn.
            "o calendário do ano do tribunal (feriados forenses, pontos facultativos e suspensões que ele fixa por ato): não está aqui",
          ]),
      ...(unknownCourt ? ["o tribunal não é reconhecido: só o calendário nacional"] : []),
      ...NOT_KNOWN_ANYWHERE,
    ],
  };
  const parts: Record<CalendarPart, PartAnswer> = {
    national: partAnswer("national", national),
    vacations: vacations.part,
    state: superior
      ? partNotApplicable(
          "tribunal superior: os dias locais de Brasília, só pelos atos do tribunal",
        )
      : unknownCourt
        ? partAnswer("state", {
            considered: [],
            notConsidered: ["feriados estaduais (o tribunal não é reconhecido)"],
          })
        : partAnswer("state", state),
    municipal: superior
      ? partNotApplicable(
          "tribunal superior: os dias locais de Brasília, só pelos atos do tribunal",
        )
      : unknownCourt
        ? partAnswer("municipal", {
            considered: [],
            notConsidered: ["feriados municipais (o tribunal não é reconhecido)"],
          })
        : seat.municipality === BRASILIA &&
            municipal.considered.length + municipal.notConsidered.length === 0
          ? partNotApplicable(
              "Distrito Federal: sem municípios; seus feriados estão entre os estaduais",
            )
          : partAnswer("municipal", municipal),
    court: partAnswer("court", court),
  };
  const layer = merge([national, vacations, state, municipal, court]);
  // The note's order: national and the branch, the court's vacations, state, municipal, acts.
  return {
    layer: {
      days: layer.days,
      considered: CALENDAR_PARTS.flatMap((p) => parts[p].considered),
      notConsidered: [...new Set(CALENDAR_PARTS.flatMap((p) => parts[p].notConsidered))],
    },
    parts,
  };
}

function consideredNote(
  considered: readonly ConsideredItem[],
  notConsidered: readonly string[],
): string {
  const yes = `Considera: ${considered.map((c) => c.text).join("; ")}.`;
  return notConsidered.length === 0 ? yes : `${yes} Não considera: ${notConsidered.join("; ")}.`;
}

interface YearBook {
  days: ReadonlyMap<IsoDate, readonly DayReason[]>;
  layer: LayerYear;
  parts: Readonly<Record<CalendarPart, PartAnswer>>;
}

/**
 * The calendar of `place`. `closures` are the operator's configured closures and suspensions;
 * those of other courts or seats are ignored, so the same list can go to every calendar.
 */
export function courtCalendar(
  place: CourtPlace,
  closures: readonly CourtClosure[] = [],
): CourtCalendar {
  const seat = courtSeat(place.court, place.municipality);
  const normalized: CourtPlace =
    seat.municipality === null
      ? { court: seat.court }
      : { court: seat.court, municipality: seat.municipality };
  const ours = closures.filter((c) => c.court.trim().toLowerCase() === seat.court);
  const years = new Map<number, YearBook>();
  const bookOf = (year: number): YearBook => {
    let book = years.get(year);
    if (book === undefined) {
      const { layer, parts } = partsOf(seat, year);
      const days = new Map<IsoDate, DayReason[]>();
      for (const { date, rule } of layer.days) {
        const list = days.get(date);
        if (list === undefined) days.set(date, [rule]);
        else if (!list.some((r) => sameReason(r, rule) || sameDay(r, rule))) list.push(rule);
      }
      book = { days, layer, parts };
      years.set(year, book);
    }
    return book;
  };

  return {
    place: normalized,
    dayStatus(date: IsoDate): CourtDayStatus {
      if (parseIsoDate(date) === null) {
        throw new RangeError(`"${date}" is not a calendar date (YYYY-MM-DD)`);
      }
      const reasons: DayReason[] = [...(bookOf(yearOf(date)).days.get(date) ?? [])];
      const weekend = weekendRule(date);
      if (weekend !== null) reasons.push(weekend);
      for (const closure of ours) {
        if (closureApplies(closure, seat, date)) reasons.push(closureReason(closure));
      }
      return statusOf(date, reasons);
    },
    considered(year: number): CalendarConsidered {
      const { layer, parts } = bookOf(year);
      const considered = [...layer.considered];
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
        notConsidered: layer.notConsidered,
        parts,
        note: consideredNote(considered, layer.notConsidered),
      };
    },
  };
}

/** The calendar of each court and seat a process asks for, built once. */
export type CalendarBook = (place: CourtPlace) => CourtCalendar;

/**
 * What the composition root hands every part that dates a deadline: one calendar per court and
 * seat, each with the configured `closures` (calendar.closures) that concern it.
 */
export function calendarBook(closures: readonly CourtClosure[]): CalendarBook {
  const built = new Map<string, CourtCalendar>();
  return (place) => {
    const seat = courtSeat(place.court, place.municipality);
    const key = `${seat.court}|${seat.municipality ?? ""}`;
    let calendar = built.get(key);
    if (calendar === undefined) {
      calendar = courtCalendar(place, closures);
      built.set(key, calendar);
    }
    return calendar;
  };
}
