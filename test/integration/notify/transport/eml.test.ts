import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../../src/log.js";
import { drainOutbox } from "../../../../src/notify/outbox/drain.js";
import type { OutgoingMessage } from "../../../../src/notify/transport/mail-transport.js";
import { createTransport } from "../../../../src/notify/transport/transports.js";
import { thisProcessClaimant } from "../../../../src/store/lease.js";
import { realSystem } from "../../../../src/system.js";
import { FakeClock } from "../../../fakes/fake-clock.js";
import {
  DOMAIN,
  FROM,
  LIST_ID,
  queueChange,
  type TempStore,
  tempStore,
} from "../../../support/outbox-store.js";
import { sampleAlert } from "../../../unit/notify/render/sample-alert.js";

let store: TempStore;

beforeEach(() => {
  store = tempStore("notify-eml-");
});

afterEach(() => {
  store.dispose();
});

function message(overrides: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    from: FROM,
    to: "ana@example.com",
    subject: "[datajud] Teste: em andamento (nenhuma movimentação nova)",
    text: "Olá\n",
    html: "<p>Olá</p>",
    messageId: "<alert.abc123@monitor.example.com>",
    inReplyTo: "<case.def456@monitor.example.com>",
    references: "<case.def456@monitor.example.com>",
    headers: { "List-Id": `datajud-monitor <${LIST_ID}>` },
    ...overrides,
  };
}

describe(".eml transport", () => {
  it("writes a parseable private file named after the Message-ID", async () => {
    const outboxDir = join(store.dir, "outbox", "mail");
    const transport = createTransport({ smtpUrl: null, outboxDir });

    const result = await transport.send(message());
    transport.close();

    expect(result.path).toBe(join(outboxDir, "alert.abc123@monitor.example.com.eml"));
    expect(statSync(outboxDir).mode & 0o777).toBe(0o700);
    expect(statSync(result.path ?? "").mode & 0o777).toBe(0o600);
    const mail = await simpleParser(readFileSync(result.path ?? ""));
    expect(mail.messageId).toBe("<alert.abc123@monitor.example.com>");
    expect(mail.inReplyTo).toBe("<case.def456@monitor.example.com>");
    expect(mail.subject).toBe("[datajud] Teste: em andamento (nenhuma movimentação nova)");
    expect(mail.text).toBe("Olá\n");
    expect(mail.html).toBe("<p>Olá</p>");
    expect(transport.describe()).toBe(`.eml files in ${outboxDir}`);
  });

  it("replaces the file on a resend of the same message instead of adding one", async () => {
    const outboxDir = join(store.dir, "outbox");
    const transport = createTransport({ smtpUrl: "", outboxDir });

    await transport.send(message({ text: "first\n" }));
    await transport.send(message({ text: "second\n" }));
    transport.close();

    expect(readdirSync(outboxDir)).toEqual(["alert.abc123@monitor.example.com.eml"]);
  });

  it("removes temporary files a killed writer left, and keeps those of a live one", async () => {
    const outboxDir = join(store.dir, "outbox");
    mkdirSync(outboxDir, { recursive: true });
    const me = thisProcessClaimant(realSystem);
    const host = me.holder.replace(/^\d+@(.+):[0-9a-f]+$/, "$1");
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    const abandoned = `.alert.old@monitor.example.com.eml~${gone}@${host}:0badf00d.tmp`;
    const inProgress = `.alert.now@monitor.example.com.eml~${process.pid}@${host}:0c0ffee0.tmp`;
    writeFileSync(join(outboxDir, abandoned), "half a mess");
    writeFileSync(join(outboxDir, inProgress), "being written");
    const transport = createTransport({ smtpUrl: null, outboxDir, writer: me });

    await transport.send(message());
    transport.close();

    expect(readdirSync(outboxDir).sort()).toEqual(
      [inProgress, "alert.abc123@monitor.example.com.eml"].sort(),
    );
  });

  it("refuses a header value with a line break", async () => {
    const transport = createTransport({ smtpUrl: null, outboxDir: join(store.dir, "outbox") });

    const error = await transport
      .send(message({ subject: "ok\r\nBcc: victim@example.com" }))
      .catch((e: unknown) => e);
    transport.close();

    expect(error).toMatchObject({ name: "MailError", kind: "header" });
  });

  it("is what a drain uses without SMTP_URL, recording the file as the response", async () => {
    const outboxDir = join(store.dir, "outbox");
    const transport = createTransport({ smtpUrl: null, outboxDir });
    queueChange(store.db, sampleAlert(), ["ana@example.com"]);

    const result = await drainOutbox({
      claimant: thisProcessClaimant(realSystem),
      db: store.db,
      transport,
      from: FROM,
      listId: LIST_ID,
      domain: DOMAIN,
      clock: new FakeClock({ now: Date.parse("2026-03-01T10:00:00.000Z") }),
      maxAttempts: 3,
      logger: silentLogger(),
    });
    transport.close();

    expect(result).toEqual({ sent: 1, failed: 0, dead: 0, deferred: 0, lastError: null });
    const row = store.db
      .prepare<[], { smtp_response: string; message_id: string }>(
        "SELECT smtp_response, message_id FROM outbox",
      )
      .get();
    const mail = await simpleParser(readFileSync(row?.smtp_response ?? ""));
    expect(mail.messageId).toBe(row?.message_id);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : "").toBe("ana@example.com");
    expect(mail.text).toContain("MOVIMENTAÇÕES NOVAS (2)");
    expect(mail.html).toContain("Origem dos dados");
  });
});
