import { createHmac } from "node:crypto";
import { Writable } from "node:stream";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ackLinks } from "../../../src/ack/ack-token.js";
import { telegramRepliesRoute } from "../../../src/ack/telegram-replies.js";
import { whatsAppRepliesRoute } from "../../../src/ack/whatsapp-replies.js";
import type { HttpServer } from "../../../src/http/server.js";
import { createLogger } from "../../../src/log.js";
import { drainEndpoints } from "../../../src/notify/outbox/endpoint-drain.js";
import { movementAlert } from "../../../src/notify/outbox/messages.js";
import { emailEndpoints, queueMessage } from "../../../src/notify/outbox/queue.js";
import type { Endpoint } from "../../../src/notify/transport/endpoint.js";
import { DEFAULT_ENDPOINT_LIMITS } from "../../../src/notify/transport/http-endpoint.js";
import type { EndpointPolicy } from "../../../src/policy/alert-rules.js";
import type { MailPolicy } from "../../../src/policy/mail-policy.js";
import { type OutboxRow, outboxRowById } from "../../../src/store/outbox.js";
import { type FakeTelegram, startFakeTelegram } from "../../fakes/fake-chat.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { type FakeWhatsApp, startFakeWhatsApp } from "../../fakes/fake-whatsapp.js";
import {
  acknowledgedOf,
  callServer,
  startAckServer,
  watchersPolicy,
} from "../../support/ack-http.js";
import { DOMAIN, queueChange, type TempStore, tempStore } from "../../support/outbox-store.js";
import { sampleAlert } from "../../unit/notify/render/sample-alert.js";

/*
 * A reply "ciente" acknowledges an urgent alert (issue 40) where the daemon receives replies:
 * Telegram's bot webhook (the secret token in X-Telegram-Bot-Api-Secret-Token, a reply's
 * reply_to_message naming the message we sent) and the WhatsApp Cloud API's (the GET
 * verification, X-Hub-Signature-256 over the raw body, a reply's context.id naming our wamid).
 * Through the real HTTP server, after real sends to the loopback fakes: a valid reply
 * acknowledges its own alert as its reader, once; a reply to another message, from another chat
 * or number, or saying something else does not; a forged request is refused before it is read;
 * a repeat changes nothing; no secret reaches an answer or the log.
 */

const NOW = Date.parse("2026-03-02T13:00:00.000Z");
const HOUR = 3_600_000;
const TELEGRAM_SECRET = "tg_webhook_secret_0123456789abcdef0123456789";
const APP_SECRET = "meta-app-secret-9f8e7d6c5b4a";
const VERIFY_TOKEN = "verify-token-0123456789abcdef";
const WA_TOKEN = "EAAGrepliesWHATSAPPtoken0123456789";
const CHAT = "-1001234567890";
const ANA = "+5561987654321";
const RUI = "+5511912345678";

const EQUIPE: EndpointPolicy = {
  name: "equipe",
  channel: "telegram",
  events: ["case.movement"],
  delivery: "instant",
  digestSchedule: null,
  quietHours: false,
};
const RESUMO: EndpointPolicy = { ...EQUIPE, name: "resumo", delivery: "digest" };
const ZAP: EndpointPolicy = { ...EQUIPE, name: "zap", channel: "whatsapp", perWatcher: true };
const FIRM: EndpointPolicy = {
  ...EQUIPE,
  name: "webhook",
  channel: "webhook",
  events: ["case.movement", "alert.acknowledged"],
};

function policy(): MailPolicy {
  return watchersPolicy(
    [
      ["ana@example.com", ANA],
      ["rui@example.com", RUI],
    ],
    { endpoints: [EQUIPE, RESUMO, ZAP, FIRM] },
  );
}

let telegram: FakeTelegram;
let whatsapp: FakeWhatsApp;
let store: TempStore;
let clock: FakeClock;
let server: HttpServer;
let port: number;
let logged: string;

beforeAll(async () => {
  telegram = await startFakeTelegram();
  whatsapp = await startFakeWhatsApp({ token: WA_TOKEN });
});
afterAll(async () => {
  await telegram.close();
  await whatsapp.close();
});

beforeEach(async () => {
  store = tempStore("ack-replies-");
  clock = new FakeClock({ now: NOW });
  logged = "";
  const logger = createLogger({
    level: "debug",
    destination: new Writable({
      write(chunk, _encoding, done) {
        logged += String(chunk);
        done();
      },
    }),
  });
  const deps = { db: store.db, clock, logger, domain: DOMAIN, policy: () => policy() };
  ({ server, port } = await startAckServer({
    db: store.db,
    clock,
    policy: () => policy(),
    routes: [
      telegramRepliesRoute({
        ...deps,
        secret: TELEGRAM_SECRET,
        endpoints: () => ["equipe", "resumo"],
      }),
      whatsAppRepliesRoute({
        ...deps,
        appSecret: APP_SECRET,
        verifyToken: VERIFY_TOKEN,
        endpoints: () => [{ name: "zap", phoneNumberId: whatsapp.phoneNumberId, to: null }],
      }),
    ],
  }));
});

afterEach(async () => {
  await server.close();
  store.dispose();
  telegram.messages.length = 0;
  whatsapp.messages.length = 0;
});

/** An urgent alert (or a quiet one) queued to Ana and Rui and routed to the chats. */
function queueAlert(label: string, urgent = true, channels = ["equipe"]): void {
  const content = sampleAlert({ label, urgent });
  const iso = new Date(clock.now()).toISOString();
  const { caseId, changeId } = queueChange(store.db, content, [], iso);
  queueMessage(
    { db: store.db, domain: DOMAIN, at: new Date(clock.now()), policy: policy() },
    movementAlert({ changeId, caseId, detectedAt: iso, content, channels }),
    emailEndpoints(["ana@example.com", "rui@example.com"]),
  );
}

async function sendAlert(label: string, urgent = true, channels = ["equipe"]): Promise<void> {
  queueAlert(label, urgent, channels);
  await drainChats();
}

/** Sends what is due to Telegram and WhatsApp (the loopback fakes). */
async function drainChats(): Promise<void> {
  const endpoints: Endpoint[] = [
    ...["equipe", "resumo"].map(
      (name): Endpoint => ({
        name,
        channel: "telegram",
        apiBase: telegram.apiBase,
        token: telegram.token,
        chatId: CHAT,
      }),
    ),
    {
      name: "zap",
      channel: "whatsapp",
      apiBase: whatsapp.apiBase,
      token: WA_TOKEN,
      phoneNumberId: whatsapp.phoneNumberId,
      to: null,
      template: { name: "alerta_processo", language: "pt_BR" },
    },
  ];
  await drainEndpoints({
    db: store.db,
    endpoints,
    channels: ["telegram", "whatsapp"],
    limits: { ...DEFAULT_ENDPOINT_LIMITS, timeoutMs: 2000 },
    clock,
    maxAttempts: 3,
    logger: createLogger({ level: "silent" }),
    claimant: { holder: "me@host", holderIsDead: () => false },
    ackLink: ackLinks("https://monitor.example.com", "0123456789abcdef0123456789abcdef-ack"),
  });
}

function rowOf(channel: string, label: string, target: string | null = null): OutboxRow {
  const found = store.db
    .prepare<[string, string, string | null], { id: number }>(
      "SELECT id FROM outbox WHERE channel = ? AND subject LIKE '%' || ? || '%' AND target IS ?",
    )
    .get(channel, label, target);
  const row = found === undefined ? undefined : outboxRowById(store.db, found.id);
  if (row === undefined) throw new Error(`no ${channel} row for ${label}`);
  return row;
}

/** The alert.acknowledged events queued for the firm's webhook, with how each came. */
function events(): Array<{ by: string; via: string }> {
  return store.db
    .prepare<[], { payload: string }>(
      "SELECT payload FROM outbox WHERE message_type = 'acknowledgement' AND channel = 'webhook'",
    )
    .all()
    .map((r) => {
      const p = JSON.parse(r.payload) as { acknowledgedBy: string; via: string };
      return { by: p.acknowledgedBy, via: p.via };
    });
}

// ---- Telegram ----

let updateId = 1000;

function telegramReply(text: string, replyTo: number, chat: number | string = Number(CHAT)) {
  updateId += 1;
  return JSON.stringify({
    update_id: updateId,
    message: {
      message_id: 5000 + updateId,
      date: 1772456400,
      chat: { id: chat, type: "supergroup", title: "Equipe" },
      from: { id: 42, is_bot: false, first_name: "Ana" },
      text,
      reply_to_message: {
        message_id: replyTo,
        date: 1772456300,
        chat: { id: chat, type: "supergroup" },
        text: "⚠ URGENTE",
      },
    },
  });
}

function postTelegram(body: string, secret: string | null = TELEGRAM_SECRET, name = "equipe") {
  return callServer(
    port,
    "POST",
    `/replies/telegram/${name}`,
    {
      "content-type": "application/json",
      ...(secret === null ? {} : { "x-telegram-bot-api-secret-token": secret }),
    },
    body,
  );
}

/** The message_id the fake Telegram gave the row's message. */
function telegramIdOf(row: OutboxRow): number {
  const key = row.providerMessageId ?? "";
  expect(key).toMatch(new RegExp(`^${CHAT}:\\d+$`, "u"));
  return Number(key.split(":")[1]);
}

describe("a Telegram reply", () => {
  it("'Ok, ciente' to the alert's message, in its chat, acknowledges it as the endpoint, once", async () => {
    await sendAlert("Silva x Estado");
    const row = rowOf("telegram", "Silva");
    clock.advance(HOUR);

    const first = await postTelegram(telegramReply("Ok, ciente", telegramIdOf(row)));
    clock.advance(HOUR);
    const again = await postTelegram(telegramReply("Estou ciente.", telegramIdOf(row)));

    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(acknowledgedOf(store.db, row)).toEqual({
      at: "2026-03-02T14:00:00.000Z",
      by: "telegram:equipe",
    });
    expect(events()).toEqual([{ by: "telegram:equipe", via: "telegram" }]);
  });

  it("to another message, from another chat, or saying anything else acknowledges nothing", async () => {
    await sendAlert("Silva x Estado");
    await sendAlert("Lima x Banco", false);
    const row = rowOf("telegram", "Silva");
    const quiet = rowOf("telegram", "Lima");
    const id = telegramIdOf(row);

    const answers = await Promise.all([
      postTelegram(telegramReply("ciente", id + 50)),
      postTelegram(telegramReply("ciente", id, -1009999999999)),
      postTelegram(telegramReply("ciente?", id)),
      postTelegram(telegramReply("não estou ciente", id)),
      postTelegram(telegramReply("ciente", telegramIdOf(quiet))),
      postTelegram(JSON.stringify({ update_id: 1, edited_message: { text: "ciente" } })),
      postTelegram("not json"),
    ]);

    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(quiet.ackId).toBeNull();
    expect(acknowledgedOf(store.db, row)).toEqual({ at: null, by: null });
    expect(events()).toEqual([]);
  });

  it("without the secret token, or with another, is refused (401) and never read", async () => {
    await sendAlert("Silva x Estado");
    const row = rowOf("telegram", "Silva");
    const reply = telegramReply("ciente", telegramIdOf(row));

    const none = await postTelegram(reply, null);
    const wrong = await postTelegram(reply, `${TELEGRAM_SECRET}x`);
    const get = await callServer(port, "GET", "/replies/telegram/equipe", {
      "x-telegram-bot-api-secret-token": TELEGRAM_SECRET,
    });
    const unknown = await postTelegram(reply, TELEGRAM_SECRET, "outra");

    expect(none.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(get.status).toBe(405);
    expect(unknown.status).toBe(404);
    expect(acknowledgedOf(store.db, row)).toEqual({ at: null, by: null });
    for (const text of [none.body, wrong.body, unknown.body, logged]) {
      expect(text).not.toContain(TELEGRAM_SECRET);
    }
    expect(logged).toContain("without the right secret token");
  });

  it("to a digest acknowledges each urgent alert it lists, none it lists without asking", async () => {
    queueAlert("Silva x Estado", true, ["resumo"]);
    queueAlert("Souza x União", true, ["resumo"]);
    queueAlert("Lima x Banco", false, ["resumo"]);
    // Due together: one message.
    await drainChats();
    const silva = rowOf("telegram", "Silva");
    const souza = rowOf("telegram", "Souza");
    expect(silva.providerMessageId).toBe(souza.providerMessageId);
    expect(silva.providerMessageId).toBe(rowOf("telegram", "Lima").providerMessageId);

    const reply = await postTelegram(
      telegramReply("ciente", telegramIdOf(silva)),
      TELEGRAM_SECRET,
      "resumo",
    );
    const elsewhere = await postTelegram(telegramReply("ciente", telegramIdOf(silva)));

    expect(reply.status).toBe(200);
    expect(elsewhere.status).toBe(200);
    expect(acknowledgedOf(store.db, silva).by).toBe("telegram:resumo");
    expect(acknowledgedOf(store.db, souza).by).toBe("telegram:resumo");
    expect(events()).toHaveLength(2);
  });
});

// ---- WhatsApp ----

function whatsappReply(
  message: Record<string, unknown>,
  phoneNumberId = whatsapp.phoneNumberId,
): string {
  return JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: phoneNumberId },
              contacts: [{ profile: { name: "Ana" }, wa_id: String(message.from) }],
              messages: [{ id: `wamid.in${updateId++}`, timestamp: "1772456400", ...message }],
            },
          },
        ],
      },
    ],
  });
}

function textReply(from: string, contextId: string, body: string) {
  return { from, type: "text", text: { body }, context: { from: "15550783881", id: contextId } };
}

function signed(body: string, secret = APP_SECRET): Record<string, string> {
  const mac = createHmac("sha256", secret).update(body).digest("hex");
  return { "content-type": "application/json", "x-hub-signature-256": `sha256=${mac}` };
}

function postWhatsApp(body: string, headers = signed(body)) {
  return callServer(port, "POST", "/replies/whatsapp", headers, body);
}

const digits = (e164: string): string => e164.slice(1);

describe("a WhatsApp reply", () => {
  it("answers Meta's verification with the challenge, and only with the right verify token", async () => {
    const ok = await callServer(
      port,
      "GET",
      `/replies/whatsapp?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`,
    );
    const wrong = await callServer(
      port,
      "GET",
      "/replies/whatsapp?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1158201444",
    );
    const html = await callServer(
      port,
      "GET",
      `/replies/whatsapp?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=%3Cscript%3E`,
    );

    expect(ok).toEqual({ status: 200, body: "1158201444" });
    expect(wrong.status).toBe(403);
    expect(html.status).toBe(403);
    expect(wrong.body).not.toContain(VERIFY_TOKEN);
  });

  it("'ciente' from the watcher's number to our message acknowledges the alert as that number", async () => {
    await sendAlert("Silva x Estado");
    const ana = rowOf("whatsapp", "Silva", ANA);
    expect(ana.providerMessageId).toMatch(/^wamid\./u);
    clock.advance(HOUR);

    const body = whatsappReply(textReply(digits(ANA), ana.providerMessageId ?? "", "Ciente!"));
    const first = await postWhatsApp(body);
    const replay = await postWhatsApp(body);

    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(acknowledgedOf(store.db, ana)).toEqual({
      at: "2026-03-02T14:00:00.000Z",
      by: `whatsapp ${ANA}`,
    });
    expect(events()).toEqual([{ by: `whatsapp ${ANA}`, via: "whatsapp" }]);
  });

  it("counts a quick-reply button 'Ciente', and Ana's WhatsApp id without the ninth digit", async () => {
    await sendAlert("Silva x Estado");
    const ana = rowOf("whatsapp", "Silva", ANA);
    const button = {
      from: "556187654321",
      type: "button",
      button: { payload: "ack", text: "Ciente" },
      context: { from: "15550783881", id: ana.providerMessageId },
    };

    const answer = await postWhatsApp(whatsappReply(button));

    expect(answer.status).toBe(200);
    expect(acknowledgedOf(store.db, ana).by).toBe(`whatsapp ${ANA}`);
  });

  it("from another number, to another message, through another sending number: nothing", async () => {
    await sendAlert("Silva x Estado");
    const ana = rowOf("whatsapp", "Silva", ANA);
    const wamid = ana.providerMessageId ?? "";

    const answers = await Promise.all([
      postWhatsApp(whatsappReply(textReply(digits(RUI), wamid, "ciente"))),
      postWhatsApp(whatsappReply(textReply(digits(ANA), "wamid.someone-elses", "ciente"))),
      postWhatsApp(whatsappReply(textReply(digits(ANA), wamid, "ciente"), "999999999999999")),
      postWhatsApp(whatsappReply(textReply(digits(ANA), wamid, "ciente, mas o prazo está errado"))),
      postWhatsApp(whatsappReply({ from: digits(ANA), type: "text", text: { body: "ciente" } })),
    ]);

    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(acknowledgedOf(store.db, ana)).toEqual({ at: null, by: null });
    // Rui's own copy of the alert is his to acknowledge: his reply to his own message counts.
    const rui = rowOf("whatsapp", "Silva", RUI);
    await postWhatsApp(
      whatsappReply(textReply(digits(RUI), rui.providerMessageId ?? "", "ok ciente")),
    );
    expect(acknowledgedOf(store.db, ana).by).toBe(`whatsapp ${RUI}`);
  });

  it("refuses a forged or missing signature (401) before reading, and logs no secret", async () => {
    await sendAlert("Silva x Estado");
    const ana = rowOf("whatsapp", "Silva", ANA);
    const body = whatsappReply(textReply(digits(ANA), ana.providerMessageId ?? "", "ciente"));
    const other = whatsappReply(textReply(digits(ANA), "wamid.x", "ciente"));

    const forged = await postWhatsApp(body, signed(body, "not-the-app-secret"));
    const moved = await postWhatsApp(body, signed(other));
    const missing = await postWhatsApp(body, { "content-type": "application/json" });

    expect([forged.status, moved.status, missing.status]).toEqual([401, 401, 401]);
    expect(acknowledgedOf(store.db, ana)).toEqual({ at: null, by: null });
    for (const text of [forged.body, missing.body, logged]) {
      expect(text).not.toContain(APP_SECRET);
      expect(text).not.toContain(VERIFY_TOKEN);
      expect(text).not.toContain(WA_TOKEN);
    }
    expect(logged).toContain("without a valid X-Hub-Signature-256");
  });

  it("after the acknowledgement expired records nothing", async () => {
    await sendAlert("Silva x Estado");
    const ana = rowOf("whatsapp", "Silva", ANA);
    clock.advance(24 * HOUR);

    await postWhatsApp(
      whatsappReply(textReply(digits(ANA), ana.providerMessageId ?? "", "ciente")),
    );

    expect(acknowledgedOf(store.db, ana)).toEqual({ at: null, by: null });
  });
});
