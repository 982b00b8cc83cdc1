import { foldText } from "../text.js";
import { courtSeat, ufOfMunicipality } from "../time/calendar/court-seat.js";
import { CAPITAL_CODES, municipalityName } from "../time/calendar/municipal-days.js";
import { seatOfCaseNumber } from "../time/calendar/origin-seats.js";
import { addDays, formatBrazilian, type IsoDate } from "../time/calendar-date.js";
import {
  type CourtCalendar,
  type CourtClosure,
  type CourtPlace,
  courtCalendar,
} from "../time/court-calendar.js";
import { estimateDeadline } from "./estimate.js";
import { DeadlineEstimate, type SkippedDays } from "./estimate-schema.js";

/*
 * The estimate of a DJEN publication (or of a DataJud movement that made an act available), on
 * the calendar of the court that sent it, with the operator's configured closures.
 */

/** The calendar of a court and seat; the composition root builds it with the configured closures. */
export type CalendarFor = (place: CourtPlace) => CourtCalendar;

/** Calendars with `closures` applied, one per court and seat, built once each. */
export function calendarsWith(closures: readonly CourtClosure[] = []): CalendarFor {
  const built = new Map<string, CourtCalendar>();
  return (place) => {
    const key = `${place.court}|${place.municipality ?? ""}`;
    let calendar = built.get(key);
    if (calendar === undefined) {
      calendar = courtCalendar(place, closures);
      built.set(key, calendar);
    }
    return calendar;
  };
}

/** DJEN's court acronym (TJSP, TRE-SP, TRESP) as DataJud's alias (tjsp, tre-sp). */
export function courtAlias(acronym: string): string {
  const upper = acronym.trim().toUpperCase();
  const electoral = /^TRE-?([A-Z]{2})$/u.exec(upper);
  if (electoral?.[1] !== undefined) return `tre-${electoral[1].toLowerCase()}`;
  return upper.replace(/[^A-Z0-9]/gu, "").toLowerCase();
}

/**
 * The capital a DJEN unit name places the unit in, when it says so plainly: "Comarca da Capital"
 * in a one-state court, or "Comarca de Porto Alegre" / "Vara do Trabalho de Manaus" naming a
 * capital of one of the court's states. Other seats are not read (their days are not known here).
 */
export function seatOfUnitName(court: string, unit: string | null | undefined): number | null {
  if (unit === null || unit === undefined) return null;
  const folded = foldText(unit);
  const states = courtSeat(court).states;
  const capitals = CAPITAL_CODES.filter((code) => {
    const uf = ufOfMunicipality(code);
    return uf !== null && states.includes(uf);
  });
  if (/\bcomarca d[aeo]s? capital\b/u.test(folded)) {
    return states.length === 1 && capitals.length === 1 ? (capitals[0] ?? null) : null;
  }
  const named =
    /\b(?:comarca|foro|vara do trabalho|vara federal|subsecao judiciaria) d[aeo]s? ([a-z' ]+?)\s*(?:[-\u2013,/(]|$)/u.exec(
      folded,
    )?.[1];
  if (named === undefined) return null;
  return capitals.find((code) => foldText(municipalityName(code) ?? "") === named.trim()) ?? null;
}

/**
 * The seat to date a court's item on: DataJud's (`orgaoJulgador.codigoMunicipioIBGE`) when given,
 * else the one the case number's origin segment names (time/calendar/origin-seats.json) when it is
 * this court's, else the capital DJEN's unit name names (`seatOfUnitName`), with a note saying which;
 * else none (municipal days unknown, and said so).
 */
export function seatFor(
  court: string,
  municipality: number | undefined,
  caseNumber: string | null,
  unit: string | null = null,
): { municipality: number | undefined; note: string | null } {
  if (municipality !== undefined && municipality !== 0) return { municipality, note: null };
  const seat = seatOfCaseNumber(caseNumber);
  if (seat !== null && seat.court === courtAlias(court)) {
    return {
      municipality: seat.municipality.ibge,
      note: `sede pelo número do processo: ${seat.municipality.name} (${seat.uf.toUpperCase()}), código de origem ${seat.origin}, ${seat.unit}`,
    };
  }
  const fromUnit = seatOfUnitName(courtAlias(court), unit);
  if (fromUnit !== null) {
    const uf = ufOfMunicipality(fromUnit)?.toUpperCase() ?? "";
    return {
      municipality: fromUnit,
      note: `sede pelo nome da unidade no DJEN: ${municipalityName(fromUnit) ?? fromUnit} (${uf})`,
    };
  }
  return { municipality, note: null };
}

function withSeatNote(estimate: DeadlineEstimate, note: string | null): DeadlineEstimate {
  return note === null ? estimate : { ...estimate, notes: [note, ...estimate.notes] };
}

/** What of a publication its estimate reads (djen/publication.ts `StoredPublication` has it). */
export interface PublicationLike {
  court: string;
  kind: string | null;
  documentType: string | null;
  className: string | null;
  medium: string | null;
  availableOn: IsoDate;
  caseNumber: string | null;
  recipients: ReadonlyArray<{ name: string; side: string | null }>;
  lawyers: readonly unknown[];
  /** DJEN's nomeOrgao: names the seat when it says "Comarca de <capital>". */
  courtUnit?: string | null | undefined;
}

/** The estimate of a publication whose plain text is `text`. */
export function estimatePublication(
  publication: PublicationLike,
  text: string,
  calendars: CalendarFor,
  options: { municipality?: number | undefined } = {},
): DeadlineEstimate {
  const seat = seatFor(
    publication.court,
    options.municipality,
    publication.caseNumber,
    publication.courtUnit ?? null,
  );
  const estimate = estimateDeadline({
    availableOn: publication.availableOn,
    calendar: calendars({
      court: courtAlias(publication.court),
      municipality: seat.municipality,
    }),
    communication: {
      kind: publication.kind,
      documentType: publication.documentType,
      className: publication.className,
      classCode: null,
      medium: publication.medium,
      text,
      recipients: publication.recipients,
      lawyerCount: publication.lawyers.length,
      caseNumber: publication.caseNumber,
      court: publication.court,
    },
  });
  return withSeatNote(estimate, seat.note);
}

/** A stored estimate, when it is one this version reads; null otherwise (then compute again). */
export function storedEstimate(value: unknown): DeadlineEstimate | null {
  if (value === null || value === undefined) return null;
  const parsed = DeadlineEstimate.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** "Natal, 25/12/2025 (Lei 662/1949, art. 1º)": a skipped day, or run of days, and its source. */
export function skippedText(day: SkippedDays): string {
  const when =
    day.from === day.to
      ? formatBrazilian(day.from)
      : `${formatBrazilian(day.from)} a ${formatBrazilian(day.to)}`;
  return `${day.name}, ${when} (${day.source})`;
}

/** What every display of estimated dates says next to them. */
export const ESTIMATE_NOTE =
  "Datas estimadas, nunca depois da resposta da lei: seguem a regra de cada comunicação e o calendário do tribunal (o que ele considera vem com cada publicação). Onde um fato não é conhecido (réu preso, um feriado local ou fechamento não cadastrado), usamos a data mais cedo e dizemos o que a mudaria. Confira sempre no tribunal.";

/** What is known of an act a DataJud movement says was made available in a Diário (DJe). */
export interface AvailabilityFacts {
  /** The movement's date: the day the act was made available (disponibilizado). */
  availableOn: IsoDate;
  /** DataJud's alias (tjsp, trf3, tre-sp) and the unit's seat (orgaoJulgador.codigoMunicipioIBGE). */
  court: string;
  municipality?: number | undefined;
  /** The case's class (DataJud `classe`). */
  className: string | null;
  classCode: number | null;
  /** 20 digits. */
  caseNumber: string | null;
  /** The act, when the movement's complements name it ("Sentença", "Despacho"). */
  documentType?: string | null | undefined;
  /** Any text the movement carries (its complements); DataJud carries no document text. */
  text?: string | undefined;
}

/**
 * The estimate of an act DataJud says was made available in a Diário ("Disponibilização no Diário
 * da Justiça Eletrônico"): the same rule and calendar as a DJEN intimação. DataJud carries no text,
 * so no period is read (no last day; the law's default for a named act is offered).
 */
export function estimateAvailability(
  facts: AvailabilityFacts,
  calendars: CalendarFor,
): DeadlineEstimate {
  const seat = seatFor(facts.court, facts.municipality, facts.caseNumber);
  const estimate = estimateDeadline({
    availableOn: facts.availableOn,
    gazette: "DJe",
    calendar: calendars({ court: courtAlias(facts.court), municipality: seat.municipality }),
    communication: {
      kind: null,
      documentType: facts.documentType ?? null,
      className: facts.className,
      classCode: facts.classCode,
      medium: "D",
      text: facts.text ?? "",
      recipients: [],
      lawyerCount: 1,
      caseNumber: facts.caseNumber,
      court: facts.court,
    },
  });
  return withSeatNote(estimate, seat.note);
}

/**
 * TPU codes of the gazette movements a deadline may count from: 1061 "Disponibilização no Diário
 * da Justiça Eletrônico" and 92 "Publicação".
 */
export const GAZETTE_CODES: ReadonlySet<number> = new Set([1061, 92]);

const PUBLICACAO_NOTE =
  "A data de \u201cPublicação\u201d do DataJud nem sempre é a publicação legal (às vezes é o dia da disponibilização): tomada como o dia da publicação, o prazo conta do dia útil seguinte (CPC, art. 224 §3º), a data mais cedo que a lei permite.";

/**
 * The estimate of a gazette movement DataJud lists (`GAZETTE_CODES`) on `day`, the court's wall
 * clock day; null for any other movement.
 *
 * - 1061 on day D: made available on D, as a DJEN item is: the same rule and court calendar
 *   (Lei 11.419/2006 art. 4 §§3-4), so both give the same publication and counting start.
 * - 92 on day D: DataJud's "Publicação" is not always the legal publication (in TJDFT records
 *   many fall on the day of the disponibilização, when the law puts the publication a business
 *   day later). Taking D itself as the publication gives the earliest start the law allows: the
 *   estimate of an act made available the day before, which counts as published on D when D is
 *   a business day.
 */
export function estimateGazetteMovement(
  movement: { code: number | null; day: IsoDate },
  facts: Omit<AvailabilityFacts, "availableOn">,
  calendars: CalendarFor,
): DeadlineEstimate | null {
  if (movement.code === null || !GAZETTE_CODES.has(movement.code)) return null;
  if (movement.code === 1061) {
    return estimateAvailability({ ...facts, availableOn: movement.day }, calendars);
  }
  const estimate = estimateAvailability(
    { ...facts, availableOn: addDays(movement.day, -1) },
    calendars,
  );
  return { ...estimate, notes: [PUBLICACAO_NOTE, ...estimate.notes] };
}
