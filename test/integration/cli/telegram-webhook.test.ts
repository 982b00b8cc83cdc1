import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { endpointCommand } from "../../../src/cli/endpoint.js";
import { type FakeTelegram, startFakeTelegram } from "../../fakes/fake-chat.js";
import { captureIo } from "../../support/cli-io.js";

/*
 * `datajud-monitor endpoint telegram-webhook NAME` (docs/channels.md, Replies): points the bot at
 * the daemon's reply webhook with TELEGRAM_WEBHOOK_SECRET as its secret token, through the Bot
 * API's setWebhook (a loopback fake); refuses without links or the secret; never shows the bot's
 * token or the secret.
 */

const BOT_TOKEN = "123456:telegram-bot-token";
const WEBHOOK_SECRET = "tg_webhook_secret_0123456789abcdef0123456789";
const ACK_SECRET = "0123456789abcdef0123456789abcdef-ack";

let dir: string;
let telegram: FakeTelegram;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "monitor-tg-webhook-"));
  telegram = await startFakeTelegram(BOT_TOKEN);
});
afterEach(async () => {
  await telegram.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(env: NodeJS.ProcessEnv, base: string | null = "https://monitor.example.com") {
  const config = [
    ...(base === null ? [] : ["acknowledgement:", `  publicBaseUrl: ${base}`]),
    "notify:",
    "  endpoints:",
    `    equipe: { channel: telegram, tokenVariable: BOT_TOKEN, chatId: -100123, apiBase: "${telegram.apiBase}" }`,
    "",
  ].join("\n");
  writeFileSync(join(dir, "monitor.yaml"), config);
  const io = captureIo(
    { MONITOR_CONFIG: join(dir, "monitor.yaml"), BOT_TOKEN, ACK_SECRET, ...env },
    dir,
  );
  const code = await endpointCommand.run(
    { values: {}, positionals: ["telegram-webhook", "equipe"] },
    io,
  );
  return { code, out: io.out(), err: io.err(), all: `${io.out()}${io.err()}` };
}

describe("endpoint telegram-webhook", () => {
  it("sets the bot's webhook to the endpoint's reply address, with the secret token", async () => {
    const result = await run({ TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET });

    expect(result.code).toBe(0);
    expect(telegram.webhook).toEqual({
      url: "https://monitor.example.com/replies/telegram/equipe",
      secretToken: WEBHOOK_SECRET,
      allowedUpdates: ["message"],
    });
    expect(result.out).toContain("https://monitor.example.com/replies/telegram/equipe");
    expect(result.all).not.toContain(WEBHOOK_SECRET);
    expect(result.all).not.toContain(BOT_TOKEN);
  });

  it("refuses without the secret or without acknowledgement links, sending nothing", async () => {
    const noSecret = await run({});
    const noLinks = await run({ TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET }, null);

    expect(noSecret.code).toBe(2);
    expect(noSecret.err).toContain("TELEGRAM_WEBHOOK_SECRET is not set");
    expect(noLinks.code).toBe(2);
    expect(noLinks.err).toContain("acknowledgement links are off");
    expect(telegram.requests).toEqual([]);
  });

  it("says what Telegram answered when it refuses, without the bot's token", async () => {
    telegram.script.push({
      status: 400,
      body: JSON.stringify({
        ok: false,
        error_code: 400,
        description: `Bad Request: bad webhook: Failed to resolve host (bot ${BOT_TOKEN})`,
      }),
      headers: { "content-type": "application/json" },
    });

    const result = await run({ TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET });

    expect(result.code).toBe(1);
    expect(result.err).toContain(
      "setWebhook failed: Telegram answered HTTP 400: Bad Request: bad webhook",
    );
    expect(result.all).not.toContain(BOT_TOKEN);
    expect(result.all).not.toContain(WEBHOOK_SECRET);
  });
});
