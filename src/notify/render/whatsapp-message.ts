import { oneLine } from "../../text.js";
import type { ChatLine, ChatMessage } from "./chat-message.js";

/*
 * A WhatsApp Business Cloud API message: an approved template (the only message a business may
 * start a conversation with) and three body parameters, plain text: {{1}} what happened and the
 * case, {{2}} the details (court, movement, the dates), {{3}} the link. The chat message is
 * already inert (chat-text.ts: nothing WhatsApp would open as a link or a mention); here
 * WhatsApp's own formatting characters (*bold*, _italic_, ~strike~, `code`) become look-alikes,
 * and line breaks, tabs and runs of spaces (which the API refuses in a parameter) one space.
 * Each parameter is bounded so the template's body stays under WhatsApp's 1024 characters
 * whatever the court wrote. The sample template to submit to Meta is in docs/channels.md.
 */

export interface WhatsAppBody {
  messaging_product: "whatsapp";
  recipient_type: "individual";
  to: string;
  type: "template";
  template: {
    name: string;
    language: { code: string };
    components: Array<
      | { type: "body"; parameters: Array<{ type: "text"; text: string }> }
      | {
          type: "button";
          sub_type: "url";
          index: "0";
          parameters: Array<{ type: "text"; text: string }>;
        }
    >;
  };
}

export const WHATSAPP_TITLE_MAX = 160;
export const WHATSAPP_DETAILS_MAX = 560;
export const WHATSAPP_LINK_MAX = 200;

const LOOK_ALIKES: Readonly<Record<string, string>> = {
  "*": "\u2217", // ∗
  _: "\uff3f", // ＿
  "~": "\u223c", // ∼
  "`": "\u02cb", // ˋ
};

/** Text WhatsApp shows as written: no formatting, one line, at most `max` characters. */
export function inertWhatsAppText(text: string, max: number): string {
  const plain = text.replace(/[*_~`]/g, (c) => LOOK_ALIKES[c] ?? c);
  const line = oneLine(plain, max);
  return line === "" ? "-" : line;
}

/**
 * {{3}}, our own link (the court's page, DJEN's certificate, an acknowledgement page), never
 * court text: one line, without look-alikes, which would make it another address (an
 * acknowledgement token's base64url holds `_`: its page would answer "Link inválido").
 */
function linkText(url: string): string {
  const line = oneLine(url, WHATSAPP_LINK_MAX);
  return line === "" ? "-" : line;
}

function lineText(line: ChatLine): string {
  return typeof line === "string" ? line : line.text;
}

type Template = { name: string; language: string };

/** What follows "/ack/" in an acknowledgement link: the dynamic part of a template's URL button. */
function ackSuffix(url: string): string {
  const at = url.lastIndexOf("/ack/");
  return at === -1 ? url : url.slice(at + "/ack/".length);
}

/**
 * An urgent alert that asks to be acknowledged goes as `ackTemplate` when the endpoint has one
 * (the same body, and a URL button "Confirmar ciência" whose dynamic suffix is the link's token);
 * without it, its {{3}} is the acknowledgement link instead of the court's.
 */
export function renderWhatsApp(
  message: ChatMessage,
  to: string,
  template: Template,
  ackTemplate: Template | null = null,
): WhatsAppBody {
  // The title already says URGENTE when the alert is.
  const title = message.title;
  const details = message.lines.map(lineText).join(" · ");
  const ack = message.ack ?? null;
  const button = ack !== null && ackTemplate !== null;
  const link = ack !== null && !button ? ack.url : message.link === null ? "-" : message.link.url;
  const chosen = button && ackTemplate !== null ? ackTemplate : template;
  const body: WhatsAppBody = {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to,
    type: "template",
    template: {
      name: chosen.name,
      language: { code: chosen.language },
      components: [
        {
          type: "body",
          parameters: [
            { type: "text", text: inertWhatsAppText(title, WHATSAPP_TITLE_MAX) },
            { type: "text", text: inertWhatsAppText(details, WHATSAPP_DETAILS_MAX) },
            { type: "text", text: linkText(link) },
          ],
        },
      ],
    },
  };
  if (button && ack !== null) {
    body.template.components.push({
      type: "button",
      sub_type: "url",
      index: "0",
      parameters: [{ type: "text", text: ackSuffix(ack.url) }],
    });
  }
  return body;
}
