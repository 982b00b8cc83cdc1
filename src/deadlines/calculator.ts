import { z } from "zod";
import { municipalityName } from "../time/calendar/municipal-days.js";
import { type IsoDate, parseIsoDate, yearOf } from "../time/calendar-date.js";
import type { CourtCalendar } from "../time/court-calendar.js";
import type { PublicEntity } from "./communication.js";
import { courtKind, readCommunication, segmentOf } from "./communication.js";
import { criminalClass } from "./criminal-class.js";
import { countFromStart } from "./estimate.js";
import { EstimateAlternative, SkippedDays } from "./estimate-schema.js";
import { type CalendarFor, estimatePublication, seatFor } from "./publication-estimate.js";
import type { Procedure } from "./regimes.js";

/*
 * The lawyer's deadline calculator (`datajud-monitor prazo`, MCP calculate_deadline): the period a
 * lawyer names, counted on the same engine and court calendar as every publication's estimate.
 * From the day a communication was made available, it is an intimação through the DJEN or a
 * Diário (Lei 11.419/2006 art. 4): the estimate of a publication stating that period. From a
 * counting start the lawyer already knows, the count runs from that day.
 */

const IsoDay = z.string().refine((text) => parseIsoDate(text) !== null, "a date, YYYY-MM-DD");

/** What the lawyer asks; the court already resolved to a DataJud alias (or `stf`). */
export const CalculatorRequest = z
  .strictObject({
    court: z.string().regex(/^[a-z0-9-]+$/u),
    /** IBGE code of the unit's seat, when the lawyer names it. */
    municipality: z.number().int().min(1_000_000).max(9_999_999).nullable(),
    /** 20 digits: names the seat when its origin code is in the table. */
    caseNumber: z
      .string()
      .regex(/^\d{20}$/u)
      .nullable(),
    /** The day the communication was made available (DJEN/Diário). */
    availableOn: IsoDay.nullable(),
    /** Or the first day of the count, when the lawyer knows it. */
    countingStartsOn: IsoDay.nullable(),
    amount: z.number().int().min(1).max(365),
    unit: z.enum(["days", "hours"]),
    /** null: the procedure's own (business days in civil and labour cases, CPC 219, CLT 775). */
    dayKind: z.enum(["business", "calendar"]).nullable(),
    /** The period doubled for this entity (CPC arts. 180, 183, 186). */
    doubledFor: z.enum(["fazenda", "mp", "defensoria"]).nullable(),
    /** The case's class, when known: a criminal class counts calendar days (CPP art. 798). */
    className: z.string().min(1).max(200).nullable(),
    /** A criminal case whose class is not given; otherwise, without a class, a civil one. */
    criminal: z.boolean(),
  })
  .refine((r) => (r.availableOn === null) !== (r.countingStartsOn === null), {
    message: "give either the day it was made available or the counting start, not both",
  })
  .refine((r) => r.unit === "days" || r.dayKind === null, {
    message: "business or calendar days apply to a period in days only",
  });
export type CalculatorRequest = z.infer<typeof CalculatorRequest>;

const NotKnown = z.strictObject({ year: z.number().int(), items: z.array(z.string()) });

/** The answer, the same through the CLI and the MCP tool. */
export const DeadlineCalculation = z.strictObject({
  court: z.string(),
  seat: z.strictObject({
    municipality: z.number().int().nullable(),
    name: z.string().nullable(),
    /** given: named by the lawyer; case-number: from its origin code; none: municipal days unknown. */
    from: z.enum(["given", "case-number", "none"]),
  }),
  period: z.strictObject({
    amount: z.number().int(),
    unit: z.enum(["business-days", "calendar-days", "hours"]),
    asked: z.number().int(),
    doubledFor: z.enum(["fazenda", "mp", "defensoria"]).nullable(),
  }),
  availableOn: IsoDay.nullable(),
  publishedOn: IsoDay.nullable(),
  countingStartsOn: IsoDay,
  lastDay: IsoDay,
  /** The rule applied, in Portuguese, with its articles. */
  rule: z.string(),
  /** Every day that did not count or moved a date, with its act and link. */
  skippedDays: z.array(SkippedDays),
  /** What the court's calendar does not know for each year involved (working days here). */
  notKnown: z.array(NotKnown),
  /** Later readings of a fact the calculator cannot know (custody, a class not given). */
  alternatives: z.array(EstimateAlternative),
  notes: z.array(z.string()),
  estimate: z.literal(true),
});
export type DeadlineCalculation = z.infer<typeof DeadlineCalculation>;

const DOUBLING: Readonly<Record<PublicEntity, string>> = {
  fazenda: "em dobro para a Fazenda Pública (CPC, art. 183)",
  mp: "em dobro para o Ministério Público (CPC, art. 180)",
  defensoria: "em dobro para a Defensoria Pública (CPC, art. 186; LC 80/1994, art. 44, I)",
};

/** "no prazo de 15 dias úteis": the words an intimação stating the period would use. */
function periodWords(amount: number, unit: "days" | "hours", dayKind: string | null): string {
  if (unit === "hours") return `${amount} horas`;
  if (dayKind === "business") return `${amount} dias úteis`;
  if (dayKind === "calendar") return `${amount} dias corridos`;
  return `${amount} dias`;
}

/** A juizado's period is never doubled (Lei 10.259/2001 art. 9; Lei 12.153/2009 art. 7). */
function juizado(className: string | null): boolean {
  return className !== null && /juizado/iu.test(className);
}

/**
 * In a criminal case only the Defensoria counts double (LC 80/1994, arts. 44, I, 89, I and 128,
 * I): CPC arts. 180 and 183 do not reach the CPP, whose periods are the same for the MP (STF, HC
 * 120.275/PR, 1ª Turma, 15/05/2018; STJ, AgRg no HC 392.868/MT, 6ª Turma, DJe 15/02/2018), as
 * the publication estimates already read it. The lawyer asking says the case is criminal.
 */
function criminalCount(checked: CalculatorRequest): boolean {
  return checked.criminal || criminalClass(null, checked.className) === true;
}

/**
 * An electoral court (a TRE, the TSE, or J = 6 in the number, Res. CNJ 65/2008): its periods are
 * the electoral laws' own, peremptory and continuous (LC 64/1990, art. 16), the CPC only
 * supplementing them where compatible (Res. TSE 23.478/2016, art. 2º); the publication estimates
 * never double them, and the calculator answers the same: never a later date than theirs.
 */
function electoralCourt(checked: CalculatorRequest): boolean {
  return courtKind(checked.court, segmentOf(checked.caseNumber)) === "electoral";
}

/** Thrown for a request the law does not allow (the caller shows it as a usage error). */
export class CalculatorRefusal extends Error {}

export function calculateDeadline(
  request: CalculatorRequest,
  calendars: CalendarFor,
): DeadlineCalculation {
  const checked = CalculatorRequest.parse(request);
  if (checked.doubledFor !== null && juizado(checked.className)) {
    throw new CalculatorRefusal(
      "no doubled period in a Juizado Especial (Lei 10.259/2001, art. 9; Lei 12.153/2009, art. 7): drop the doubling or the juizado class",
    );
  }
  if (checked.doubledFor !== null && electoralCourt(checked)) {
    throw new CalculatorRefusal(
      "no doubled period in an electoral case (LC 64/1990, art. 16; Res. TSE 23.478/2016, art. 2º: the electoral laws' periods govern, the CPC's doubling only where compatible, and the publication estimates never double them): drop the doubling and count the simple period, the earlier date",
    );
  }
  if ((checked.doubledFor === "mp" || checked.doubledFor === "fazenda") && criminalCount(checked)) {
    throw new CalculatorRefusal(
      `no doubled period for the ${checked.doubledFor === "mp" ? "Ministério Público" : "Fazenda Pública"} in a criminal case (CPP, art. 798; CPC arts. 180 and 183 do not apply; STF HC 120.275/PR): drop the doubling (only the Defensoria counts double, LC 80/1994)`,
    );
  }
  const seat = calculatorSeat(checked);
  const calendar = calendars({
    court: checked.court,
    municipality: seat.view.municipality ?? undefined,
  });
  const period: AskedPeriod = {
    // Without a class the engine takes the earliest reading (criminal, calendar days); the lawyer
    // asking knows the case, so the class stands for what they said: civil unless --criminal.
    className:
      checked.className ??
      (checked.criminal ? "Ação Penal - Procedimento Ordinário" : "Procedimento Comum Cível"),
    amount: checked.doubledFor === null ? checked.amount : checked.amount * 2,
    doubling: checked.doubledFor === null ? null : DOUBLING[checked.doubledFor],
    calendar,
    notes: seat.notes,
  };
  const result =
    checked.availableOn !== null
      ? countFromAvailability(checked, checked.availableOn, period)
      : countFromKnownStart(checked, checked.countingStartsOn as IsoDate, period);
  return DeadlineCalculation.parse({
    court: checked.court,
    seat: seat.view,
    ...result,
    notKnown: notKnownOf(result, calendar),
    estimate: true,
  });
}

/** What the count needs besides the request: the period as counted, its calendar, the notes so far. */
interface AskedPeriod {
  /** The class the engine reads the period under. */
  className: string;
  /** Doubled where the request says so. */
  amount: number;
  /** The rule of the doubling; null: not doubled. */
  doubling: string | null;
  calendar: CourtCalendar;
  notes: readonly string[];
}

type Counted = Omit<DeadlineCalculation, "notKnown" | "court" | "seat" | "estimate">;

/** The unit's seat (named, from the case number, or unknown) and what the lawyer must know of it. */
export function calculatorSeat(checked: CalculatorRequest): {
  view: DeadlineCalculation["seat"];
  notes: string[];
} {
  const seat = seatFor(checked.court, checked.municipality ?? undefined, checked.caseNumber);
  const municipality = seat.municipality ?? null;
  const notes: string[] = [];
  if (seat.note !== null) notes.push(seat.note);
  if (municipality === null) {
    notes.push(
      "Sede da unidade não informada: feriados municipais não considerados (informe o município ou o número do processo).",
    );
  }
  return {
    view: {
      municipality,
      name: municipality === null ? null : municipalityName(municipality),
      from:
        municipality === null ? "none" : checked.municipality !== null ? "given" : "case-number",
    },
    notes,
  };
}

/**
 * From the day the communication was made available: the estimate of an intimação through the
 * Diário stating the period (Lei 11.419/2006 art. 4), the same as any publication's.
 */
function countFromAvailability(
  checked: CalculatorRequest,
  availableOn: string,
  asked: AskedPeriod,
): Counted {
  const text = intimationText(asked.amount, checked.unit, checked.dayKind);
  const estimate = estimatePublication(
    {
      court: checked.court,
      kind: "Intimação",
      documentType: null,
      className: asked.className,
      medium: "D",
      availableOn,
      caseNumber: checked.caseNumber,
      recipients: [],
      lawyers: [{}],
    },
    text,
    () => asked.calendar,
  );
  const period = estimate.period;
  if (period === null || estimate.lastDay === null || estimate.countingStartsOn === null) {
    throw new Error(`the engine read no period from "${text}"`);
  }
  return {
    period: {
      amount: period.amount,
      unit: period.unit === "months" || period.unit === "years" ? "calendar-days" : period.unit,
      asked: checked.amount,
      doubledFor: checked.doubledFor,
    },
    availableOn,
    publishedOn: estimate.publishedOn,
    countingStartsOn: estimate.countingStartsOn,
    lastDay: estimate.lastDay,
    rule: [estimate.rule.title, period.basis, asked.doubling].filter((p) => p !== null).join("; "),
    skippedDays: estimate.skippedDays,
    alternatives: estimate.alternatives,
    notes: [
      ...asked.notes,
      ...estimate.notes.filter((n) => !n.startsWith("sede pelo número")),
      ...(period.note === null ? [] : [period.note]),
    ],
  };
}

/** From a counting start the lawyer already knows: the period counted from that day. */
function countFromKnownStart(
  checked: CalculatorRequest,
  start: IsoDate,
  asked: AskedPeriod,
): Counted {
  const reading = readCommunication({
    kind: "Intimação",
    documentType: null,
    className: asked.className,
    classCode: null,
    medium: "D",
    text: intimationText(asked.amount, checked.unit, checked.dayKind),
    recipients: [],
    lawyerCount: 1,
    caseNumber: checked.caseNumber,
    court: checked.court,
  });
  const procedure =
    reading.classUnknown && reading.procedure === "civil" ? "criminal" : reading.procedure;
  const unit = countingUnit(checked, procedure);
  const counted = countFromStart({
    calendar: asked.calendar,
    procedure,
    countingStartsOn: start,
    amount: asked.amount,
    unit,
  });
  return {
    period: { amount: asked.amount, unit, asked: checked.amount, doubledFor: checked.doubledFor },
    availableOn: null,
    publishedOn: null,
    countingStartsOn: counted.countingStartsOn,
    lastDay: counted.lastDay,
    rule: [
      `Prazo contado a partir do dia informado (${COUNT_RULE[procedure]}; CPC, art. 224 §1º: começo e fim em dia útil)`,
      asked.doubling,
    ]
      .filter((p) => p !== null)
      .join("; "),
    skippedDays: counted.skipped,
    alternatives: [],
    notes: [...asked.notes, ...(counted.note === null ? [] : [counted.note])],
  };
}

/** The intimação a period stated in these words would be. */
function intimationText(amount: number, unit: "days" | "hours", dayKind: string | null): string {
  return `Intime-se a parte para, no prazo de ${periodWords(amount, unit, dayKind)}, manifestar-se.`;
}

/**
 * What a count from a known start runs in: hours as asked; days as the lawyer says, else the
 * procedure's own (dias úteis in civil and labour cases, CPC art. 219, CLT art. 775).
 */
export function countingUnit(
  checked: Pick<CalculatorRequest, "unit" | "dayKind">,
  procedure: Procedure,
): "hours" | "business-days" | "calendar-days" {
  if (checked.unit === "hours") return "hours";
  const business =
    checked.dayKind === "business" ||
    (checked.dayKind === null && (procedure === "civil" || procedure === "labour"));
  return business ? "business-days" : "calendar-days";
}

/** What the court's calendar does not know for each year the dates fall in. */
function notKnownOf(
  result: Pick<Counted, "availableOn" | "countingStartsOn" | "lastDay">,
  calendar: CourtCalendar,
): DeadlineCalculation["notKnown"] {
  const years = [
    ...new Set(
      [result.availableOn, result.countingStartsOn, result.lastDay]
        .filter((d): d is string => d !== null)
        .map(yearOf),
    ),
  ].sort();
  return years.map((year) => ({ year, items: [...calendar.considered(year).notConsidered] }));
}

const COUNT_RULE: Readonly<Record<"civil" | "labour" | "criminal" | "electoral", string>> = {
  civil: "dias úteis, CPC, arts. 219, 220 e 224",
  labour: "dias úteis, CLT, arts. 775 e 775-A",
  criminal: "dias corridos, CPP, arts. 798 e 798-A",
  electoral: "dias corridos, Res. TSE 23.478/2016, arts. 7º e 10",
};
