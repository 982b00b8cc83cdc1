import { z } from "zod";
import { oneLine } from "../../text.js";
import { formatBrazilian } from "../../time/calendar-date.js";
import { AlertContent } from "./alert-content.js";
import { escapeHtml, instantTime, type RenderedAlert, STYLES, tag } from "./email-kit.js";
import { PublicationAlertContent } from "./publication-alert.js";

/*
 * The words of an escalation step (issue 40), lawyer-facing, Portuguese: an urgent alert nobody
 * acknowledged in time, sent again to the next person of the chain, saying plainly that it is an
 * escalation, who got it first and since when, and the last day it names. The alert itself
 * follows unchanged (its dates with their rule and calendar); every text from it is escaped here.
 */

const IsoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/u);

/** What an escalation step's rows carry (notify/outbox/messages.ts `escalationMessage`). */
export const EscalationNotice = z.object({
  notice: z.literal("alert.escalated"),
  /** The alert's key (what every copy of it shares) and subject. */
  alertKey: z.string(),
  subject: z.string(),
  /** When the alert was queued, and its acknowledgement asked. */
  queuedAt: z.string(),
  /** When a copy of the alert was first sent; null while none was (held for a digest or quiet hours). */
  firstSentAt: z.string().nullable(),
  /** When this step was queued: the event's timestamp. */
  escalatedAt: z.string(),
  step: z.number().int().positive(),
  steps: z.number().int().positive(),
  /** Who the step tells: a watcher's address or an endpoint's name. */
  to: z.string(),
  /** Who got the alert first (addresses, `channel:name` endpoints), and the earlier steps'. */
  firstTo: z.array(z.string()),
  earlierSteps: z.array(z.string()),
  /** The day the alert's dates end on: a period's last day or a hearing's. */
  lastDay: z
    .object({ date: IsoDay, kind: z.enum(["period", "hearing"]), name: z.string().nullable() })
    .nullable(),
  /** Which bound made the step due: within (business hours), before (days before the last day), last-day. */
  dueBy: z.enum(["within", "before", "last-day"]),
  case: z
    .object({ number: z.string().nullable(), court: z.string(), label: z.string().nullable() })
    .nullable(),
  /** The alert as it was first sent. */
  original: z.discriminatedUnion("type", [
    z.object({ type: z.literal("movement"), content: AlertContent }),
    z.object({ type: z.literal("publication"), content: PublicationAlertContent }),
  ]),
});
export type EscalationNotice = z.infer<typeof EscalationNotice>;

const LIST_MAX = 5;

function names(list: readonly string[]): string {
  const shown = list.slice(0, LIST_MAX).map((n) => oneLine(n, 120));
  const more = list.length - shown.length;
  return `${shown.join(", ")}${more > 0 ? ` e mais ${more}` : ""}`;
}

/** "Último dia do prazo (Apelação): 03/12/2026, estimativa" or the hearing's day. */
export function lastDayText(lastDay: EscalationNotice["lastDay"]): string | null {
  if (lastDay === null) return null;
  const day = formatBrazilian(lastDay.date);
  const name = lastDay.name === null ? "" : ` (${oneLine(lastDay.name, 80)})`;
  return lastDay.kind === "hearing"
    ? `Audiência ou sessão${name}: ${day}`
    : `Último dia do prazo${name}: ${day}, estimativa`;
}

/** The subject: the alert's, marked as an escalation. */
export function escalationSubject(notice: EscalationNotice): string {
  return oneLine(`Escalonamento: sem ciência — ${notice.subject}`, 250);
}

/** What the step says before the alert, in plain lines. */
export function escalationLines(notice: EscalationNotice, timeZone: string): string[] {
  const to = names(notice.firstTo) || "seus destinatários";
  const head = `Escalonamento (passo ${notice.step} de ${notice.steps}): este alerta urgente`;
  const lines = [
    notice.firstSentAt === null
      ? `${head}, destinado a ${to}, ainda não foi enviado (na fila desde ${instantTime(notice.queuedAt, timeZone)}: aguarda um resumo ou o fim do horário de silêncio, ou o envio falhou) e ninguém confirmou ciência.`
      : `${head} foi enviado em ${instantTime(notice.firstSentAt, timeZone)} a ${to} e ninguém confirmou ciência desde então.`,
  ];
  if (notice.earlierSteps.length > 0) {
    lines.push(`Escalonado antes a: ${names(notice.earlierSteps)}.`);
  }
  const day = lastDayText(notice.lastDay);
  lines.push(
    day === null
      ? "O alerta não traz último dia estimado; veja as datas abaixo."
      : `${day} (a regra e o calendário estão no alerta abaixo).`,
  );
  lines.push(
    "Confirme a ciência pelo link deste e-mail: a confirmação de qualquer pessoa encerra o escalonamento.",
  );
  return lines;
}

/** The alert's e-mail, opened by the escalation's lines (text and HTML) under its subject. */
export function withEscalation(
  rendered: RenderedAlert,
  notice: EscalationNotice,
  timeZone: string,
): RenderedAlert {
  const lines = escalationLines(notice, timeZone);
  const text = `${lines.join("\n")}\n\n---\n\n${rendered.text}`;
  const block = tag(
    "div",
    STYLES.attention,
    lines.map((l) => tag("p", STYLES.p, escapeHtml(l))).join(""),
  );
  const open = `<div style="${STYLES.card}">`;
  const at = rendered.html.indexOf(open);
  const html =
    at === -1
      ? rendered.html
      : `${rendered.html.slice(0, at + open.length)}${block}\n${rendered.html.slice(at + open.length)}`;
  return { subject: escalationSubject(notice), text, html };
}
