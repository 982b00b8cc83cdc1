import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { Route } from "../http/server.js";
import { askingRowsOfMessage, type OutboxRow } from "../store/outbox.js";
import { isCiente } from "./ciente.js";
import { acknowledgeRows, answer, type ReplyRouteDeps, readRawBody } from "./replies.js";
import { secretMatches } from "./secret-match.js";

/*
 * /replies/whatsapp: the WhatsApp Cloud API webhook (issue 40), where a reply "ciente"
 * (ciente.ts) to one of our urgent alerts acknowledges it. Meta's webhooks: the callback URL is
 * verified by a GET with hub.mode=subscribe, hub.verify_token (ours, WHATSAPP_VERIFY_TOKEN) and
 * hub.challenge, answered with the challenge; every POST is signed, X-Hub-Signature-256 being
 * "sha256=" and the hex HMAC-SHA256 of the raw body under the app secret (WHATSAPP_APP_SECRET),
 * and one without the right signature is refused with 401 and read no further. A message's
 * context.id is the wamid of the message it answers (developers.facebook.com, WhatsApp Business
 * Platform, messages webhook reference), the id our send stored (sent-message-id.ts): a typed
 * reply (text.body) or a quick-reply button (button.text, or an interactive reply's title)
 * counts only from the number the alert was sent to, through the sending number it came from.
 * Everything else (statuses, other messages) is answered 200 and ignored; a repeat changes
 * nothing (the first acknowledgement wins).
 */

export const WHATSAPP_REPLIES_PATH = "/replies/whatsapp";

const SIGNATURE_HEADER = "x-hub-signature-256";
const CHALLENGE = /^[A-Za-z0-9._-]{1,200}$/u;

const Message = z.object({
  from: z.string(),
  context: z.object({ id: z.string() }).optional(),
  text: z.object({ body: z.string() }).optional(),
  button: z.object({ text: z.string().optional(), payload: z.string().optional() }).optional(),
  interactive: z.object({ button_reply: z.object({ title: z.string() }).optional() }).optional(),
});
type Message = z.infer<typeof Message>;

const Notification = z.object({
  entry: z.array(
    z.object({
      changes: z.array(
        z.object({
          value: z.object({
            metadata: z.object({ phone_number_id: z.string() }).optional(),
            messages: z.array(z.unknown()).optional(),
          }),
        }),
      ),
    }),
  ),
});

/** A whatsapp endpoint as replies need it: its sending number's id and its own number, if any. */
export interface WhatsAppReplyEndpoint {
  name: string;
  phoneNumberId: string;
  /** The endpoint's own number (E.164); null: each row has its watcher's (the row's target). */
  to: string | null;
}

export interface WhatsAppRepliesOptions extends ReplyRouteDeps {
  /** WHATSAPP_APP_SECRET: what Meta signs each POST with. */
  appSecret: string;
  /** WHATSAPP_VERIFY_TOKEN: what the callback URL's verification must carry. */
  verifyToken: string;
  endpoints: () => readonly WhatsAppReplyEndpoint[];
}

/** Whether `signature` ("sha256=<hex>") is the body's HMAC-SHA256 under `secret`. */
export function signatureMatches(
  secret: string,
  body: Buffer,
  signature: string | undefined,
): boolean {
  const given = /^sha256=([0-9a-f]{64})$/iu.exec(signature ?? "")?.[1];
  if (given === undefined) return false;
  const expected = createHmac("sha256", secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(given, "hex"));
}

/**
 * Whether WhatsApp's `from` (digits, no +) is the number `e164`. A Brazilian mobile number
 * registered on WhatsApp before the ninth digit may come without it (55, the DDD, then eight
 * digits): either form is the same person's.
 */
export function sameNumber(e164: string, from: string): boolean {
  const ours = e164.replace(/\D/gu, "");
  if (ours === from) return true;
  const brazilianMobile = /^55(\d{2})9(\d{8})$/u.exec(ours);
  return brazilianMobile !== null && from === `55${brazilianMobile[1]}${brazilianMobile[2]}`;
}

function replyText(message: Message): string {
  return (
    message.text?.body ??
    message.button?.text ??
    message.button?.payload ??
    message.interactive?.button_reply?.title ??
    ""
  );
}

function verify(options: WhatsAppRepliesOptions, req: IncomingMessage, res: ServerResponse): void {
  const query = new URL(req.url ?? "/", "http://localhost").searchParams;
  const challenge = query.get("hub.challenge") ?? "";
  const ok =
    query.get("hub.mode") === "subscribe" &&
    secretMatches(options.verifyToken, query.get("hub.verify_token") ?? undefined) &&
    CHALLENGE.test(challenge);
  answer(res, ok ? 200 : 403, ok ? challenge : "forbidden\n");
}

/** The rows a reply from `from`, through `phoneNumberId`, may acknowledge. */
function rowsOfReply(
  options: WhatsAppRepliesOptions,
  message: Message,
  phoneNumberId: string | null,
): OutboxRow[] {
  const contextId = message.context?.id;
  if (contextId === undefined || !isCiente(replyText(message))) return [];
  const endpoints = options.endpoints();
  return askingRowsOfMessage(options.db, "whatsapp", contextId, null).filter((row) => {
    const endpoint = endpoints.find((e) => e.name === row.recipient);
    const number = row.target ?? endpoint?.to ?? null;
    return (
      endpoint !== undefined &&
      endpoint.phoneNumberId === phoneNumberId &&
      number !== null &&
      sameNumber(number, message.from)
    );
  });
}

function read(options: WhatsAppRepliesOptions, body: Buffer): void {
  let parsed: z.infer<typeof Notification>;
  try {
    const read = Notification.safeParse(JSON.parse(body.toString("utf8")));
    if (!read.success) return;
    parsed = read.data;
  } catch {
    return;
  }
  for (const change of parsed.entry.flatMap((e) => e.changes)) {
    const phoneNumberId = change.value.metadata?.phone_number_id ?? null;
    for (const raw of change.value.messages ?? []) {
      const message = Message.safeParse(raw);
      if (!message.success) continue;
      acknowledgeRows(options, rowsOfReply(options, message.data, phoneNumberId), "whatsapp");
    }
  }
}

async function handle(
  options: WhatsAppRepliesOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (req.method === "GET") {
    req.resume();
    verify(options, req, res);
    return;
  }
  if (req.method !== "POST") {
    res.setHeader("allow", "GET, POST");
    answer(res, 405, "Meta verifies with GET and posts notifications here\n");
    return;
  }
  const body = await readRawBody(req);
  if (body === null) {
    answer(res, 413, "too large\n");
    return;
  }
  const header = req.headers[SIGNATURE_HEADER];
  if (!signatureMatches(options.appSecret, body, typeof header === "string" ? header : undefined)) {
    options.logger.warn(
      { client: req.socket.remoteAddress ?? "unknown" },
      "WhatsApp reply webhook: a request without a valid X-Hub-Signature-256 refused",
    );
    answer(res, 401, "unauthorized\n");
    return;
  }
  read(options, body);
  answer(res, 200, "ok\n");
}

export function whatsAppRepliesRoute(options: WhatsAppRepliesOptions): Route {
  return {
    path: WHATSAPP_REPLIES_PATH,
    auth: "public",
    handle: (req, res) => handle(options, req, res),
  };
}
