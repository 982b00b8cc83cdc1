import { z } from "zod";
import { wallClockDay } from "../datajud/dates.js";
import type { InstanceRecord, Movement } from "../datajud/instance-record.js";
import { countFromStart } from "../deadlines/estimate.js";
import { type DeadlineEstimate, SkippedDays } from "../deadlines/estimate-schema.js";
import {
  type CalendarFor,
  courtAlias,
  estimateAvailability,
  estimateGazetteMovement,
  GAZETTE_CODES,
  seatFor,
} from "../deadlines/publication-estimate.js";
import type { Procedure } from "../deadlines/regimes.js";
import { foldText } from "../text.js";
import { addDays, formatBrazilian, type IsoDate } from "../time/calendar-date.js";
import type { CourtCalendar } from "../time/court-calendar.js";
import { type ActKey, type ActPeriod, type ActReading, actPeriods } from "./act-periods.js";
import { isSuperiorCourt, judgmentForm } from "./act-reading.js";
import { isDespacho, kindOf } from "./instance-status.js";
import { isCriminalClass, movementTitle } from "./movement-reading.js";

/*
 * The last day of each period an act opens (act-periods.json), where the act's publication is
 * known: a DataJud gazette movement that published it ("Disponibilização no Diário da Justiça
 * Eletrônico" on day D: published on the next business day, Lei 11.419/2006 art. 4 §3; counted
 * from the business day after that, §4 and CPC art. 224) or a DJEN intimação of the case that
 * names it. The publication and its counting start come from the same engine, rule and court
 * calendar as a DJEN item's (deadlines/publication-estimate.ts); each period is then counted from
 * that start as the law counts it (dias úteis, CPC art. 219; dias corridos in a criminal case, CPP
 * art. 798, ending on a day the court is open, § 3º). Of two publications the earlier counts:
 * the dates are never later than the law's. Where no publication is known the period is named
 * without a date. Pure: the calendars are given.
 */

const IsoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/u);

/** One period of an act with its dates; strict: our own reading, stored with the alert. */
export const DatedPeriod = z.strictObject({
  name: z.string(),
  days: z.number().int().positive().nullable(),
  counting: z.enum(["business", "calendar"]),
  article: z.string(),
  from: z.string(),
  countingStartsOn: IsoDay.nullable(),
  /** Null: not estimated (no publication known, or a period of no fixed length). */
  lastDay: IsoDay.nullable(),
  /** Why there is no date, or what moved it (an end on a closed day passes to the next). */
  note: z.string().nullable(),
});
export type DatedPeriod = z.infer<typeof DatedPeriod>;

export const ActPublication = z.strictObject({
  source: z.enum(["datajud", "djen"]),
  /** "Disponibilização no Diário da Justiça Eletrônico de 16/07/2020 (DataJud)". */
  what: z.string(),
  availableOn: IsoDay,
  publishedOn: IsoDay,
  countingStartsOn: IsoDay.nullable(),
  /** The rule the publication and the counting start rest on, with its articles. */
  rule: z.string(),
});
export type ActPublication = z.infer<typeof ActPublication>;

/** An act, the periods it opens and their last days; stored with the alert. */
export const ActDeadline = z.strictObject({
  movementId: z.string(),
  instance: z.string(),
  key: z.string(),
  /** The act in a lawyer's words ("sentença"). */
  act: z.string(),
  /** The movement as the alert names it ("Sentença condenatória", "Julgado procedente o pedido"). */
  title: z.string(),
  /** The court's wall-clock day of the act. */
  actOn: IsoDay.nullable(),
  publication: ActPublication.nullable(),
  periods: z.array(DatedPeriod),
  /** Days that did not count or moved a date, with their sources. */
  skippedDays: z.array(SkippedDays),
  /** What the dates assumed and what to confirm, in Portuguese. */
  notes: z.array(z.string()),
  /** What the court's calendar took into account (and did not) for these years. */
  considered: z.string().nullable(),
  estimate: z.literal(true),
});
export type ActDeadline = z.infer<typeof ActDeadline>;

/** A stored DJEN item of the case, as far as matching it to an act needs. */
export interface DjenItemFacts {
  availableOn: IsoDate;
  /** DJEN's tipoComunicacao ("Intimação", "Edital"). */
  kind: string | null;
  documentType: string | null;
  text: string;
  cancelled: boolean;
}

/** How far after an act a publication may come and still be read as the act's. */
const MATCH_DAYS = 60;

/**
 * Acts whose period runs from an intimação the court orders after the act itself (CPC arts. 523
 * and 854 §2): the first publication after it is taken as that intimação, the earliest the
 * period can start.
 */
const FIRST_PUBLICATION_AFTER: ReadonlySet<ActKey> = new Set([
  "judgment_enforcement",
  "asset_freeze",
  "tax_execution_freeze",
]);

/** The words a DJEN item uses for each act (its document type, or the start of its text). */
const DJEN_WORDS: Readonly<Partial<Record<ActKey, RegExp>>> = {
  civil_sentence: /\bsentenca\b/u,
  criminal_sentence: /\bsentenca\b/u,
  juizado_sentence: /\bsentenca\b/u,
  civil_judgment: /\bacordao\b|\bementa\b/u,
  embargos_decided: /embargos de declaracao/u,
  juizado_embargos_decided: /embargos de declaracao/u,
  asset_freeze: /bloqueio|penhora|sisbajud|indisponibilidade|arresto/u,
  tax_execution_freeze: /bloqueio|penhora|sisbajud|indisponibilidade|arresto/u,
  judgment_enforcement: /cumprimento de sentenca|art\.? 523|pagamento|pagar/u,
};

function dayOf(m: Movement): IsoDate | null {
  if (m.dateTime === null) return null;
  return (wallClockDay(m.dateTime) as IsoDate | null) ?? null;
}

/** A court's act a gazette can publish: a decision, a despacho, an ato ordinatório, a hearing... */
function isCourtAct(m: Movement): boolean {
  if (m.code !== null && GAZETTE_CODES.has(m.code)) return false;
  if (isDespacho(m) || m.code === 11383) return true;
  const kind = kindOf(m);
  return ["decision", "sentence", "judgment", "hearing", "execution", "suspension"].includes(kind);
}

/** A movement that may bring an act with periods to an alert: a court act or a gazette movement. */
export function mayOpenPeriods(m: Movement): boolean {
  return isCourtAct(m) || (m.code !== null && GAZETTE_CODES.has(m.code));
}

/** A record's movements newest first, sorted once per list (a first read brings hundreds). */
const NEWEST_FIRST = new WeakMap<readonly Movement[], readonly Movement[]>();

function newestFirst(movements: readonly Movement[]): readonly Movement[] {
  let sorted = NEWEST_FIRST.get(movements);
  if (sorted === undefined) {
    sorted = [...movements].sort((a, b) => (b.dateTime ?? "").localeCompare(a.dateTime ?? ""));
    NEWEST_FIRST.set(movements, sorted);
  }
  return sorted;
}

function sortedBefore(record: Pick<InstanceRecord, "movements">, m: Movement): Movement[] {
  return newestFirst(record.movements).filter(
    (x) => x !== m && x.id !== m.id && (x.dateTime ?? "") <= (m.dateTime ?? ""),
  );
}

/**
 * The act a gazette movement published, as far as the record shows it: the latest act of the
 * court before it (within 30 days), skipping what a publication does not publish (remessa,
 * conclusão, juntada, expedição, other gazette movements); null when none is found.
 */
export function publishedActOf(
  gazette: Movement,
  record: Pick<InstanceRecord, "movements">,
): Movement | null {
  const day = dayOf(gazette);
  if (day === null) return null;
  const floor = addDays(day, -30);
  for (const x of sortedBefore(record, gazette)) {
    const on = dayOf(x);
    if (on === null || on < floor) return null;
    if (isCourtAct(x)) return x;
  }
  return null;
}

/** The act's reading when it opens periods the monitor can name (as actAttention names them). */
export function periodsOfAct(
  m: Movement,
  record: Pick<InstanceRecord, "instance" | "court" | "class" | "movements">,
): ActReading | null {
  const reading = actPeriods(m, record);
  const judged =
    reading === null
      ? kindOf(m) === "judgment"
      : reading.key === "civil_judgment" || reading.key === "labour_judgment";
  if (judged && judgmentForm(m, record)?.form === "monocratic") {
    // The relator's judgment is his decision: the agravo interno (or regimental) of its court
    // and class, as act-reading.ts names it.
    const alone = actPeriods(m, record, "decision");
    return alone === null || alone.periods.length === 0 ? null : alone;
  }
  if (reading === null || reading.periods.length === 0) return null;
  // A superior court's record does not say whether the panel judged (act-reading.ts says so).
  if (reading.key === "civil_judgment" && isSuperiorCourt(record)) return null;
  return reading;
}

function gazetteFor(
  act: Movement,
  reading: ActReading,
  record: Pick<InstanceRecord, "movements">,
): Movement[] {
  const day = dayOf(act);
  if (day === null) return [];
  const until = addDays(day, MATCH_DAYS);
  const after = newestFirst(record.movements)
    .filter((x) => x.code !== null && GAZETTE_CODES.has(x.code))
    .filter((x) => (x.dateTime ?? "") >= (act.dateTime ?? "") && (dayOf(x) ?? "9999") <= until)
    .reverse();
  if (FIRST_PUBLICATION_AFTER.has(reading.key as ActKey)) return after.slice(0, 2);
  return after.filter((g) => publishedActOf(g, record)?.id === act.id);
}

/**
 * The acts with periods a new gazette movement publishes: the act it published, when that act
 * opens periods, and any act whose intimação is the first publication after it (a freeze, a
 * cumprimento started) for which this is that publication.
 */
export function actsPublishedBy(gazette: Movement, record: InstanceRecord): Movement[] {
  if (gazette.code === null || !GAZETTE_CODES.has(gazette.code)) return [];
  const out: Movement[] = [];
  const published = publishedActOf(gazette, record);
  if (published !== null && periodsOfAct(published, record) !== null) out.push(published);
  const day = dayOf(gazette);
  if (day === null) return out;
  const floor = addDays(day, -MATCH_DAYS);
  for (const x of sortedBefore(record, gazette)) {
    const on = dayOf(x);
    if (on === null || on < floor) break;
    const reading = periodsOfAct(x, record);
    if (reading === null || !FIRST_PUBLICATION_AFTER.has(reading.key)) continue;
    if (out.some((o) => o.id === x.id)) continue;
    if (gazetteFor(x, reading, record).some((g) => g.id === gazette.id)) out.push(x);
  }
  return out;
}

function djenFor(
  act: Movement,
  reading: ActReading,
  items: readonly DjenItemFacts[],
): DjenItemFacts[] {
  const day = dayOf(act);
  if (day === null) return [];
  const until = addDays(day, MATCH_DAYS);
  const words = DJEN_WORDS[reading.key as ActKey] ?? new RegExp(foldText(reading.act), "u");
  return items
    .filter((p) => !p.cancelled && p.availableOn >= day && p.availableOn <= until)
    .filter((p) => /intima/u.test(foldText(p.kind ?? "intimacao")))
    .filter((p) => words.test(foldText(`${p.documentType ?? ""} ${p.text.slice(0, 600)}`)))
    .sort((a, b) => a.availableOn.localeCompare(b.availableOn));
}

export interface ActDeadlineInput {
  instance: string;
  act: Movement;
  record: InstanceRecord;
  /** 20 digits. */
  caseNumber: string;
  /** The case's DJEN items (stored publications); empty when none are known. */
  publications: readonly DjenItemFacts[];
  calendars: CalendarFor;
}

interface Candidate {
  estimate: DeadlineEstimate;
  publication: ActPublication;
}

function candidates(input: ActDeadlineInput, reading: ActReading): Candidate[] {
  const { record } = input;
  const facts = {
    court: record.court,
    municipality: record.courtUnit?.municipalityCode ?? undefined,
    className: record.class?.name ?? null,
    classCode: record.class?.code ?? null,
    caseNumber: input.caseNumber,
  };
  const out: Candidate[] = [];
  const firstAfter = FIRST_PUBLICATION_AFTER.has(reading.key as ActKey);
  const taken = firstAfter ? "primeira publicação depois do ato, tomada como a intimação: " : "";
  for (const g of gazetteFor(input.act, reading, record)) {
    const day = dayOf(g);
    if (day === null) continue;
    const estimate = estimateGazetteMovement({ code: g.code, day }, facts, input.calendars);
    if (estimate === null || estimate.countingStartsOn === null) continue;
    out.push({
      estimate,
      publication: {
        source: "datajud",
        what: `${taken}${
          g.code === 1061
            ? `disponibilização no Diário em ${formatBrazilian(day)}, segundo o DataJud`
            : `movimento “Publicação” de ${formatBrazilian(day)} no DataJud`
        }`,
        availableOn: estimate.availableOn,
        publishedOn: estimate.publishedOn,
        countingStartsOn: estimate.countingStartsOn,
        rule: estimate.rule.title,
      },
    });
  }
  for (const p of djenFor(input.act, reading, input.publications)) {
    const estimate = estimateAvailability(
      { ...facts, availableOn: p.availableOn, documentType: p.documentType },
      input.calendars,
    );
    if (estimate.countingStartsOn === null) continue;
    out.push({
      estimate,
      publication: {
        source: "djen",
        what: `intimação no DJEN disponibilizada em ${formatBrazilian(p.availableOn)}`,
        availableOn: estimate.availableOn,
        publishedOn: estimate.publishedOn,
        countingStartsOn: estimate.countingStartsOn,
        rule: estimate.rule.title,
      },
    });
  }
  // The earliest start: a later one would risk a date after the law's.
  return out.sort((a, b) =>
    (a.publication.countingStartsOn ?? "").localeCompare(b.publication.countingStartsOn ?? ""),
  );
}

const NO_LENGTH =
  "prazo do recurso cabível contra a decisão embargada, por inteiro: confira qual é e conte desta intimação";

/** The period as stored: its own fields only (the table's `startsAfterPrevious` is how it counts). */
function dated(
  p: ActPeriod,
  dates: { countingStartsOn: IsoDate | null; lastDay: IsoDate | null; note: string | null },
): DatedPeriod {
  return {
    name: p.name,
    days: p.days,
    counting: p.counting,
    article: p.article,
    from: p.from,
    ...dates,
  };
}

const NOT_FROM_PUBLICATION =
  "não corre da publicação do ato: conte do fato que o inicia, conferido nos autos";

function undated(p: ActPeriod, note: string): DatedPeriod {
  return dated(p, { countingStartsOn: null, lastDay: null, note });
}

function mergeSkipped(lists: readonly SkippedDays[][]): SkippedDays[] {
  const seen = new Map<string, SkippedDays>();
  for (const day of lists.flat()) seen.set(`${day.from}|${day.to}|${day.name}`, day);
  return [...seen.values()].sort((a, b) => a.from.localeCompare(b.from));
}

/** How long an act whose period has no date stays worth the opening of an alert. */
const STALE_DAYS = 120;

/**
 * Whether nothing of the act is left to do on `today` (the sweep's São Paulo day): every period
 * ended before it, or, without a last day, the act is older than 120 days. A first read of a
 * long case brings every sentence it ever had; the ones long past are history, not news.
 */
export function isStale(act: ActDeadline, today: IsoDate): boolean {
  const old = act.actOn !== null && act.actOn < addDays(today, -STALE_DAYS);
  return act.periods.every((p) => (p.lastDay === null ? old : p.lastDay < today));
}

/**
 * Whether a movement of `day` may still bring an act worth the opening on `today`: an act more
 * than 180 days old was published within 60 days of it and its longest count (15 + 15 dias
 * úteis, over a year-end suspension) ended well before today, or it is stale undated. Lets a
 * first read of a long case skip the estimates of its history.
 */
export function mayStillMatter(m: Movement, today: IsoDate): boolean {
  const day = dayOf(m);
  return day === null || day >= addDays(today, -(STALE_DAYS + MATCH_DAYS));
}

/** Notes on how the law counts an act's periods that the dates above cannot show. */
function actNotes(reading: ActReading, criminal: boolean, firstAfter: boolean): string[] {
  const notes: string[] = [];
  if (firstAfter) {
    notes.push(
      reading.key === "judgment_enforcement"
        ? "A primeira publicação no Diário depois do início do cumprimento foi tomada como a intimação para pagar (CPC, art. 513, § 2º, I, e art. 523): confira o ato publicado."
        : "A primeira publicação no Diário depois do bloqueio foi tomada como a intimação dele ao advogado (CPC, art. 854, § 2º): confira o ato publicado.",
    );
  }
  if (criminal && reading.key === "criminal_sentence") {
    notes.push(
      "Na sentença penal, o prazo corre da última intimação, do réu ou do defensor (CPP, art. 392): contamos da publicação para o advogado, a data mais cedo.",
    );
  }
  return notes;
}

/**
 * The act's periods with their last days where its publication is known; null when the act
 * opens no period the monitor can name.
 */
export function actDeadline(input: ActDeadlineInput): ActDeadline | null {
  const { act, record } = input;
  const reading = periodsOfAct(act, record);
  if (reading === null) return null;
  const criminal = isCriminalClass(record.class);
  const base = {
    movementId: act.id,
    instance: input.instance,
    key: reading.key,
    act: reading.act,
    title: movementTitle(act, { criminal }),
    actOn: dayOf(act),
    estimate: true as const,
  };
  const [chosen] = candidates(input, reading);
  if (chosen === undefined) {
    return {
      ...base,
      publication: null,
      periods: reading.periods.map((p) =>
        p.notFromPublication === true
          ? undated(p, NOT_FROM_PUBLICATION)
          : undated(p, "a publicação do ato ainda não consta do DataJud nem do DJEN"),
      ),
      skippedDays: [],
      notes: actNotes(reading, criminal, false),
      considered: null,
    };
  }
  const counted = datedPeriods(reading.periods, {
    start: chosen.publication.countingStartsOn as IsoDate,
    calendar: actCalendar(input),
    procedure: chosen.estimate.rule.procedure,
  });
  return {
    ...base,
    publication: chosen.publication,
    periods: counted.periods,
    skippedDays: mergeSkipped([chosen.estimate.skippedDays, ...counted.skipped]),
    notes: [
      ...actNotes(reading, criminal, FIRST_PUBLICATION_AFTER.has(reading.key)),
      ...chosen.estimate.notes.filter((n) => !/^O texto não informa prazo/u.test(n)),
    ],
    considered: chosen.estimate.considered === "" ? null : chosen.estimate.considered,
  };
}

/** The calendar of the court and seat the case's record names. */
function actCalendar({ record, caseNumber, calendars }: ActDeadlineInput): CourtCalendar {
  const seat = seatFor(record.court, record.courtUnit?.municipalityCode ?? undefined, caseNumber);
  return calendars({ court: courtAlias(record.court), municipality: seat.municipality });
}

/** How an act's periods are counted once its publication's counting start is known. */
export interface PeriodCounting {
  /** The publication's first counting day. */
  start: IsoDate;
  calendar: CourtCalendar;
  procedure: Procedure;
}

/**
 * Each period dated from the publication's counting start, or from the day after the previous
 * period's end where it follows it; named without a date where no publication starts it or it
 * has no fixed length. With the days each count skipped.
 */
export function datedPeriods(
  periods: readonly ActPeriod[],
  { start, calendar, procedure }: PeriodCounting,
): { periods: DatedPeriod[]; skipped: SkippedDays[][] } {
  const skipped: SkippedDays[][] = [];
  const out: DatedPeriod[] = [];
  let previousEnd: IsoDate | null = null;
  for (const p of periods) {
    if (p.notFromPublication === true) {
      // The juntada of a citação, an audiência, a guarantee: no publication dates it.
      out.push(undated(p, NOT_FROM_PUBLICATION));
      previousEnd = null;
      continue;
    }
    if (p.days === null) {
      out.push(undated(p, NO_LENGTH));
      continue;
    }
    const chained = p.startsAfterPrevious === true;
    if (chained && previousEnd === null) {
      out.push(undated(p, "depende do fim do prazo anterior"));
      continue;
    }
    const from = chained && previousEnd !== null ? addDays(previousEnd, 1) : start;
    const counted = countFromStart({
      calendar,
      procedure,
      countingStartsOn: from,
      amount: p.days,
      unit: p.counting === "business" ? "business-days" : "calendar-days",
      // Whether a defendant is in custody is unknown: without the year-end suspension, earliest.
      unsuspended: procedure === "criminal" || p.unsuspended === true,
    });
    skipped.push(counted.skipped);
    out.push(
      dated(p, {
        countingStartsOn: counted.countingStartsOn,
        lastDay: counted.lastDay,
        note: counted.note,
      }),
    );
    previousEnd = counted.lastDay;
  }
  return { periods: out, skipped };
}
