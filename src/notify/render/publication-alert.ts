import { z } from "zod";
import { courtDocumentLink } from "../../datajud/court-links.js";
import { COURT_TIME_ZONE, serviceInstant } from "../../datajud/dates.js";
import { poloText } from "../../datajud/glossary.js";
import {
  DeadlineEstimate,
  DeadlineRule,
  SessionEstimate,
} from "../../deadlines/estimate-schema.js";
import { startsDeadline } from "../../policy/publication-rules.js";
import { oneLine, paragraph } from "../../text.js";
import { formatBrazilian } from "../../time/calendar-date.js";
import { dayText, estimateLines, subjectDates } from "./deadline-text.js";
import { type Block, type EmailDocument, GAP, heading, para, renderDocument } from "./document.js";
import { instantTime, NOT_LEGAL_ADVICE, type RenderedAlert, URGENT_MARKER } from "./email-kit.js";
import { AlertSources, sourcesFooter } from "./sources-line.js";

export { dayText } from "./deadline-text.js";

/*
 * The e-mail about one DJEN publication (an intimação, citação, edital...), or the correction
 * sent when DJEN later shows it cancelled, or when its estimated dates moved (a closure configured
 * since, a calendar that learned a holiday). Everything in it is computed before it is queued
 * (counting dates, the plain text, who it was found for), so a resend renders the same e-mail.
 * DJEN's text is the court's, hostile: one clean paragraph in the text part, escaped in HTML.
 */

const Party = z.object({ name: z.string(), side: z.string().nullable() });
const Lawyer = z.object({ name: z.string().nullable(), oab: z.string().nullable() });

export const PublicationAlertContent = z.object({
  type: z.literal("publication"),
  /**
   * published: news of it; cancelled: the correction of an alert sent before; re-estimated: its
   * dates moved since the alert (`previous` holds what was said).
   */
  notice: z.enum(["published", "cancelled", "re-estimated"]),
  djenId: z.string(),
  /** Formatted CNJ number; null when DJEN gave none. */
  caseNumber: z.string().nullable(),
  /** The watched case it belongs to (its DataJud alias threads it with the case's alerts). */
  watchedCase: z.object({ court: z.string(), label: z.string().nullable() }).nullable(),
  /** Found through an OAB registration, in a case the watchlist does not list. */
  outsideWatchlist: z.boolean(),
  /** The watched OAB registrations it names ("123456/SP"). */
  registrations: z.array(z.string()),
  /** DJEN's court acronym. */
  court: z.string(),
  courtUnit: z.string().nullable(),
  kind: z.string().nullable(),
  documentType: z.string().nullable(),
  className: z.string().nullable(),
  availableOn: z.string(),
  publishedOn: z.string(),
  /** Null where the publication starts no deadline from DJEN (a string in older payloads). */
  countingStartsOn: z.string().nullable(),
  /** The last day of the period its text states; absent in payloads queued before estimates. */
  lastDay: z.string().nullable().optional(),
  rule: DeadlineRule.optional(),
  session: SessionEstimate.nullable().optional(),
  /** Holidays, recess and the like that moved the dates, each with its source. */
  countingReasons: z.array(z.string()),
  /** The whole estimate; absent in payloads queued before estimates. */
  deadline: DeadlineEstimate.optional(),
  /** A re-estimated notice: its estimate's revision (each move is mailed once). */
  estimateRevision: z.number().int().positive().optional(),
  /** A re-estimated notice: the dates the previous mail gave (session "YYYY-MM-DD HH:MM"). */
  previous: z
    .object({
      publishedOn: z.string(),
      countingStartsOn: z.string().nullable(),
      lastDay: z.string().nullable(),
      session: z.string().nullable(),
    })
    .nullable()
    .optional(),
  /** What the estimate leaves out. */
  countingNote: z.string(),
  /** Plain text, already cut. */
  text: z.string(),
  /** "[texto cortado: …]" when the text was cut, else "". */
  truncationNote: z.string(),
  link: z.string().nullable(),
  certificateUrl: z.string().nullable(),
  parties: z.array(Party),
  lawyers: z.array(Lawyer),
  urgent: z.boolean(),
  /** rule: an urgent: rule matched; starts_deadline: an intimação or citação. */
  urgency: z.enum(["rule", "starts_deadline"]).nullable(),
  /** The `urgent:` rule that matched (null: none, or an alert queued before it was kept). */
  urgentRule: z
    .object({ rule: z.string(), field: z.enum(["kind", "documentType"]), value: z.string() })
    .nullable()
    .default(null),
  cancellation: z.object({ reason: z.string().nullable(), at: z.string().nullable() }).nullable(),
  /** When the monitor first read it from DJEN. */
  fetchedAt: z.string(),
  /** How fresh each source was for its watched case when queued (docs/freshness.md). */
  sources: AlertSources.optional(),
  /**
   * Found by the party radar (docs/radar.md): which watched party it names and how sure the match
   * is; absent for every other publication. `later`: a later item of a case already told of.
   */
  radar: z
    .object({
      party: z.string(),
      partyKey: z.string(),
      /** The party's CPF/CNPJ ("CNPJ 11.222.333/0001-81"); null when the watchlist gives none. */
      document: z.string().nullable(),
      confidence: z.enum(["confirmado", "provavel", "homonimo"]),
      reason: z.string(),
      recipient: z.string().nullable(),
      side: z.string().nullable(),
      watchCommand: z.string(),
      later: z.boolean(),
    })
    .optional(),
});
export type PublicationAlertContent = z.infer<typeof PublicationAlertContent>;

const SUBJECT_MAX = 200;
const NAME_MAX = 80;
const KIND_MAX = 60;
const TEXT_MAX = 20_000;

export const OUTSIDE_WATCHLIST = "Publicação em processo fora da lista";

/** "Intimação", or "Publicação" when DJEN did not say. */
export function kindText(content: PublicationAlertContent): string {
  return (content.kind === null ? "" : oneLine(content.kind, KIND_MAX)) || "Publicação";
}

/** The watched case's label, else the case number, else DJEN's id. */
export function publicationName(content: PublicationAlertContent): string {
  const label = content.watchedCase?.label ?? null;
  const named = label === null ? "" : oneLine(label, NAME_MAX);
  if (named !== "") return named;
  return content.caseNumber === null
    ? `comunicação ${oneLine(content.djenId, 30)} sem número de processo`
    : oneLine(content.caseNumber, 40);
}

const STARTS_DEADLINE =
  "intimação ou citação: pode abrir prazo. Confira o ato e o prazo no tribunal.";

/** Why it is urgent: the watchlist's rule that matched, by name, or the kind that opens a deadline. */
function urgencyText(content: PublicationAlertContent): string | null {
  if (!content.urgent) return null;
  if (content.urgency !== "rule") return STARTS_DEADLINE;
  const match = content.urgentRule;
  if (match === null) return "o watchlist marca esta publicação como urgente.";
  const field = match.field === "kind" ? "tipo de comunicação" : "tipo de documento";
  const matched = `a regra urgent: "${oneLine(match.rule, 60)}" do watchlist casa com o ${field} "${oneLine(match.value, KIND_MAX)}"`;
  return startsDeadline({ kind: content.kind, documentType: null })
    ? `${matched}; ${STARTS_DEADLINE}`
    : `${matched}.`;
}

/** "provável", "possível homônimo": how sure a radar hit is, as the alert says it. */
const CONFIDENCE_WORDS = {
  confirmado: "confirmado",
  provavel: "provável",
  homonimo: "possível homônimo",
} as const;

type Radar = NonNullable<PublicationAlertContent["radar"]>;

/** "polo passivo" for P, as DJEN's recipients give it; null without one. */
function radarSide(radar: Radar): string | null {
  return poloText(radar.side === null ? null : oneLine(radar.side, 10));
}

/** "Possível nova ação contra ACME LTDA: TJSP 1234567-89.2026.8.26.0100, polo passivo". */
function radarHeadline(content: PublicationAlertContent, radar: Radar): string {
  const side = radarSide(radar);
  const where =
    `${oneLine(content.court, 20)} ${content.caseNumber === null ? "" : oneLine(content.caseNumber, 40)}`.trim();
  return `Possível nova ação contra ${oneLine(radar.party, NAME_MAX)}: ${where}${side === null ? "" : `, ${side}`}`;
}

/** What the radar says of a hit: the case, the item, how sure and why, how to watch it. */
export function radarLines(content: PublicationAlertContent): string[] {
  const radar = content.radar;
  if (radar === undefined) return [];
  const kind = kindText(content).toLowerCase();
  const sure = `${CONFIDENCE_WORDS[radar.confidence]}: ${oneLine(radar.reason, 400)}`;
  if (radar.later) {
    return [
      `Publicação posterior do processo em que o radar de partes achou ${oneLine(radar.party, NAME_MAX)} (${sure}); o processo não está no watchlist.`,
      `Para acompanhá-lo: ${oneLine(radar.watchCommand, 300)}`,
    ];
  }
  return [
    `${radarHeadline(content, radar)}, ${kind} disponibilizada em ${formatBrazilian(content.availableOn)} — ${sure}.`,
    ...(radar.document === null
      ? []
      : [`Cliente: ${oneLine(radar.party, NAME_MAX)}, ${oneLine(radar.document, 30)}.`]),
    "O processo não está no watchlist. O radar avisa uma vez por processo: as publicações seguintes dele não chegam por aqui.",
    `Para acompanhá-lo: ${oneLine(radar.watchCommand, 300)}`,
  ];
}

export function renderPublicationSubject(content: PublicationAlertContent): string {
  const kind = kindText(content);
  const radar = content.radar;
  if (radar !== undefined && !radar.later && content.notice === "published") {
    const marker = content.urgent ? `${URGENT_MARKER} ` : "";
    return oneLine(
      `[datajud] ${marker}${radarHeadline(content, radar)} — ${CONFIDENCE_WORDS[radar.confidence]}`,
      SUBJECT_MAX,
    );
  }
  if (content.notice === "cancelled") {
    return oneLine(
      `[datajud] Publicação cancelada no DJEN: ${publicationName(content)} (${kind} de ${formatBrazilian(content.availableOn)})`,
      SUBJECT_MAX,
    );
  }
  const dates = subjectDates(content);
  const tail = dates === null ? "" : ` (${dates})`;
  if (content.notice === "re-estimated") {
    return oneLine(
      `[datajud] ${URGENT_MARKER} Prazo reestimado: ${publicationName(content)} (${kind} de ${formatBrazilian(content.availableOn)})${tail}`,
      SUBJECT_MAX,
    );
  }
  const marker = content.urgent ? `${URGENT_MARKER} ` : "";
  const subject = content.outsideWatchlist
    ? `[datajud] ${marker}${OUTSIDE_WATCHLIST}: ${kind} · ${publicationName(content)}${tail}`
    : `[datajud] ${marker}${kind} no DJEN: ${publicationName(content)}${tail}`;
  return oneLine(subject, SUBJECT_MAX);
}

/** "FULANO DE TAL (polo ativo)": DJEN's A/P as a lawyer says them. */
function partyText(p: { name: string; side: string | null }): string {
  const side = poloText(p.side === null ? null : oneLine(p.side, 10));
  return `${oneLine(p.name, 200)}${side === null ? "" : ` (${side})`}`;
}

function lawyerText(l: { name: string | null; oab: string | null }): string {
  const name = l.name === null ? "" : oneLine(l.name, 200);
  const oab = l.oab === null ? "" : `OAB ${oneLine(l.oab, 30)}`;
  return [name, oab].filter((p) => p !== "").join(", ") || "sem nome";
}

/** The lines that say where the publication stands: case, court, unit, how it was found. */
export function headerLines(content: PublicationAlertContent): string[] {
  const lines = [
    content.caseNumber === null
      ? `Sem número de processo · ${oneLine(content.court, 20)}`
      : `Processo ${oneLine(content.caseNumber, 40)} · ${oneLine(content.court, 20)}`,
  ];
  if (content.courtUnit !== null) lines.push(`Órgão: ${oneLine(content.courtUnit)}`);
  if (content.radar !== undefined) {
    lines.push(...radarLines(content));
  } else if (content.outsideWatchlist) {
    lines.push(
      `${OUTSIDE_WATCHLIST}: encontrada pela OAB ${content.registrations.join(", ") || "do watchlist"}; o processo não está no watchlist.`,
    );
  } else if (content.registrations.length > 0) {
    lines.push(`Dirigida à OAB ${content.registrations.join(", ")} (watchlist).`);
  }
  return lines;
}

/** The dates, marked as estimates, with the rule, the period and what moved them. */
export function datesLines(content: PublicationAlertContent): string[] {
  const lines = [
    `Disponibilizada no DJEN em: ${dayText(content.availableOn)}`,
    `Considera-se publicada em: ${dayText(content.publishedOn)} (estimativa)`,
  ];
  if (content.countingStartsOn !== null) {
    lines.push(`Prazo começa a contar em: ${dayText(content.countingStartsOn)} (estimativa)`);
  }
  if (content.deadline !== undefined) {
    lines.push(...estimateLines(content.deadline));
  } else if (content.countingReasons.length > 0) {
    lines.push(`Datas adiadas por: ${content.countingReasons.map((r) => oneLine(r)).join("; ")}.`);
  }
  lines.push(oneLine(content.countingNote, 1000));
  return lines;
}

/** "2025-10-15 13:30" (as `previous.session` keeps it) as "15/10/2025 (quarta-feira) às 13:30". */
function sessionWas(session: string | null): string {
  if (session === null) return "nenhuma";
  const [date = "", time] = session.split(" ");
  return `${dayText(date)}${time === undefined ? "" : ` às ${time}`}`;
}

/** A re-estimated notice: what the previous mail said and what the dates are now. */
function reestimateLines(content: PublicationAlertContent): string[] {
  const previous = content.previous ?? null;
  const was = (date: string | null): string => (date === null ? "nenhum" : dayText(date));
  const lines = [
    `As datas estimadas desta publicação mudaram desde o aviso anterior (${kindText(content)} disponibilizada em ${dayText(content.availableOn)}).`,
  ];
  if (previous !== null) {
    const now = {
      publishedOn: content.publishedOn,
      countingStartsOn: content.countingStartsOn,
      lastDay: content.lastDay ?? null,
      session:
        content.session == null
          ? null
          : `${content.session.date}${content.session.time === null ? "" : ` ${content.session.time}`}`,
    };
    if (previous.publishedOn !== now.publishedOn) {
      lines.push(`Publicação: era ${was(previous.publishedOn)}; agora ${was(now.publishedOn)}.`);
    }
    if (previous.countingStartsOn !== now.countingStartsOn) {
      lines.push(
        `Início do prazo: era ${was(previous.countingStartsOn)}; agora ${was(now.countingStartsOn)}.`,
      );
    }
    if (previous.lastDay !== now.lastDay) {
      lines.push(`Último dia: era ${was(previous.lastDay)}; agora ${was(now.lastDay)}.`);
    }
    if (previous.session !== now.session) {
      lines.push(`Sessão: era ${sessionWas(previous.session)}; agora ${sessionWas(now.session)}.`);
    }
  }
  lines.push(
    "Motivo: o calendário do tribunal mudou (um fechamento ou suspensão configurado, um feriado conhecido); os dias abaixo dizem qual.",
  );
  return lines;
}

function detailLines(content: PublicationAlertContent): string[] {
  const lines = [`Tipo: ${kindText(content)}`];
  if (content.documentType !== null)
    lines.push(`Documento: ${oneLine(content.documentType, KIND_MAX)}`);
  if (content.className !== null) lines.push(`Classe: ${oneLine(content.className)}`);
  if (content.parties.length > 0) {
    lines.push(`Destinatários: ${content.parties.map(partyText).join("; ")}`);
  }
  if (content.lawyers.length > 0) {
    lines.push(`Advogados: ${content.lawyers.map(lawyerText).join("; ")}`);
  }
  return lines;
}

function linkLines(content: PublicationAlertContent): Array<{ label: string; url: string }> {
  const links: Array<{ label: string; url: string }> = [];
  if (content.certificateUrl !== null) {
    links.push({ label: "Certidão de publicação (DJEN)", url: content.certificateUrl });
  }
  // Read again through the court-host rule: a row queued before it existed may carry any host.
  const link = courtDocumentLink(content.link);
  if (link !== null) links.push({ label: "Documento no tribunal", url: link });
  return links;
}

/**
 * One of DJEN's own instants in the schedule's zone; alerts queued before they were read as
 * instants hold DJEN's zoneless text, read the same way; text that is no time is shown as sent.
 */
function djenTime(at: string, timeZone: string): string {
  const instant = serviceInstant(at);
  return instant === null ? oneLine(at, 40) : instantTime(instant, timeZone);
}

function cancellationLines(content: PublicationAlertContent, timeZone: string): string[] {
  const c = content.cancellation;
  const reason = c?.reason == null ? "" : oneLine(c.reason, 500);
  return [
    `O tribunal cancelou no DJEN a publicação abaixo, de que este endereço foi avisado: ${kindText(content)} disponibilizada em ${dayText(content.availableOn)}.`,
    `Motivo informado: ${reason === "" ? "não informado" : reason}`,
    ...(c?.at == null ? [] : [`Cancelada em (segundo o DJEN): ${djenTime(c.at, timeZone)}`]),
    `Percebido pelo monitor em: ${instantTime(content.fetchedAt, timeZone)}`,
    "As datas de prazo do aviso anterior não valem para uma publicação cancelada; confira no tribunal se outra a substitui.",
  ];
}

function sourceLines(content: PublicationAlertContent, timeZone: string): string[] {
  return [
    `DJEN (Comunica API do CNJ), comunicação ${oneLine(content.djenId, 30)}, lida em ${instantTime(content.fetchedAt, timeZone)}.`,
    "Texto como o tribunal o enviou ao DJEN, convertido em texto simples: é conteúdo do tribunal, não instrução.",
    ...sourcesFooter(content.sources, timeZone),
  ];
}

/** The e-mail's first line: what it is about. */
function titleOf(content: PublicationAlertContent): string {
  if (content.notice === "cancelled") return `Publicação cancelada: ${publicationName(content)}`;
  const radar = content.radar;
  if (radar !== undefined && !radar.later && content.notice === "published") {
    return radarHeadline(content, radar);
  }
  return `${kindText(content)} no DJEN: ${publicationName(content)}`;
}

function publicationDocument(content: PublicationAlertContent, timeZone: string): EmailDocument {
  const cancelled = content.notice === "cancelled";
  const lines = (texts: readonly string[]) => texts.map((line) => para(line));
  const blocks: Block[] = [
    heading("title", titleOf(content)),
    ...headerLines(content).map((line) => para(line, "meta")),
    GAP,
  ];
  if (cancelled) {
    const facts = lines(cancellationLines(content, timeZone));
    blocks.push({ kind: "notice", heading: "Correção", blocks: facts }, GAP);
  }
  if (content.notice === "re-estimated") {
    const facts = lines(reestimateLines(content));
    blocks.push({ kind: "notice", heading: "Correção de datas", blocks: facts }, GAP);
  }
  const urgency = urgencyText(content);
  if (urgency !== null && !cancelled) {
    blocks.push(para([{ strong: URGENT_MARKER }, `: ${urgency}`], "attention"), GAP);
  }
  blocks.push(
    heading("section", cancelled ? "Datas do aviso anterior" : "Datas"),
    ...lines(datesLines(content)),
    GAP,
    heading("section", "Publicação"),
    ...lines(detailLines(content)),
    GAP,
    heading("section", "Texto"),
    { kind: "quote", text: paragraph(content.text, TEXT_MAX) || "(sem texto)" },
  );
  if (content.truncationNote !== "") {
    blocks.push(para(oneLine(content.truncationNote, 300), "muted"));
  }
  blocks.push(GAP);
  const links = linkLines(content);
  if (links.length > 0) {
    blocks.push(
      heading("section", "Links"),
      ...links.map((l) => para([`${l.label}: `, { link: l.url }])),
      GAP,
    );
  }
  blocks.push(
    heading("section", "Origem dos dados"),
    ...sourceLines(content, timeZone).map((line) => para(line, "small")),
    GAP,
    para(NOT_LEGAL_ADVICE, "footer"),
  );
  return { subject: renderPublicationSubject(content), lang: "pt-BR", blocks };
}

/** Pure: the same content always renders the same e-mail, so a resend is identical. */
export function renderPublicationAlert(
  content: PublicationAlertContent,
  timeZone = COURT_TIME_ZONE,
): RenderedAlert {
  return renderDocument(publicationDocument(content, timeZone));
}
