import type {
  DeadlineEstimate,
  PeriodEstimate,
  SessionEstimate,
  SkippedDays,
} from "../../deadlines/estimate-schema.js";
import { skippedText } from "../../deadlines/publication-estimate.js";
import { oneLine } from "../../text.js";
import { formatBrazilian, parseIsoDate, weekday } from "../../time/calendar-date.js";

/*
 * A deadline estimate in the lawyer's words, for every place that shows one (the alert, digests,
 * status reports, history): the dates, the rule and its articles, the period read from the text or
 * the law's default, what was assumed, and every day skipped with its source. Pure.
 */

const WEEKDAYS = [
  "domingo",
  "segunda-feira",
  "terça-feira",
  "quarta-feira",
  "quinta-feira",
  "sexta-feira",
  "sábado",
];

/** "29/09/2025 (segunda-feira)"; anything not a date as one clean line. */
export function dayText(date: string): string {
  if (parseIsoDate(date) === null) return oneLine(date, 40);
  return `${formatBrazilian(date)} (${WEEKDAYS[weekday(date)]})`;
}

/** The dates of a publication as older payloads carry them, and the estimate when there is one. */
export interface DatedPublication {
  availableOn: string;
  publishedOn: string;
  countingStartsOn: string | null;
  lastDay?: string | null | undefined;
  session?: SessionEstimate | null | undefined;
  deadline?: DeadlineEstimate | undefined;
}

const UNIT: Readonly<Record<PeriodEstimate["unit"], [string, string]>> = {
  "business-days": ["dia útil", "dias úteis"],
  "calendar-days": ["dia corrido", "dias corridos"],
  hours: ["hora", "horas"],
  months: ["mês", "meses"],
  years: ["ano", "anos"],
};

export function periodText(period: PeriodEstimate): string {
  const [one, many] = UNIT[period.unit];
  return `${period.amount} ${period.amount === 1 ? one : many}`;
}

/** "sessão", "sessão virtual", "audiência", "audiência virtual": what the date is of. */
export function sessionNoun(session: Pick<SessionEstimate, "hearing" | "virtual">): string {
  const noun = session.hearing === true ? "audiência" : "sessão";
  return session.virtual ? `${noun} virtual` : noun;
}

export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function sessionText(session: SessionEstimate): string {
  const time = session.time === null ? "" : ` às ${session.time}`;
  const end = session.endDate === null ? "" : ` a ${dayText(session.endDate)}`;
  return `${sessionNoun(session)} em ${dayText(session.date)}${time}${end}`;
}

/** What the subject says of the dates, in parentheses: the most pressing date, or nothing. */
export function subjectDates(p: DatedPublication): string | null {
  const code = p.deadline?.rule.code;
  const session =
    p.session == null
      ? null
      : `${sessionNoun(p.session)} em ${formatBrazilian(p.session.date)}${p.session.time === null ? "" : ` ${p.session.time}`}`;
  // A pauta's session is its news; a hearing yields to a period's last day (the earlier risk).
  if (session !== null && p.session?.hearing !== true) return session;
  if (p.lastDay != null) return `prazo até ${formatBrazilian(p.lastDay)}, estimativa`;
  if (session !== null) return session;
  if (p.countingStartsOn !== null) {
    return `prazo a partir de ${formatBrazilian(p.countingStartsOn)}, estimativa`;
  }
  if (code === "personal") return "prazo pelo Domicílio Judicial Eletrônico";
  if (code === "citacao") return "citação: prazo conforme CPC art. 231";
  return null;
}

/** One line for lists (digest, status report, history): the dates, marked as estimates. */
export function datesLine(p: DatedPublication): string {
  const parts = [
    `Disponibilizada em ${dayText(p.availableOn)}`,
    `publicada em ${formatBrazilian(p.publishedOn)}`,
  ];
  if (p.countingStartsOn !== null) {
    parts.push(`prazo a partir de ${formatBrazilian(p.countingStartsOn)}`);
  }
  if (p.lastDay != null) parts.push(`último dia ${formatBrazilian(p.lastDay)}`);
  if (p.session != null) parts.push(sessionText(p.session));
  const code = p.deadline?.rule.code;
  if (code === "no-deadline") parts.push("não abre prazo");
  if (code === "personal") parts.push("prazo pelo Domicílio Judicial Eletrônico, não pelo DJEN");
  if (code === "citacao") parts.push("citação: o prazo não corre do DJEN");
  if (code === "edital" && p.countingStartsOn === null)
    parts.push("prazo após a dilação do edital");
  return `${parts.join("; ")} (estimativas)`;
}

function periodLine(period: PeriodEstimate): string {
  const what =
    period.from === "text"
      ? `${periodText(period)} (texto: \u201c${oneLine(period.quote ?? "", 160)}\u201d; ${period.basis})`
      : `${oneLine(period.act ?? "", 120)}: ${periodText(period)} (prazo da lei, ${period.basis})`;
  const until = period.lastDay === null ? "" : `, até ${dayText(period.lastDay)}`;
  const note = period.note === null ? "" : ` ${oneLine(period.note, 400)}`;
  return `${what}${until}${note}`;
}

/** What a view leaves out of an estimate's lines because it says it elsewhere, once. */
export interface EstimateLineOptions {
  /** The court calendar's line and the days skipped (false: `calendarParagraph` says them). */
  calendar?: boolean;
  /** The law's default periods ("Prazo da lei, se for o caso"): false where the act asks nothing. */
  lawDefaults?: boolean;
}

/** Where the periods of the act a gazette movement published are said. */
export interface GazetteLineOptions extends EstimateLineOptions {
  /** The act opens periods of its own, dated (or "a confirmar") at the alert's top. */
  actPeriodsAbove?: boolean;
}

const NO_TEXT =
  "O DataJud não traz o texto do ato: sem o prazo que ele fixa, não estimamos o último dia.";
const ACT_PERIODS_ABOVE =
  "Os prazos que o ato publicado abre, com seus últimos dias, estão no início do alerta, em “O que fazer e até quando”.";

/** Every line an alert shows of an estimate, after the three dates. */
export function estimateLines(
  estimate: DeadlineEstimate,
  options: EstimateLineOptions = {},
): string[] {
  const calendar = options.calendar !== false;
  const lines: string[] = [];
  if (estimate.lastDay !== null && estimate.period !== null) {
    lines.push(`Último dia do prazo: ${dayText(estimate.lastDay)} (estimativa)`);
    lines.push(`Prazo: ${periodLine(estimate.period)}`);
  }
  if (estimate.session !== null) {
    const said = sessionText(estimate.session);
    lines.push(
      estimate.session.hearing === true
        ? `${capitalized(said)} (conforme o texto)`
        : `Sessão de julgamento: ${said} (conforme o texto)`,
    );
  }
  lines.push(`Regra: ${oneLine(estimate.rule.title, 600)}`);
  const fromText = estimate.otherPeriods.filter((p) => p.from === "text");
  for (const period of fromText) lines.push(`Outro prazo no texto: ${periodLine(period)}`);
  const laws =
    options.lawDefaults === false
      ? []
      : estimate.otherPeriods.filter((p) => p.from === "legal-default");
  for (const period of laws) lines.push(`Prazo da lei, se for o caso: ${periodLine(period)}`);
  for (const alternative of estimate.alternatives) {
    const date = alternative.lastDay ?? alternative.countingStartsOn;
    if (date === null) continue;
    const what = alternative.lastDay === null ? "o prazo começa em" : "o último dia passa a";
    lines.push(`${oneLine(alternative.condition, 400)}: ${what} ${dayText(date)}.`);
  }
  if (calendar && estimate.skippedDays.length > 0) {
    lines.push(
      `Dias que não contaram ou adiaram as datas: ${estimate.skippedDays.map((d) => oneLine(skippedText(d), 300)).join("; ")}.`,
    );
  }
  for (const note of estimate.notes) lines.push(oneLine(note, 800));
  // Whole, however long: a list of what the calendar does not know, cut short, reads as complete.
  if (calendar) {
    lines.push(`Calendário do tribunal: ${oneLine(estimate.considered, Number.MAX_SAFE_INTEGER)}`);
  }
  return lines;
}

/** The dates of a view that rest on a court calendar: the days they skipped, what it considered. */
export interface CalendarUse {
  skippedDays: readonly SkippedDays[];
  considered: string | null;
}

const NOT_CONSIDERED = " Não considera: ";

/**
 * The court calendar said once for every date of a message: the days that did not count or moved
 * one (each with its source), and what the calendar does not know (a court's own acts of the
 * year, closures not configured). Null when no date of the message rests on a calendar.
 */
export function calendarParagraph(uses: readonly CalendarUse[]): string | null {
  if (uses.length === 0) return null;
  const days = new Map<string, SkippedDays>();
  for (const use of uses)
    for (const d of use.skippedDays) days.set(`${d.from}|${d.to}|${d.name}`, d);
  const skipped = [...days.values()].sort((a, b) => a.from.localeCompare(b.from));
  const moved =
    skipped.length === 0
      ? "nenhum feriado, recesso ou suspensão que ele conhece moveu estas datas."
      : `não contaram ou adiaram as datas: ${skipped.map((d) => oneLine(skippedText(d), 300)).join("; ")}.`;
  const unknown = new Set<string>();
  for (const use of uses) {
    if (use.considered === null) continue;
    const text = oneLine(use.considered, Number.MAX_SAFE_INTEGER);
    const at = text.indexOf(NOT_CONSIDERED);
    if (at >= 0) unknown.add(text.slice(at + 1));
  }
  const rest = unknown.size === 0 ? "" : ` ${[...unknown].join(" ")}`;
  return `Calendário do tribunal: ${moved}${rest} Datas estimadas: confira no tribunal.`;
}

/**
 * A gazette movement's estimate (DataJud's Disponibilização no DJe or Publicação), as the lines
 * under the movement: its dates first, then what any estimate shows. DataJud carries no text, so
 * no period is read from it.
 */
export function gazetteMovementLines(
  estimate: DeadlineEstimate,
  options: GazetteLineOptions = {},
): string[] {
  const dates = [`considera-se publicada em ${dayText(estimate.publishedOn)}`];
  if (estimate.countingStartsOn !== null) {
    dates.push(`prazo a partir de ${dayText(estimate.countingStartsOn)}`);
  }
  const lines = estimateLines(estimate, options).map((line) =>
    line.startsWith("O texto não informa prazo")
      ? // "No last day" would contradict the dates the act's own periods got at the top.
        options.actPeriodsAbove === true
        ? ACT_PERIODS_ABOVE
        : NO_TEXT
      : line,
  );
  return [`Datas de prazo (estimativas): ${dates.join("; ")}.`, ...lines];
}
