import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { Route } from "../http/server.js";
import { telegramMessageKey } from "../notify/transport/sent-message-id.js";
import { askingRowsOfMessage } from "../store/outbox.js";
import { isCiente } from "./ciente.js";
import { acknowledgeRows, answer, type ReplyRouteDeps, readRawBody } from "./replies.js";
import { secretMatches } from "./secret-match.js";

/*
 * /replies/telegram/<endpoint>: the Telegram bot webhook (issue 40), where a reply "ciente"
 * (ciente.ts) to one of our urgent alerts acknowledges it. Telegram POSTs each Update as JSON to
 * the URL given to setWebhook, with the secret_token given there in the
 * X-Telegram-Bot-Api-Secret-Token header (core.telegram.org/bots/api#setwebhook); a request
 * without it is refused with 401 and read no further. A reply is a Message whose
 * reply_to_message is the message it answers: its message_id, in the reply's chat, is the key
 * our send stored (sent-message-id.ts), so only a reply in the chat the alert went to, to that
 * message, finds its rows. Any other update is answered 200 and ignored: Telegram repeats an
 * update until it gets a 2xx, and a repeat of one already read changes nothing (the first
 * acknowledgement wins). The endpoint's name in the path keeps two bots' chats apart.
 */

export const TELEGRAM_REPLIES_PATH = "/replies/telegram/";

const SECRET_HEADER = "x-telegram-bot-api-secret-token";

/** Only what a reply needs; Telegram's other fields are ignored. */
const Update = z.object({
  update_id: z.number().int(),
  message: z
    .object({
      message_id: z.number().int(),
      chat: z.object({ id: z.union([z.number().int(), z.string()]) }),
      text: z.string().optional(),
      reply_to_message: z.object({ message_id: z.number().int() }).optional(),
    })
    .optional(),
});

export interface TelegramRepliesOptions extends ReplyRouteDeps {
  /** The secret_token given to setWebhook (TELEGRAM_WEBHOOK_SECRET). */
  secret: string;
  /** The configured telegram endpoints' names: the path's last part must be one. */
  endpoints: () => readonly string[];
}

function parse(body: Buffer): z.infer<typeof Update> | null {
  try {
    const read = Update.safeParse(JSON.parse(body.toString("utf8")));
    return read.success ? read.data : null;
  } catch {
    return null;
  }
}

async function handle(
  options: TelegramRepliesOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (req.method !== "POST") {
    res.setHeader("allow", "POST");
    answer(res, 405, "Telegram posts updates here\n");
    return;
  }
  const header = req.headers[SECRET_HEADER];
  if (!secretMatches(options.secret, typeof header === "string" ? header : undefined)) {
    req.resume();
    options.logger.warn(
      { client: req.socket.remoteAddress ?? "unknown" },
      "Telegram reply webhook: a request without the right secret token refused",
    );
    answer(res, 401, "unauthorized\n");
    return;
  }
  const name = decodeURIComponent(
    new URL(req.url ?? "/", "http://localhost").pathname.slice(TELEGRAM_REPLIES_PATH.length),
  );
  const body = await readRawBody(req);
  if (body === null) {
    answer(res, 413, "too large\n");
    return;
  }
  if (!options.endpoints().includes(name)) {
    answer(res, 404, "no such telegram endpoint\n");
    return;
  }
  const message = parse(body)?.message;
  const replyTo = message?.reply_to_message;
  if (message !== undefined && replyTo !== undefined && isCiente(message.text ?? "")) {
    const key = telegramMessageKey(message.chat.id, replyTo.message_id);
    acknowledgeRows(options, askingRowsOfMessage(options.db, "telegram", key, name), "telegram");
  }
  answer(res, 200, "ok\n");
}

export function telegramRepliesRoute(options: TelegramRepliesOptions): Route {
  return {
    path: TELEGRAM_REPLIES_PATH,
    prefix: true,
    auth: "public",
    handle: (req, res) => handle(options, req, res),
  };
}
