import { oneLine } from "../../text.js";
import type { Span } from "./document.js";
import {
  escapeHtml,
  htmlDocument,
  instantTime,
  type RenderedAlert,
  STYLES,
  tag,
} from "./email-kit.js";

/*
 * The words of an acknowledgement (issue 40), lawyer-facing, Portuguese: the block an urgent
 * alert's e-mail ends with, the button label of the chats, and the small page the link opens.
 * The page changes nothing by being opened (mail gateways open links to scan them): only its
 * button, a POST, records the acknowledgement. Every text from the alert is escaped here.
 */

export const ACK_BUTTON = "Confirmar ciência";

const BUTTON =
  "display:inline-block;padding:10px 16px;background:#1d4ed8;color:#ffffff;border:0;border-radius:6px;font-size:16px;text-decoration:none;cursor:pointer;";

/** The alert's e-mail with the link to acknowledge it at its end (text and HTML). */
export function withAckLink(rendered: RenderedAlert, url: string): RenderedAlert {
  const text = `${rendered.text.replace(/\n+$/u, "")}\n\nConfirme que viu este alerta urgente: ${url}\n(abre uma página com um botão; só o botão registra a ciência)\n`;
  const block = [
    tag(
      "p",
      STYLES.attention,
      `Este alerta é urgente. Confirme que o viu: <a href="${escapeHtml(url)}" style="${BUTTON}">${ACK_BUTTON}</a>`,
    ),
  ].join("");
  const end = rendered.html.lastIndexOf("</div>\n</body>");
  const html =
    end === -1
      ? rendered.html
      : `${rendered.html.slice(0, end)}${block}\n${rendered.html.slice(end)}`;
  return { ...rendered, text, html };
}

/** The line an urgent item of a digest carries: its own link, bound to it and its reader. */
export function ackLine(url: string): Span[] {
  return [{ strong: "Alerta urgente: confirme que o viu em " }, { link: url }];
}

/** What the page shows: the alert, and where its acknowledgement stands. */
export interface AckPageState {
  subject: string;
  /** The alert's acknowledgement, when there is one. */
  acknowledged: { at: string; by: string } | null;
  /** When the link stops working. */
  expiresAt: string;
  /** Whether this answer is the POST that just recorded it. */
  justRecorded: boolean;
  expired: boolean;
}

function page(title: string, parts: readonly string[]): string {
  return htmlDocument(title, [tag("h1", STYLES.h1, escapeHtml(title)), ...parts]);
}

/** The confirmation page: the button (a POST to the same address), or what became of the alert. */
export function ackPage(state: AckPageState, timeZone: string): string {
  const subject = tag("p", STYLES.p, `<strong>${escapeHtml(oneLine(state.subject, 300))}</strong>`);
  if (state.acknowledged !== null) {
    const when = instantTime(state.acknowledged.at, timeZone);
    const who = escapeHtml(oneLine(state.acknowledged.by, 120));
    return page(state.justRecorded ? "Ciência registrada" : "Alerta já confirmado", [
      subject,
      tag(
        "p",
        STYLES.p,
        state.justRecorded
          ? `Registrado em ${escapeHtml(when)} (${who}). Pode fechar esta página.`
          : `Este alerta já foi confirmado em ${escapeHtml(when)} por ${who}. Nada mudou.`,
      ),
    ]);
  }
  if (state.expired) {
    return page("Link expirado", [
      subject,
      tag(
        "p",
        STYLES.p,
        `Este link valia até ${escapeHtml(instantTime(state.expiresAt, timeZone))}. Confira o alerta no monitor ou com o escritório.`,
      ),
    ]);
  }
  return page("Confirmar ciência do alerta", [
    subject,
    tag(
      "p",
      STYLES.p,
      "Confirme que viu este alerta urgente. Só o botão abaixo registra a ciência (abrir esta página não registra nada).",
    ),
    `<form method="post"><button type="submit" style="${BUTTON}">${ACK_BUTTON}</button></form>`,
    tag(
      "p",
      STYLES.footer,
      `Link válido até ${escapeHtml(instantTime(state.expiresAt, timeZone))}. Datas de prazo são estimativas: confira nos autos.`,
    ),
  ]);
}

/** The page for a link that is no acknowledgement's (malformed, forged, or its alert unknown). */
export function unknownAckPage(): string {
  return page("Link inválido", [
    tag(
      "p",
      STYLES.p,
      "Este link de confirmação não é válido. Use o link do próprio alerta, sem alterá-lo.",
    ),
  ]);
}
