import { oneLine } from "../../text.js";
import { formatBrazilian, parseIsoDate } from "../../time/calendar-date.js";
import { SAO_PAULO_ZONE } from "../../time/zoned-time.js";
import { ACK_BUTTON } from "./acknowledgement.js";
import { changeKindNames } from "./alert.js";
import { inertChatText } from "./chat-text.js";
import { courtTime, instantTime, URGENT_MARKER } from "./email-kit.js";
import { withoutListedPeriods } from "./opened-periods.js";
import type { EventMovement, WebhookEvent } from "./webhook-event.js";

/*
 * The short message a chat channel (Slack, Teams, Telegram) shows for one event, before any
 * platform's markup: what moved, the case, the deadline, a link. Plain text only, made inert here
 * (`chat-text.ts`: nothing in it a platform would open as a link or a mention); each platform's
 * renderer escapes it for its own format. Long court text is cut here, and the link goes to the
 * rest (the court's page, DJEN's certificate or the document). Lawyer-facing: Portuguese.
 */

export interface ChatLink {
  label: string;
  url: string;
}

/** A line of text, or (in a digest) a line of text followed by its own link. */
export type ChatLine = string | { text: string; link: ChatLink };

export interface ChatMessage {
  urgent: boolean;
  /** One line. */
  title: string;
  /** Short lines, each plain text. */
  lines: ChatLine[];
  /** The one link of the message; ours (a court page or DJEN's), never one from court text. */
  link: ChatLink | null;
  /** An urgent alert's acknowledgement link (ours), shown as a button where the chat has one. */
  ack?: ChatLink | null;
}

const LINE_MAX = 200;
/** Under an urgent alert of a digest: the line its acknowledgement link follows. */
const ACK_LINE = "↳ alerta urgente: confirme que o viu";
const EXCERPT_MAX = 280;
const MOVEMENTS_SHOWN = 3;
const TODO_SHOWN = 3;

function dayText(date: string | null | undefined): string | null {
  if (date == null) return null;
  return parseIsoDate(date) === null ? oneLine(date, 20) : formatBrazilian(date);
}

function caseName(c: { number: string | null; label: string | null }, fallback: string): string {
  const label = c.label === null ? "" : oneLine(c.label, 80);
  if (label !== "") return label;
  return c.number === null ? fallback : oneLine(c.number, 40);
}

function caseLine(c: { number: string | null; court: string }): string {
  const court = oneLine(c.court, 20).toUpperCase();
  return c.number === null
    ? `Sem número de processo · ${court}`
    : `Processo ${oneLine(c.number, 40)} · ${court}`;
}

function movementLine(m: EventMovement): string {
  const complements = m.complements.slice(0, 2).map((c) => oneLine(c, 60));
  const extra = complements.length === 0 ? "" : ` (${complements.join("; ")})`;
  return oneLine(`${courtTime(m.dateTime)} · ${m.name || "movimento sem nome"}${extra}`, LINE_MAX);
}

function excerpt(text: string): string {
  return oneLine(text, EXCERPT_MAX);
}

interface Dates {
  publishedOn?: string | null | undefined;
  countingStartsOn?: string | null | undefined;
  lastDay?: string | null | undefined;
}

/** "publicada em ...; prazo começa a contar em ...; último dia ..."; null when no date is known. */
function datesText(deadline: Dates): string | null {
  const parts: string[] = [];
  const published = dayText(deadline.publishedOn);
  const starts = dayText(deadline.countingStartsOn);
  const last = dayText(deadline.lastDay);
  if (published !== null) parts.push(`publicada em ${published}`);
  if (starts !== null) parts.push(`prazo começa a contar em ${starts}`);
  if (last !== null) parts.push(`último dia ${last}`);
  return parts.length === 0 ? null : parts.join("; ");
}

/** "Estimativa: ... Confira no tribunal." from whatever dates the event carries; null when none. */
function deadlineLine(deadline: Dates): string | null {
  const dates = datesText(deadline);
  return dates === null ? null : `Estimativa: ${dates}. Confira no tribunal.`;
}

function titled(event: WebhookEvent, urgent: boolean, title: string): string {
  const test = event.test ? "[TESTE] " : "";
  return oneLine(`${test}${urgent ? `${URGENT_MARKER} · ` : ""}${title}`, LINE_MAX);
}

/** The message with its text inert: every link it carries is one of the message's own. */
function inert(message: ChatMessage): ChatMessage {
  return {
    ...message,
    title: inertChatText(message.title),
    lines: message.lines.map((line) =>
      typeof line === "string" ? inertChatText(line) : { ...line, text: inertChatText(line.text) },
    ),
  };
}

export function chatMessage(event: WebhookEvent): ChatMessage {
  return inert(plainChatMessage(event));
}

function plainChatMessage(event: WebhookEvent): ChatMessage {
  switch (event.type) {
    case "case.movement":
      return movementMessage(event);
    case "case.correction":
      return correctionMessage(event);
    case "publication.published":
    case "publication.cancelled":
      return publicationMessage(event);
    case "party.match":
      return partyMatchMessage(event);
    case "publication.reestimated":
      return reestimatedMessage(event);
    case "publication.missing":
      return missingPublicationMessage(event);
    case "case.checked":
      return caseCheckedMessage(event);
    case "alert.acknowledged":
      return acknowledgedMessage(event);
    case "alert.escalated":
      return escalatedMessage(event);
    case "operator.alert":
      return operatorMessage(event);
  }
}

type EventOf<T extends WebhookEvent["type"]> = Extract<WebhookEvent, { type: T }>;

function courtPage(link: string | null, label = "Abrir no tribunal"): ChatLink | null {
  return link === null ? null : { label, url: link };
}

/** DJEN's certificate when there is one, else the document: never a link from court text. */
function publicationPage(p: {
  certificateUrl: string | null;
  link: string | null;
}): ChatLink | null {
  const url = p.certificateUrl ?? p.link;
  return url === null ? null : { label: "Ler a publicação completa", url };
}

function movementMessage(event: EventOf<"case.movement">): ChatMessage {
  const d = event.data;
  const lines = [caseLine(d.case)];
  const shown = d.movements.slice(0, MOVEMENTS_SHOWN).map(movementLine);
  lines.push(...shown);
  const more = d.movements.length - shown.length + d.movementsOmitted;
  if (more > 0) lines.push(more === 1 ? "+1 movimentação" : `+${more} movimentações`);
  if (shown.length === 0)
    lines.push(`Mudança: ${changeKindNames(d.changeKinds).join(", ") || "dados do processo"}`);
  // What to do by when, as the e-mail opens with it: the earliest first, each an estimate.
  for (const text of d.opening?.todo.slice(0, TODO_SHOWN) ?? []) {
    lines.push(oneLine(text.startsWith("Até ") ? `${text} (estimativa)` : text, LINE_MAX));
  }
  lines.push(`Situação: ${oneLine(d.status.categoryLabel, 60)}`);
  const first = d.status.attentionReasons[0];
  if (d.status.needsLawyerAttention && first !== undefined) {
    // The periods whose last days are all listed above are not named again.
    const todo = d.opening?.todo.length ?? 0;
    const acts = todo > 0 && todo <= TODO_SHOWN ? (d.acts ?? []) : [];
    const reason = withoutListedPeriods(first, acts, "ver as datas acima");
    lines.push(`Atenção: ${oneLine(reason, LINE_MAX)}`);
  }
  const deadline = d.deadline == null ? null : deadlineLine(d.deadline);
  if (deadline !== null) lines.push(deadline);
  return {
    urgent: d.urgent,
    title: titled(event, d.urgent, `Movimentação nova: ${caseName(d.case, "processo")}`),
    lines,
    link: courtPage(d.case.link),
  };
}

function correctionMessage(event: EventOf<"case.correction">): ChatMessage {
  const d = event.data;
  const lines = [
    caseLine(d.case),
    oneLine(d.summary, LINE_MAX),
    `Antes: ${movementLine(d.was)}`,
    `Agora: ${movementLine(d.now)}`,
  ];
  const deadline = d.deadline == null ? null : deadlineLine(d.deadline);
  if (deadline !== null) lines.push(deadline);
  return {
    urgent: d.urgent,
    title: titled(event, d.urgent, `Correção: ${caseName(d.case, "processo")}`),
    lines,
    link: courtPage(d.case.link),
  };
}

function publicationMessage(
  event: EventOf<"publication.published" | "publication.cancelled">,
): ChatMessage {
  const d = event.data;
  const kind = d.publication.kind ?? "Publicação";
  const name = caseName(d.case, "sem número de processo");
  const cancelled = event.type === "publication.cancelled";
  const lines = [caseLine(d.case)];
  if (!d.watched) lines.push("Processo fora da lista, encontrado pela OAB.");
  if (event.type === "publication.cancelled") {
    lines.push(
      `Cancelada no DJEN. Motivo: ${event.data.cancellation.reason ?? "não informado"}.`,
      "As datas do aviso anterior não valem.",
    );
  } else {
    const available = dayText(d.publication.availableOn);
    if (available !== null) lines.push(`Disponibilizada no DJEN em ${available}.`);
    const deadline = deadlineLine(d.deadline);
    if (deadline !== null) lines.push(deadline);
  }
  const text = excerpt(d.publication.text);
  if (text !== "") lines.push(`“${text}”`);
  return {
    urgent: d.urgent && !cancelled,
    title: titled(
      event,
      d.urgent && !cancelled,
      cancelled ? `Publicação cancelada: ${name}` : `${oneLine(kind, 60)} no DJEN: ${name}`,
    ),
    lines,
    link: publicationPage(d.publication),
  };
}

const CONFIDENCE_NAMES: Record<string, string> = {
  confirmado: "confirmado",
  provavel: "provável",
  homonimo: "possível homônimo",
};

function partyMatchMessage(event: EventOf<"party.match">): ChatMessage {
  const d = event.data;
  const confidence = CONFIDENCE_NAMES[d.party.confidence] ?? d.party.confidence;
  const lines = [caseLine(d.case)];
  lines.push(`${confidence}: ${oneLine(d.party.reason, LINE_MAX)}`);
  const available = dayText(d.publication.availableOn);
  if (available !== null) {
    lines.push(
      `${oneLine(d.publication.kind ?? "Publicação", 60)} disponibilizada no DJEN em ${available}.`,
    );
  }
  const deadline = deadlineLine(d.deadline);
  if (deadline !== null) lines.push(deadline);
  lines.push(`Para acompanhar: ${oneLine(d.party.watchCommand, LINE_MAX)}`);
  return {
    urgent: d.urgent,
    title: titled(
      event,
      d.urgent,
      `Possível nova ação contra ${oneLine(d.party.name, 80)}: ${caseName(d.case, "sem número de processo")}`,
    ),
    lines,
    link: publicationPage(d.publication),
  };
}

function reestimatedMessage(event: EventOf<"publication.reestimated">): ChatMessage {
  const d = event.data;
  const lines = [caseLine(d.case)];
  if (!d.watched) lines.push("Processo fora da lista, encontrado pela OAB.");
  lines.push("As datas do aviso anterior mudaram (um fechamento ou uma correção do tribunal).");
  const before = d.previous === null ? null : datesText(d.previous);
  if (before !== null) lines.push(`Antes: ${before}.`);
  const now = deadlineLine(d.deadline);
  if (now !== null) lines.push(`Agora: ${now}`);
  return {
    urgent: true,
    title: titled(event, true, `Prazo reestimado: ${caseName(d.case, "sem número de processo")}`),
    lines,
    link: publicationPage(d.publication),
  };
}

function missingPublicationMessage(event: EventOf<"publication.missing">): ChatMessage {
  const d = event.data;
  const lines = [
    caseLine(d.case),
    oneLine(d.summary, LINE_MAX),
    `No DataJud (${oneLine(d.instance, 20)}): ${oneLine(d.movement, 120)} em ${dayText(d.availableOn) ?? d.availableOn}.`,
    d.urgent
      ? "Um prazo contado dessa publicação pode estar correndo."
      : "A data é antiga para um prazo ainda em curso, mas confira.",
  ];
  if (d.sources?.dataJudLate) lines.push("DataJud atrasado neste processo.");
  return {
    urgent: d.urgent,
    title: titled(
      event,
      d.urgent,
      `Intimação no DataJud sem publicação no DJEN: ${caseName(d.case, "processo")}`,
    ),
    lines,
    link: courtPage(d.case.link, "Conferir no tribunal"),
  };
}

function caseCheckedMessage(event: EventOf<"case.checked">): ChatMessage {
  const d = event.data;
  const lines = [caseLine(d.case)];
  const datajud =
    d.outcome === "ok"
      ? "DataJud consultado"
      : `DataJud falhou${d.datajud.error === null ? "" : `: ${oneLine(d.datajud.error, 120)}`}`;
  const updated = dayText(d.sources.datajud.updatedAt?.slice(0, 10));
  lines.push(updated === null ? `${datajud}.` : `${datajud}; atualizado em ${updated}.`);
  if (d.djen !== null) {
    lines.push(
      d.djen.outcome === "failed"
        ? `DJEN falhou${d.djen.error === null ? "" : `: ${oneLine(d.djen.error, 120)}`}.`
        : d.djen.outcome === null
          ? "DJEN ainda não consultado."
          : "DJEN consultado.",
    );
  }
  if (d.sources.dataJudLate) lines.push("DataJud atrasado neste processo.");
  return {
    urgent: false,
    title: titled(
      event,
      false,
      `${d.outcome === "ok" ? "Verificado" : "Verificação falhou"} em ${dayText(d.day) ?? d.day}: ${caseName(d.case, "processo")}`,
    ),
    lines,
    link: courtPage(d.case.link),
  };
}

function acknowledgedMessage(event: EventOf<"alert.acknowledged">): ChatMessage {
  const d = event.data;
  const lines: string[] = [];
  if (d.case !== null) lines.push(caseLine(d.case));
  lines.push(
    `Confirmado por ${oneLine(d.acknowledgedBy, 120)} em ${instantTime(d.acknowledgedAt, SAO_PAULO_ZONE)}.`,
  );
  return {
    urgent: false,
    title: titled(event, false, `Ciente: ${oneLine(d.alert.subject, 160)}`),
    lines,
    link: null,
  };
}

function escalatedMessage(event: EventOf<"alert.escalated">): ChatMessage {
  const d = event.data;
  const lines: string[] = [];
  if (d.case !== null) lines.push(caseLine(d.case));
  lines.push(
    // The queued instant, not a send: an alert held for a digest or quiet hours went out later.
    `Alerta urgente de ${instantTime(d.alert.queuedAt, SAO_PAULO_ZONE)} para ${oneLine(d.firstTo.slice(0, 3).join(", "), 160) || "seus destinatários"}; ninguém confirmou ciência.`,
  );
  const day = dayText(d.lastDay);
  if (day !== null) {
    lines.push(
      d.lastDayKind === "hearing"
        ? `Audiência ou sessão: ${day}.`
        : `Último dia do prazo: ${day} (estimativa; confira nos autos).`,
    );
  }
  lines.push(
    `Escalonamento, passo ${d.step} de ${d.steps}: a ciência de qualquer pessoa o encerra.`,
  );
  return {
    urgent: true,
    title: titled(event, true, `Sem ciência: ${oneLine(d.alert.subject, 160)}`),
    lines,
    link: d.case === null ? null : courtPage(d.case.link),
  };
}

function operatorMessage(event: EventOf<"operator.alert">): ChatMessage {
  const d = event.data;
  const lines: string[] = [];
  if (d.case !== null) lines.push(caseLine(d.case));
  if (d.lastError !== null) lines.push(`Último erro: ${oneLine(d.lastError, LINE_MAX)}`);
  lines.push("monitor status mostra os detalhes.");
  return {
    urgent: false,
    title: titled(event, false, `Monitor: ${oneLine(d.title, 160)}`),
    lines,
    link: null,
  };
}

const DIGEST_LISTED = 10;

/**
 * Several alerts due together for one chat endpoint: one message, each alert a line. `acks`, in
 * the order of `events`: an urgent alert's own acknowledgement link (null: it asks none); those
 * that ask are listed first, each followed by a line with its link, so the cut never drops one.
 */
export function chatDigest(
  events: readonly WebhookEvent[],
  acks: readonly (string | null)[] = [],
): ChatMessage {
  const messages = events.map((event, i) => ({
    message: chatMessage(event),
    ack: acks[i] ?? null,
  }));
  const listed = [
    ...messages.filter((m) => m.ack !== null),
    ...messages.filter((m) => m.ack === null),
  ].slice(0, DIGEST_LISTED);
  const urgent = messages.some((m) => m.message.urgent);
  const lines: ChatLine[] = listed.flatMap(({ message: m, ack }): ChatLine[] => [
    m.link === null ? m.title : { text: m.title, link: m.link },
    ...(ack === null ? [] : [{ text: ACK_LINE, link: { label: ACK_BUTTON, url: ack } }]),
  ]);
  const more = messages.length - listed.length;
  if (more > 0)
    lines.push(`+${more} ${more === 1 ? "alerta" : "alertas"}: veja o e-mail ou monitor status.`);
  const count = messages.length === 1 ? "1 alerta" : `${messages.length} alertas`;
  const test = events.some((e) => e.test) ? "[TESTE] " : "";
  return {
    urgent,
    title: `${test}${urgent ? `${URGENT_MARKER} · ` : ""}Resumo do monitor: ${count}`,
    lines,
    link: null,
  };
}
