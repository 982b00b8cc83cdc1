import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inspectEndpoints } from "../../../src/cli/doctor-endpoints.js";
import { testNotifyCommand } from "../../../src/cli/test-notify.js";
import { loadConfig } from "../../../src/config/load-config.js";
import { closeDatabase, openDatabase } from "../../../src/store/database.js";
import { disableEndpoint } from "../../../src/store/endpoint-state.js";
import type { EndpointFake } from "../../fakes/endpoint-fake.js";
import { startFakeTelegram } from "../../fakes/fake-chat.js";
import { startFakeWebhookReceiver } from "../../fakes/fake-webhook-receiver.js";
import { startFakeWhatsApp } from "../../fakes/fake-whatsapp.js";
import { captureIo } from "../../support/cli-io.js";

const SECRET = `whsec_${Buffer.alloc(32, 6).toString("base64")}`;
let dir: string;
const fakes: EndpointFake[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "monitor-test-notify-"));
});

afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function testNotify(
  env: NodeJS.ProcessEnv,
  target: string,
  ...flags: string[]
): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo({ MONITOR_DB: join(dir, "monitor.db"), ...env }, dir);
  const values = flags[0] === "--to" ? { to: flags[1] } : {};
  const code = await testNotifyCommand.run({ values, positionals: [target] }, io);
  return { code, out: io.out(), err: io.err() };
}

describe("monitor test-notify", () => {
  it("sends the sample to WEBHOOK_URL, signed, marked test, and says what the receiver answered", async () => {
    const receiver = await startFakeWebhookReceiver({ secret: SECRET });
    fakes.push(receiver);

    const run = await testNotify({ WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: SECRET }, "webhook");

    expect(run.code).toBe(0);
    expect(run.out).toMatch(
      /^test notification delivered: webhook endpoint "webhook" \(127\.0\.0\.1:\d+\) answered HTTP 204\n$/,
    );
    expect(receiver.deliveries.map((d) => d.verified)).toEqual([true]);
    expect(receiver.events[0]).toMatchObject({ type: "case.movement", test: true, version: 1 });
    expect(`${run.out}${run.err}`).not.toContain("/hooks/datajud");
    expect(`${run.out}${run.err}`).not.toContain(SECRET);
  });

  it("to an endpoint a 410 disabled: delivered, and says how to enable it again", async () => {
    const receiver = await startFakeWebhookReceiver({ secret: SECRET });
    fakes.push(receiver);
    const db = openDatabase(join(dir, "monitor.db"));
    disableEndpoint(
      db,
      { channel: "webhook", name: "webhook" },
      "2026-03-01T10:00:00.000Z",
      "HTTP 410",
    );
    closeDatabase(db);

    const run = await testNotify({ WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: SECRET }, "webhook");

    expect(run.code).toBe(0);
    expect(run.out).toContain(
      "the monitor still holds it disabled (a 410 Gone); to send alerts to it again: datajud-monitor endpoint enable webhook",
    );
  });

  it("a refused bot token: exit 1 with Telegram's answer, never the token", async () => {
    const telegram = await startFakeTelegram();
    fakes.push(telegram);
    const config = `notify:\n  endpoints:\n    plantao: { channel: telegram, tokenVariable: BOT_TOKEN, chatId: 42, apiBase: "${telegram.apiBase}" }\n`;
    const configFile = join(dir, "monitor.yaml");
    writeFileSync(configFile, config);

    const run = await testNotify(
      { MONITOR_CONFIG: configFile, BOT_TOKEN: "777:not-the-right-token" },
      "telegram",
    );

    expect(run.code).toBe(1);
    expect(run.err).toContain('telegram endpoint "plantao"');
    expect(run.err).toContain("HTTP 401");
    expect(run.err).toContain("Unauthorized");
    expect(`${run.out}${run.err}`).not.toContain("not-the-right-token");
  });

  it("to WhatsApp: the sample as the approved template; a refused token is exit 1, never shown", async () => {
    const token = "EAAGtestNOTIFYwhatsappTOKEN42";
    const api = await startFakeWhatsApp({ token });
    fakes.push(api);
    const config = [
      "notify:",
      "  endpoints:",
      `    ana-zap: { channel: whatsapp, tokenVariable: WHATSAPP_TOKEN, phoneNumberId: "${api.phoneNumberId}", to: "+5511987654321", template: { name: alerta_processo, language: pt_BR }, apiBase: "${api.apiBase}" }`,
    ].join("\n");
    const configFile = join(dir, "monitor.yaml");
    writeFileSync(configFile, config);

    const sent = await testNotify({ MONITOR_CONFIG: configFile, WHATSAPP_TOKEN: token }, "ana-zap");
    const refused = await testNotify(
      { MONITOR_CONFIG: configFile, WHATSAPP_TOKEN: "EAAGexpiredTOKEN0000" },
      "whatsapp",
    );

    expect(sent.code).toBe(0);
    expect(sent.out).toMatch(
      /delivered: whatsapp endpoint "ana-zap" \(127\.0\.0\.1:\d+\) answered HTTP 200/,
    );
    expect(api.messages).toHaveLength(1);
    expect(api.messages[0]).toMatchObject({ to: "5511987654321", template: "alerta_processo" });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("HTTP 401");
    expect(refused.err).toContain("WhatsApp access token is invalid or expired");
    for (const run of [sent, refused]) {
      expect(`${run.out}${run.err}`).not.toContain(token);
      expect(`${run.out}${run.err}`).not.toContain("EAAGexpiredTOKEN0000");
    }
  });

  it("to a per-watcher WhatsApp endpoint (no to:): only with --to, to that number", async () => {
    const token = "EAAGtestNOTIFYwhatsappTOKEN42";
    const api = await startFakeWhatsApp({ token });
    fakes.push(api);
    const config = [
      "notify:",
      "  endpoints:",
      `    zap: { channel: whatsapp, tokenVariable: WHATSAPP_TOKEN, phoneNumberId: "${api.phoneNumberId}", template: { name: alerta_processo, language: pt_BR }, apiBase: "${api.apiBase}" }`,
    ].join("\n");
    const configFile = join(dir, "monitor.yaml");
    writeFileSync(configFile, config);
    const env = { MONITOR_CONFIG: configFile, WHATSAPP_TOKEN: token };

    const without = await testNotify(env, "zap");
    const badNumber = await testNotify(env, "zap", "--to", "11 98765-4321");
    const sent = await testNotify(env, "zap", "--to", "+5561987654321");

    expect(without.code).toBe(2);
    expect(without.err).toContain("give one with --to +5511987654321");
    expect(badNumber.code).toBe(2);
    expect(badNumber.err).toContain("is not a phone number in E.164 form");
    expect(sent.code).toBe(0);
    expect(api.messages).toHaveLength(1);
    expect(api.messages[0]).toMatchObject({ to: "5561987654321" });
  });

  it("an endpoint nobody configured: exit 2 saying how to add one", async () => {
    const run = await testNotify({}, "slack");

    expect(run.code).toBe(2);
    expect(run.err).toContain("no endpoint is configured");
  });
});

describe("doctor's look at the endpoints", () => {
  it("resolves each host and refuses one that points inside the network, sending nothing", async () => {
    const loaded = loadConfig({
      env: { WEBHOOK_URL: "https://sistema.example.com/hooks/abc", WEBHOOK_SECRET: SECRET },
      cwd: dir,
      readFile: () => undefined,
    });
    if (!loaded.ok) throw new Error(loaded.errors.join("\n"));

    const inside = await inspectEndpoints(loaded.config, async () => [{ address: "192.168.0.10" }]);
    const outside = await inspectEndpoints(loaded.config, async () => [
      { address: "93.184.216.34" },
    ]);

    expect(inside[0]?.ok).toBe(false);
    expect(inside[0]?.line).toMatch(/192\.168\.0\.10 is a private address/);
    expect(outside[0]).toEqual({
      ok: true,
      line: 'webhook endpoint "webhook" (sistema.example.com): every event but case.checked; from WEBHOOK_URL, WEBHOOK_SECRET; https, 1 address(es) allowed',
    });
    expect(JSON.stringify([inside, outside])).not.toContain("/hooks/abc");
  });
});
