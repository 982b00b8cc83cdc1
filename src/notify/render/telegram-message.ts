import type { ChatLine, ChatLink, ChatMessage } from "./chat-message.js";

/*
 * A Telegram Bot API sendMessage body in its HTML parse mode. Telegram reads only a few tags and
 * four named entities; every <, > and & of ours or the court's is written as an entity, so court
 * text cannot open a tag or a link, and what Telegram would detect on its own (addresses, handles,
 * hashtags) is already inert (`chat-text.ts`). Link previews are off: the link is ours, but its page is not.
 * Telegram refuses a message over 4096 characters; ours stay far below.
 */

export interface TelegramBody {
  chat_id: string;
  text: string;
  parse_mode: "HTML";
  link_preview_options: { is_disabled: true };
  /** An urgent alert's acknowledgement: an inline button opening its page. */
  reply_markup?: { inline_keyboard: Array<Array<{ text: string; url: string }>> };
}

export function escapeTelegram(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function attribute(value: string): string {
  return escapeTelegram(value).replace(/"/g, "&quot;");
}

function telegramLink(link: ChatLink): string {
  return `<a href="${attribute(link.url)}">${escapeTelegram(link.label)}</a>`;
}

function telegramLine(line: ChatLine): string {
  return typeof line === "string"
    ? escapeTelegram(line)
    : `${escapeTelegram(line.text)} · ${telegramLink(line.link)}`;
}

export function renderTelegram(message: ChatMessage, chatId: string): TelegramBody {
  const lines = [`<b>${escapeTelegram(message.title)}</b>`, ...message.lines.map(telegramLine)];
  if (message.link !== null) lines.push(telegramLink(message.link));
  return {
    chat_id: chatId,
    text: lines.join("\n"),
    parse_mode: "HTML",
    link_preview_options: { is_disabled: true },
    ...(message.ack == null
      ? {}
      : {
          reply_markup: { inline_keyboard: [[{ text: message.ack.label, url: message.ack.url }]] },
        }),
  };
}
