import {
  addDays,
  calendarDate,
  daysInMonth,
  formatBrazilian,
  type IsoDate,
  parseIsoDate,
  yearOf,
} from "../time/calendar-date.js";
import type { CourtCalendar } from "../time/court-calendar.js";
import {
  type CommunicationFacts,
  type CommunicationReading,
  type PublicEntity,
  readCommunication,
} from "./communication.js";
import { Count, type Regime } from "./count-days.js";
import type {
  DeadlineEstimate,
  DeadlineRule,
  EstimateAlternative,
  PeriodEstimate,
  SessionEstimate,
  SkippedDays,
} from "./estimate-schema.js";
import { legalDefaults } from "./legal-defaults.js";
import { type Procedure, regimeOf } from "./regimes.js";
import { hearingDate, sessionDate } from "./session-date.js";
import { type StatedPeriod, statedPeriods } from "./stated-period.js";

/*
 * The estimate of one communication: which rule applies, when it counts as published, when its
 * count starts, and the last day of the period its text states, on its court's calendar. Pure:
 * the calendar is given. Where a fact that moves the count is unknown, the earliest reading is
 * the estimate and every later reading is an alternative that says what it rests on, so the
 * estimate is never later than the law's answer.
 */

export interface EstimateInput {
  /** DJEN's data_disponibilizacao, or the day DataJud says the act was made available. */
  availableOn: IsoDate;
  /** The calendar of the court (and seat) that made it available. */
  calendar: CourtCalendar;
  communication: CommunicationFacts;
  /** Where it was made available: DJEN (the default) or the court's DJe, as DataJud records it. */
  gazette?: Gazette;
}

export type Gazette = "DJEN" | "DJe";

interface Variant {
  procedure: Procedure;
  /** Criminal: the year-end suspension does not apply (CPP art. 798-A I-III). */
  unsuspended: boolean;
  /** Criminal, unsuspended: the recess's weekdays are holidays, not days of the duty court. */
  recessIsHoliday: boolean;
  /** Edital: the dilação counts business days (CPC art. 219) instead of every day. */
  dilationInBusinessDays: boolean;
  /** Edital: the business day after the dilação is itself the excluded start day (CPC art. 224). */
  diesAQuoExcluded: boolean;
  /** The period doubled for this public entity (CPC arts. 180, 183, 186). */
  doubledFor: PublicEntity | null;
}

interface Dates {
  publishedOn: IsoDate;
  countingStartsOn: IsoDate | null;
  period: PeriodEstimate | null;
  otherPeriods: PeriodEstimate[];
  skipped: SkippedDays[];
}

const ENTITY: Readonly<Record<PublicEntity, { name: string; doubling: string }>> = {
  fazenda: { name: "Fazenda Pública", doubling: "CPC, art. 183" },
  mp: { name: "Ministério Público", doubling: "CPC, art. 180" },
  defensoria: { name: "Defensoria Pública", doubling: "CPC, art. 186; LC 80/1994, art. 44, I" },
};

const COUNT_BASIS: Readonly<Record<Procedure, string>> = {
  civil: "CPC, arts. 219 e 224",
  labour: "CLT, art. 775",
  criminal: "CPP, art. 798",
  electoral: "Res. TSE 23.478/2016, art. 7º",
};

/**
 * Lei 11.419/2006 art. 4 §§3-4 is the rule of the Diário da Justiça eletrônico, whichever carries
 * it: DJEN for its items, the court's DJe for an act DataJud says was made available in a Diário.
 */
function publicationRule(gazette: Gazette): string {
  return `publicada no primeiro dia útil após a disponibilização no ${gazette} e com prazo a partir do dia útil seguinte (Lei 11.419/2006, art. 4º §§3º-4º`;
}

function ruleTitle(reading: CommunicationReading, gazette: Gazette): string {
  const juizado = reading.juizado ? "; Lei 9.099/1995, art. 12-A" : "";
  const PUBLICATION = publicationRule(gazette);
  switch (reading.kind) {
    case "intimacao":
      switch (reading.procedure) {
        case "civil":
          return `Intimação pelo ${gazette}: ${PUBLICATION}; CPC, art. 231, VII), em dias úteis (CPC, arts. 219, 220 e 224${juizado})`;
        case "labour":
          return `Intimação pelo ${gazette}: ${PUBLICATION}), em dias úteis (CLT, arts. 775 e 775-A)`;
        case "criminal":
          return `Intimação pelo ${gazette}, processo penal: ${PUBLICATION}; Súmula 310 do STF), em dias corridos (CPP, arts. 798 e 798-A)`;
        case "electoral":
          return `Intimação pelo ${gazette}, processo eleitoral: ${PUBLICATION}), em dias corridos (Res. TSE 23.478/2016, arts. 7º e 10)`;
      }
      break;
    case "edital":
      return "Edital: o prazo corre depois da dilação fixada pelo juiz, de 20 a 60 dias da publicação (CPC, arts. 231, IV, e 257, III)";
    case "pauta":
      return "Pauta de julgamento: vale a data da sessão; não abre prazo (CPC, arts. 934 e 935)";
    case "no-deadline":
      switch (reading.noPeriodBecause) {
        case "certidao":
          return "Certidão enviada como intimação: certifica um fato e não pede ato da parte; não abre prazo";
        case "citation-order":
          return "Despacho que só determina a citação: irrecorrível (CPC, art. 1.001) e sem ato pedido ao advogado intimado (CPC, art. 218 §3º); não abre prazo";
        case null:
          return "Lista de distribuição, certidão ou ata: não abre prazo";
      }
      break;
    case "personal":
      return `Intimação pessoal de ${publicNames(reading.publicParties)}: corre pelo Domicílio Judicial Eletrônico, não pelo DJEN (CPC, arts. 180, 183 §1º, 186 §1º e 231, V; Res. CNJ 455/2022, arts. 18 e 20, red. Res. CNJ 569/2024)`;
    case "citacao":
      return "Citação: o prazo conta da citação (CPC, art. 231), feita pelo Domicílio Judicial Eletrônico, correio ou oficial de justiça, não da publicação no DJEN (Res. CNJ 455/2022, art. 18, red. Res. CNJ 569/2024)";
  }
  return "";
}

function publicNames(entities: readonly PublicEntity[]): string {
  return entities.map((e) => ENTITY[e].name).join(", ") || "ente público";
}

/** CC art. 132 §3: a period of months ends on the same day number, or the next day if none. */
function addMonths(date: IsoDate, months: number): IsoDate {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const index = month - 1 + months;
  const y = year + Math.floor(index / 12);
  const m = (index % 12) + 1;
  if (day > daysInMonth(y, m)) return addDays(calendarDate(y, m, daysInMonth(y, m)) ?? date, 1);
  return calendarDate(y, m, day) ?? date;
}

function unitOf(period: StatedPeriod, regime: Regime): PeriodEstimate["unit"] {
  if (period.unit !== "days") return period.unit;
  const days = period.dayKind ?? regime.days;
  return days === "business" ? "business-days" : "calendar-days";
}

interface Computed {
  lastDay: IsoDate | null;
  skipped: SkippedDays[];
  note: string | null;
}

function computeEnd(
  calendar: CourtCalendar,
  regime: Regime,
  procedure: Procedure,
  from: { publishedOn: IsoDate; countingStartsOn: IsoDate },
  amount: number,
  unit: PeriodEstimate["unit"],
): Computed {
  const count = new Count(calendar, {
    ...regime,
    days: unit === "business-days" ? "business" : "calendar",
  });
  switch (unit) {
    case "business-days":
    case "calendar-days": {
      const end = count.lastDay(from.countingStartsOn, amount);
      const moved =
        end.movedFrom === null
          ? null
          : `Terminaria em ${formatBrazilian(end.movedFrom)}, dia sem expediente ou em que não pode terminar: passa a ${formatBrazilian(end.date)} (${procedure === "criminal" ? "CPP, art. 798 §3º" : "CPC, art. 224 §1º"}).`;
      return { lastDay: end.date, skipped: count.skippedDays(), note: moved };
    }
    case "hours":
      return {
        lastDay: addDays(from.countingStartsOn, Math.ceil(amount / 24) - 1),
        skipped: [],
        note: "Prazo em horas: corre minuto a minuto (Código Civil, art. 132 §4º) desde o início do dia em que o prazo começa; a data é a mais cedo possível.",
      };
    case "months":
    case "years": {
      const months = unit === "months" ? amount : amount * 12;
      const end = count.end(addMonths(from.publishedOn, months));
      return {
        lastDay: end.date,
        skipped: count.skippedDays(),
        note: "Prazo em meses ou anos: termina no dia de igual número (Código Civil, art. 132 §3º); a suspensão de 20/12 a 20/01 não foi somada.",
      };
    }
  }
}

function statedNote(period: StatedPeriod): string | null {
  const notes: string[] = [];
  if (period.successive) {
    notes.push(
      "prazo sucessivo: o da parte seguinte começa quando este termina; a data é a do primeiro",
    );
  }
  if (period.doubled)
    notes.push("o texto fala em prazo em dobro: confira se o número já é o dobro");
  if (period.dayKind === "calendar") notes.push("em dias corridos, como diz o texto");
  return notes.length === 0 ? null : `${notes.join("; ")}.`;
}

function fromText(
  input: EstimateInput,
  regime: Regime,
  variant: Variant,
  start: { publishedOn: IsoDate; countingStartsOn: IsoDate } | null,
  period: StatedPeriod,
): PeriodEstimate & { skipped: SkippedDays[] } {
  const doubles = variant.doubledFor !== null && period.unit === "days";
  const amount = doubles ? period.amount * 2 : period.amount;
  const unit = unitOf(period, regime);
  const computed =
    start === null
      ? { lastDay: null, skipped: [], note: null }
      : computeEnd(input.calendar, regime, variant.procedure, start, amount, unit);
  const basis = doubles
    ? `${COUNT_BASIS[variant.procedure]}; em dobro (${ENTITY[variant.doubledFor ?? "fazenda"].doubling})`
    : COUNT_BASIS[variant.procedure];
  return {
    amount,
    unit,
    from: "text",
    quote: period.quote,
    act: null,
    basis,
    lastDay: computed.lastDay,
    note: [statedNote(period), computed.note].filter((n) => n !== null).join(" ") || null,
    skipped: computed.skipped,
  };
}

function fromLaw(
  input: EstimateInput,
  regime: Regime,
  procedure: Procedure,
  start: { publishedOn: IsoDate; countingStartsOn: IsoDate },
  law: { act: string; days: number; basis: string },
): PeriodEstimate {
  const unit = regime.days === "business" ? "business-days" : "calendar-days";
  const computed = computeEnd(input.calendar, regime, procedure, start, law.days, unit);
  return {
    amount: law.days,
    unit,
    from: "legal-default",
    quote: null,
    act: law.act,
    basis: `${law.basis}; contado como ${COUNT_BASIS[procedure]}`,
    lastDay: computed.lastDay,
    note: computed.note,
  };
}

function earliestFirst(a: { lastDay: IsoDate | null }, b: { lastDay: IsoDate | null }): number {
  if (a.lastDay === b.lastDay) return 0;
  if (a.lastDay === null) return 1;
  if (b.lastDay === null) return -1;
  return a.lastDay < b.lastDay ? -1 : 1;
}

/** The day the edital's dilação ends and the first day of the count that follows it. */
function afterDilation(
  input: EstimateInput,
  count: Count,
  variant: Variant,
  publishedOn: IsoDate,
  days: number,
): IsoDate {
  const dilationEnd = variant.dilationInBusinessDays
    ? new Count(input.calendar, { ...count.regime, days: "business" }).lastDay(
        count.firstCountingDayAfter(publishedOn),
        days,
      ).date
    : addDays(publishedOn, days);
  const diesAQuo = variant.diesAQuoExcluded ? count.firstUsefulAfter(dilationEnd) : dilationEnd;
  return count.firstCountingDayAfter(diesAQuo);
}

function computeDates(
  input: EstimateInput,
  reading: CommunicationReading,
  variant: Variant,
): Dates {
  const regime = regimeOf(variant.procedure, {
    unsuspended: variant.unsuspended,
    recessIsHoliday: variant.recessIsHoliday,
  });
  const count = new Count(input.calendar, regime);
  const publishedOn = count.firstUsefulAfter(input.availableOn);
  const stated = statedPeriods(input.communication.text);
  const toAct = stated.filter((p) => !p.dilation);
  let countingStartsOn: IsoDate | null = null;
  if (reading.kind === "intimacao") countingStartsOn = count.firstCountingDayAfter(publishedOn);
  if (reading.kind === "edital") {
    const dilation = stated.find((p) => p.dilation && p.unit === "days");
    if (dilation !== undefined) {
      countingStartsOn = afterDilation(input, count, variant, publishedOn, dilation.amount);
    }
  }
  const start = countingStartsOn === null ? null : { publishedOn, countingStartsOn };
  const counted = ["intimacao", "edital", "personal", "citacao"].includes(reading.kind);
  const fromTextPeriods = counted
    ? toAct.map((p) => fromText(input, regime, variant, start, p))
    : [];
  const ordered = [...fromTextPeriods].sort(earliestFirst);
  const primary = start === null ? null : (ordered[0] ?? null);
  // The law's period is offered only where the text states none (CPC art. 218 §3 says as much).
  const laws =
    start === null || toAct.length > 0 || !["intimacao", "edital"].includes(reading.kind)
      ? []
      : lawDefaults(input, reading).map((law) =>
          fromLaw(input, regime, variant.procedure, start, law),
        );
  const strip = ({ skipped: _, ...period }: PeriodEstimate & { skipped: SkippedDays[] }) => period;
  return {
    publishedOn,
    countingStartsOn,
    period: primary === null ? null : strip(primary),
    otherPeriods: [...ordered.filter((p) => p !== primary).map(strip), ...laws],
    skipped: mergeSkipped(count.skippedDays(), primary?.skipped ?? []),
  };
}

function lawDefaults(input: EstimateInput, reading: CommunicationReading) {
  if (reading.kind === "edital") {
    const text = input.communication.text.toLowerCase();
    return reading.procedure === "civil" && /cita|contest/u.test(text)
      ? [{ act: "contestação", days: 15, basis: "CPC, art. 335" }]
      : [];
  }
  return legalDefaults(reading, input.communication.documentType, input.communication.text);
}

function mergeSkipped(...lists: SkippedDays[][]): SkippedDays[] {
  const out: SkippedDays[] = [];
  for (const day of lists.flat()) {
    const same = out.find(
      (d) => d.name === day.name && d.source === day.source && d.from <= day.to && day.from <= d.to,
    );
    if (same === undefined) out.push({ ...day });
    else {
      if (day.from < same.from) same.from = day.from;
      if (day.to > same.to) same.to = day.to;
    }
  }
  return out.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}

function later(a: IsoDate | null, b: IsoDate | null): boolean {
  return a !== null && b !== null && a > b;
}

/** Later readings worth telling: each differs from the estimate only by the fact it names. */
function alternativesOf(
  input: EstimateInput,
  reading: CommunicationReading,
  base: Variant,
  dates: Dates,
): { alternatives: EstimateAlternative[]; notes: string[] } {
  const alternatives: EstimateAlternative[] = [];
  const notes: string[] = [];
  const consider = (condition: string, change: Partial<Variant>): void => {
    const other = computeDates(input, reading, { ...base, ...change });
    const start = later(other.countingStartsOn, dates.countingStartsOn);
    const end = later(other.period?.lastDay ?? null, dates.period?.lastDay ?? null);
    if (start || end) {
      alternatives.push({
        condition,
        countingStartsOn: other.countingStartsOn,
        lastDay: other.period?.lastDay ?? null,
      });
    }
  };
  if (reading.classUnknown && base.procedure === "criminal") {
    notes.push(
      "A classe do processo não foi informada: contamos como no processo penal (dias corridos), a leitura que dá a data mais cedo.",
    );
    consider("se o processo for cível, os dias são úteis (CPC, art. 219)", {
      procedure: "civil",
      unsuspended: false,
    });
  }
  if (base.procedure === "criminal" && reading.custody === "unknown" && !reading.mariaDaPenha) {
    consider(
      "se não houver réu preso nem outra exceção do CPP, art. 798-A, os prazos ficam suspensos de 20/12 a 20/01",
      { unsuspended: false },
    );
  }
  if (base.procedure === "criminal" && base.unsuspended) {
    consider(
      "se os dias do recesso (20/12 a 06/01) contarem como feriados (CPC, art. 216; Lei 5.010/1966, art. 62, I), o prazo que terminaria neles passa ao primeiro dia útil seguinte (CPP, art. 798 §3º)",
      { recessIsHoliday: true },
    );
  }
  if (reading.kind === "edital") {
    consider("se a dilação do edital for contada em dias úteis (CPC, art. 219)", {
      dilationInBusinessDays: true,
    });
    consider(
      "se o dia útil seguinte ao fim da dilação for o dia do começo, excluído da contagem (CPC, arts. 224 e 231, IV)",
      { diesAQuoExcluded: true },
    );
  }
  const doubling = reading.publicParties.filter(
    (e) => base.procedure !== "criminal" || e === "defensoria",
  );
  if (reading.kind === "intimacao" && dates.period !== null && doubling.length > 0) {
    if (reading.juizado) {
      notes.push(
        "Em Juizado Especial não há prazo em dobro para entes públicos (Lei 10.259/2001, art. 9º; Lei 12.153/2009, art. 7º).",
      );
    } else if (base.procedure !== "electoral") {
      for (const entity of doubling) {
        consider(
          `se a parte intimada for a ${ENTITY[entity].name} (representada por advogado intimado pelo DJEN), o prazo é em dobro (${ENTITY[entity].doubling})`,
          { doubledFor: entity },
        );
      }
    }
  }
  return { alternatives, notes };
}

const NO_PERIOD_NOTE: Readonly<
  Record<NonNullable<CommunicationReading["noPeriodBecause"]> | "none", string>
> = {
  none: "Não abre prazo.",
  certidao:
    "Não abre prazo: o documento é uma certidão, que certifica um fato e não pede nada à parte, embora enviada como intimação. Se ela pedir uma providência, o prazo é o que ela fixar ou, sem prazo, 5 dias (CPC, art. 218 §3º).",
  "citation-order":
    "Não abre prazo: o despacho só manda citar, é irrecorrível (CPC, art. 1.001) e não pede ato ao advogado intimado (o prazo de 5 dias do CPC, art. 218 §3º, vale só quando o ato pede algo à parte). O prazo do réu corre da citação (CPC, art. 231), não desta publicação.",
};

function kindNotes(input: EstimateInput, reading: CommunicationReading, dates: Dates): string[] {
  const notes: string[] = [];
  switch (reading.kind) {
    case "intimacao":
      if (dates.period === null) {
        const legal = /prazo legal/u.test(input.communication.text.toLowerCase());
        notes.push(
          `O texto não informa prazo${legal ? " (fala em \u201cprazo legal\u201d)" : ""}: não estimamos o último dia.${dates.otherPeriods.length > 0 ? " Abaixo, o prazo que a lei dá ao ato, se for o caso." : ""}`,
        );
      }
      break;
    case "edital":
      if (dates.countingStartsOn === null) {
        notes.push(
          "O texto não informa a dilação do edital: o prazo corre depois dela (20 a 60 dias da publicação, CPC, art. 257, III), e não estimamos a data. Confira no edital ou nos autos.",
        );
      } else {
        notes.push(
          "Edital: a dilação conta da publicação (CPC, art. 257, III); contamos em dias corridos e o prazo a partir do primeiro dia útil seguinte ao fim dela, a leitura que dá a data mais cedo.",
        );
      }
      break;
    case "pauta":
      notes.push(
        "Pauta de julgamento: não abre prazo; a data que importa é a da sessão (e, se houver, o prazo do regimento para pedir sustentação oral ou se opor ao julgamento virtual).",
      );
      break;
    case "no-deadline":
      notes.push(NO_PERIOD_NOTE[reading.noPeriodBecause ?? "none"]);
      break;
    case "personal":
      notes.push(
        `Dirigida só a ${publicNames(reading.publicParties)}, sem advogado: a intimação pessoal corre pelo Domicílio Judicial Eletrônico (ou pelo sistema do tribunal), não pelo DJEN. O prazo começa no dia útil seguinte à consulta ou, sem ela, ao fim de 10 dias corridos do envio (CPC, art. 231, V; Lei 11.419/2006, art. 5º §3º; Res. CNJ 455/2022, art. 20 §3º-B), em dobro (${reading.publicParties.map((e) => ENTITY[e].doubling).join("; ")}). Confira a data de ciência no Domicílio.`,
      );
      break;
    case "citacao":
      notes.push(
        "Citação: o prazo não corre da publicação no DJEN. Pelo Domicílio Judicial Eletrônico, começa no quinto dia útil após a confirmação do recebimento (CPC, art. 231, IX); ente público que não consulta em 10 dias corridos é citado ao fim deles (Res. CNJ 455/2022, art. 20 §3º-A); pelo correio ou por oficial, da juntada do aviso ou do mandado (CPC, art. 231, I e II). Confira nos autos.",
      );
      break;
  }
  if (reading.procedure === "criminal" && reading.kind === "intimacao") {
    if (reading.custody === "yes" || reading.mariaDaPenha) {
      notes.push(
        `${reading.custody === "yes" ? "Réu preso" : "Lei Maria da Penha"}: os prazos correm de 20/12 a 20/01 (CPP, art. 798-A, ${reading.custody === "yes" ? "I" : "II"}).`,
      );
    } else if (reading.custody === "unknown") {
      notes.push(
        "Não sabemos se há réu preso (CPP, art. 798-A, I): contamos sem a suspensão de 20/12 a 20/01 e com o plantão do recesso, a leitura que dá a data mais cedo.",
      );
    }
    notes.push(
      "Processo penal: sem a regra do expediente reduzido (CPC, art. 224 §1º), que o CPP não tem; se o tribunal a aplicar, a data pode passar ao dia útil seguinte.",
    );
  }
  if (reading.procedure === "labour" && reading.kind === "intimacao") {
    notes.push(
      "Processo do trabalho: sem a regra do expediente reduzido (CPC, art. 224 §1º), que a CLT não tem; se o tribunal a aplicar, a data pode passar ao dia útil seguinte.",
    );
  }
  return notes;
}

function consideredOf(calendar: CourtCalendar, years: readonly number[]): string {
  const notes = [...new Set(years)].sort().map((year) => ({
    year,
    note: calendar.considered(year).note,
  }));
  if (notes.every((n) => n.note === notes[0]?.note)) return notes[0]?.note ?? "";
  return notes.map((n) => `${n.year}: ${n.note}`).join(" ");
}

/**
 * The deadline estimate of one communication (a DJEN item, or a DataJud movement that made an
 * act available in a Diário): the rule, the dates, the days skipped with their sources, what was
 * assumed and what would move it.
 */
export function estimateDeadline(input: EstimateInput): DeadlineEstimate {
  if (parseIsoDate(input.availableOn) === null) {
    throw new RangeError(`"${input.availableOn}" is not a calendar date (YYYY-MM-DD)`);
  }
  const reading = readCommunication(input.communication);
  const procedure: Procedure =
    reading.classUnknown && reading.procedure === "civil" ? "criminal" : reading.procedure;
  const base: Variant = {
    procedure,
    unsuspended:
      procedure === "criminal" && (reading.custody !== "no" || reading.mariaDaPenha === true),
    recessIsHoliday: false,
    dilationInBusinessDays: false,
    diesAQuoExcluded: false,
    doubledFor: null,
  };
  const dates = computeDates(input, reading, base);
  const { alternatives, notes } = alternativesOf(input, reading, base, dates);
  // A pauta announces a session of judgment; any other item may announce a hearing (an intimação
  // for an audiência): the lawyer's appointment, shown beside whatever period the item opens.
  const session: SessionEstimate | null =
    reading.kind === "pauta"
      ? sessionDate(input.communication.text, input.availableOn)
      : reading.kind === "no-deadline"
        ? null
        : hearingDate(input.communication.text, input.availableOn);
  if (reading.kind === "pauta" && session === null) {
    notes.push("O texto não traz a data da sessão: confira no tribunal.");
  }
  const rule: DeadlineRule = {
    code: reading.kind,
    procedure,
    title: ruleTitle({ ...reading, procedure }, input.gazette ?? "DJEN"),
  };
  const lastDay = dates.period?.lastDay ?? null;
  const years = [input.availableOn, dates.publishedOn, lastDay ?? dates.countingStartsOn]
    .filter((d): d is IsoDate => d !== null)
    .map(yearOf);
  return {
    rule,
    availableOn: input.availableOn,
    publishedOn: dates.publishedOn,
    countingStartsOn: dates.countingStartsOn,
    lastDay,
    period: dates.period,
    otherPeriods: dates.otherPeriods,
    session,
    skippedDays: dates.skipped,
    alternatives,
    notes: [...kindNotes(input, { ...reading, procedure }, dates), ...notes],
    considered: consideredOf(input.calendar, years),
    estimate: true,
  };
}

/**
 * The last day of a period whose count starts on `countingStartsOn` (a day the lawyer already
 * knows, from a citação's juntada or a personal intimação), on the same counting as an estimate:
 * the procedure's regime, the calendar's days and sources, the end moved past a day without court.
 * A start on a day no count can begin on moves to the next that can (CPC art. 224 §§1 and 3).
 */
export function countFromStart(input: {
  calendar: CourtCalendar;
  procedure: Procedure;
  countingStartsOn: IsoDate;
  amount: number;
  unit: "business-days" | "calendar-days" | "hours";
  /** Criminal: counted without the year-end suspension (CPP art. 798-A), the earliest reading. */
  unsuspended?: boolean;
}): { countingStartsOn: IsoDate; lastDay: IsoDate; skipped: SkippedDays[]; note: string | null } {
  const regime = regimeOf(input.procedure, { unsuspended: input.unsuspended === true });
  const count = new Count(input.calendar, regime);
  const start = count.firstCountingDayAfter(addDays(input.countingStartsOn, -1));
  const computed = computeEnd(
    input.calendar,
    regime,
    input.procedure,
    { publishedOn: start, countingStartsOn: start },
    input.amount,
    input.unit,
  );
  return {
    countingStartsOn: start,
    lastDay: computed.lastDay ?? start,
    skipped: mergeSkipped(count.skippedDays(), computed.skipped),
    note: computed.note,
  };
}
