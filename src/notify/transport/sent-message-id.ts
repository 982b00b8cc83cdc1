import { z } from "zod";

/*
 * The id a chat platform gave the message we sent, read from its 2xx answer, leniently (fields
 * we do not read are ignored; an answer without the id gives null, and the message was still
 * delivered). A reply to the message names it by this id (ack/replies): Telegram's sendMessage
 * answers {"ok": true, "result": Message} (core.telegram.org/bots/api#sendmessage; a message_id
 * is unique only within its chat, so the id is "<chat id>:<message id>"); the WhatsApp Cloud
 * API's messages endpoint answers {"messages": [{"id": "wamid...."}]}.
 */

const TelegramAnswer = z.object({
  ok: z.literal(true),
  result: z.object({
    message_id: z.number().int(),
    chat: z.object({ id: z.union([z.number().int(), z.string()]) }),
  }),
});

const WhatsAppAnswer = z.object({
  messages: z.array(z.object({ id: z.string().min(1).max(200) })).min(1),
});

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Telegram's key of one message: the chat and the message's id in it. */
export function telegramMessageKey(chatId: number | string, messageId: number): string {
  return `${String(chatId)}:${messageId}`;
}

/** The platform's id of the message a 2xx answer acknowledges; null for any other channel. */
export function sentMessageId(channel: string, answer: string): string | null {
  if (channel === "telegram") {
    const read = TelegramAnswer.safeParse(json(answer));
    return read.success
      ? telegramMessageKey(read.data.result.chat.id, read.data.result.message_id)
      : null;
  }
  if (channel === "whatsapp") {
    const read = WhatsAppAnswer.safeParse(json(answer));
    return read.success ? (read.data.messages[0]?.id ?? null) : null;
  }
  return null;
}
