import { type ParsedMail, simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../../src/log.js";
import { type DrainOptions, drainOutbox } from "../../../../src/notify/outbox/drain.js";
import { caseThreadKey, threadId } from "../../../../src/notify/outbox/message-ids.js";
import type { MailTransport } from "../../../../src/notify/transport/mail-transport.js";
import { createTransport } from "../../../../src/notify/transport/transports.js";
import { thisProcessClaimant } from "../../../../src/store/lease.js";
import {
  deadOutbox,
  dueOutbox,
  insertOutboxRow,
  outboxCounts,
} from "../../../../src/store/outbox.js";
import { realSystem } from "../../../../src/system.js";
import { FakeClock } from "../../../fakes/fake-clock.js";
import { type SmtpSink, startSmtpSink } from "../../../fakes/smtp-sink.js";
import {
  DOMAIN,
  FROM,
  LIST_ID,
  queueChange,
  type TempStore,
  tempStore,
} from "../../../support/outbox-store.js";
import { sampleAlert, sampleSummary } from "../../../unit/notify/render/sample-alert.js";

const CREDENTIALS = { user: "monitor", pass: "s3cr3t/p@ss wörd!" };
const MINUTE = 60_000;

let store: TempStore;
let sink: SmtpSink;
let transport: MailTransport;
let clock: FakeClock;

beforeEach(async () => {
  store = tempStore("notify-drain-");
  sink = await startSmtpSink({ auth: CREDENTIALS });
  transport = createTransport({ smtpUrl: sink.url(CREDENTIALS), outboxDir: store.dir });
  clock = new FakeClock({ now: Date.parse("2026-03-01T10:00:00.000Z") });
});

afterEach(async () => {
  transport.close();
  await sink.close();
  store.dispose();
});

function drain(overrides: Partial<DrainOptions> = {}): ReturnType<typeof drainOutbox> {
  return drainOutbox({
    claimant: thisProcessClaimant(realSystem),
    db: store.db,
    transport,
    from: FROM,
    listId: LIST_ID,
    domain: DOMAIN,
    clock,
    maxAttempts: 5,
    logger: silentLogger(),
    ...overrides,
  });
}

async function parsedMessages(): Promise<ParsedMail[]> {
  return Promise.all(sink.messages.map((m) => simpleParser(m.raw)));
}

/** The raw header line: mailparser folds List-* headers into one object. */
function header(mail: ParsedMail, name: string): string {
  return mail.headerLines.find((h) => h.key === name)?.line ?? "";
}

describe("drainOutbox over SMTP", () => {
  it("sends one threaded text+HTML alert per watcher and marks the rows sent", async () => {
    const content = sampleAlert();
    queueChange(store.db, content, ["ana@example.com", "bruno@example.com", "ANA@example.com"]);

    const result = await drain();

    expect(result).toEqual({ sent: 2, failed: 0, dead: 0, deferred: 0, lastError: null });
    expect(sink.messages.map((m) => m.to)).toEqual([["ana@example.com"], ["bruno@example.com"]]);
    expect(sink.messages.every((m) => m.user === CREDENTIALS.user)).toBe(true);
    const [ana, bruno] = await parsedMessages();
    if (ana === undefined || bruno === undefined) throw new Error("expected two messages");
    expect(ana.subject).toBe(
      "[datajud] ⚠ Silva x Souza (despejo): decidido (2 movimentações novas)",
    );
    expect(ana.from?.value[0]?.address).toBe("monitor@monitor.example.com");
    expect(ana.text).toContain("Categoria: concluso para decisão → decidido");
    expect(ana.html).toContain("Requer atenção do advogado");
    const thread = threadId(
      caseThreadKey(content.caseNumber, content.court),
      "ana@example.com",
      DOMAIN,
    );
    expect(ana.inReplyTo).toBe(thread);
    expect(ana.references).toBe(thread);
    expect(bruno.inReplyTo).not.toBe(thread);
    expect(header(ana, "list-id")).toContain(`<${LIST_ID}>`);
    expect(header(ana, "auto-submitted")).toBe("Auto-Submitted: auto-generated");
    const rows = store.db
      .prepare<[], { message_id: string; status: string; smtp_response: string }>(
        "SELECT message_id, status, smtp_response FROM outbox ORDER BY id",
      )
      .all();
    expect(rows.map((r) => r.status)).toEqual(["sent", "sent"]);
    expect(ana.messageId).toBe(rows[0]?.message_id);
    expect(rows[0]?.smtp_response).toMatch(/^250/);
  });

  it("keeps a case's later alerts in the same thread with a new Message-ID", async () => {
    const first = sampleAlert();
    const later = sampleAlert({ previous: sampleSummary(), changeKinds: ["new_movements"] });
    queueChange(store.db, first, ["ana@example.com"], "2026-03-01T10:00:00.000Z");
    await drain();
    queueChange(store.db, later, ["ana@example.com"], "2026-03-02T10:00:00.000Z");

    await drain();

    const [a, b] = await parsedMessages();
    expect(a?.inReplyTo).toBe(
      threadId(caseThreadKey(first.caseNumber, first.court), "ana@example.com", DOMAIN),
    );
    expect(b?.inReplyTo).toBe(a?.inReplyTo);
    expect(b?.references).toBe(a?.references);
    expect(b?.messageId).not.toBe(a?.messageId);
  });

  it("never lets a hostile label or DataJud text into the headers", async () => {
    const content = sampleAlert({
      label: "<script>alert(1)</script>\r\nBcc: victim@evil.example\r\n",
    });
    queueChange(store.db, content, ["ana@example.com"]);

    await drain();

    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]?.to).toEqual(["ana@example.com"]);
    const [mail] = await parsedMessages();
    expect(mail?.headers.has("bcc")).toBe(false);
    expect(mail?.subject).toBe(
      "[datajud] ⚠ <script>alert(1)</script> Bcc: victim@evil.example: decidido (2 movimentações novas)",
    );
    expect(mail?.html).not.toContain("<script>");
    expect(mail?.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("retries refused messages with backoff and delivers each exactly once", async () => {
    queueChange(store.db, sampleAlert(), ["ana@example.com", "bruno@example.com"]);
    sink.refuseNext(3, 451);

    const first = await drain();
    const early = await drain();
    await clock.advance(MINUTE);
    const second = await drain();
    await clock.advance(2 * MINUTE);
    const third = await drain();
    const fourth = await drain();

    expect(first).toEqual({
      sent: 0,
      failed: 2,
      dead: 0,
      deferred: 0,
      lastError: expect.any(String),
    });
    expect(early).toEqual({ sent: 0, failed: 0, dead: 0, deferred: 0, lastError: null });
    expect(second).toEqual({
      sent: 1,
      failed: 1,
      dead: 0,
      deferred: 0,
      lastError: expect.any(String),
    });
    expect(third).toEqual({ sent: 1, failed: 0, dead: 0, deferred: 0, lastError: null });
    expect(fourth).toEqual({ sent: 0, failed: 0, dead: 0, deferred: 0, lastError: null });
    expect(sink.refused).toBe(3);
    expect(sink.messages.map((m) => m.to[0]).sort()).toEqual([
      "ana@example.com",
      "bruno@example.com",
    ]);
    const attempts = store.db
      .prepare<[], { attempts: number; last_error: string }>(
        "SELECT attempts, last_error FROM outbox ORDER BY id",
      )
      .all();
    expect(attempts.map((a) => a.attempts)).toEqual([2, 1]);
    expect(attempts[0]?.last_error).toContain("451");
  });

  it("stops at an outage, leaving the other rows due, and sends them all once SMTP is back", async () => {
    queueChange(store.db, sampleAlert(), [
      "ana@example.com",
      "bruno@example.com",
      "carla@example.com",
    ]);
    sink.refuseConnections(100);

    const during = await drain();
    sink.refuseConnections(0);
    const after = await drain();
    await clock.advance(MINUTE);
    const later = await drain();

    expect(during).toEqual({
      sent: 0,
      failed: 1,
      dead: 0,
      deferred: 2,
      lastError: expect.any(String),
    });
    expect(after).toEqual({ sent: 2, failed: 0, dead: 0, deferred: 0, lastError: null });
    expect(later).toEqual({ sent: 1, failed: 0, dead: 0, deferred: 0, lastError: null });
    expect(sink.messages.map((m) => m.to[0]).sort()).toEqual([
      "ana@example.com",
      "bruno@example.com",
      "carla@example.com",
    ]);
    expect(outboxCounts(store.db)).toEqual({ pending: 0, sent: 3, dead: 0 });
  });

  it("gives a row up after maxAttempts and shows it as dead", async () => {
    queueChange(store.db, sampleAlert(), ["ana@example.com"]);
    sink.refuseNext(10, 550);

    const first = await drain({ maxAttempts: 2 });
    await clock.advance(MINUTE);
    const second = await drain({ maxAttempts: 2 });
    await clock.advance(24 * 60 * MINUTE);
    const third = await drain({ maxAttempts: 2 });

    expect(first).toMatchObject({ failed: 1, dead: 0 });
    expect(second).toMatchObject({ failed: 0, dead: 1 });
    expect(third).toEqual({ sent: 0, failed: 0, dead: 0, deferred: 0, lastError: null });
    expect(sink.refused).toBe(2);
    expect(deadOutbox(store.db)).toMatchObject([{ attempts: 2, status: "dead" }]);
    expect(deadOutbox(store.db)[0]?.lastError).toContain("550");
  });

  it("marks a row it cannot render dead without sending anything", async () => {
    insertOutboxRow(store.db, {
      changeId: null,
      caseId: null,
      channel: "email",
      recipient: "ana@example.com",
      kind: "alert",
      messageType: "movement",
      dedupeKey: "broken",
      subject: "x",
      messageId: "<broken@monitor.example.com>",
      payload: { not: "an alert" },
      createdAt: "2026-03-01T10:00:00.000Z",
    });
    insertOutboxRow(store.db, {
      changeId: null,
      caseId: null,
      channel: "email",
      recipient: "ana@example.com, evil@example.com",
      kind: "alert",
      messageType: "movement",
      dedupeKey: "two-recipients",
      subject: "x",
      messageId: "<two@monitor.example.com>",
      payload: sampleAlert(),
      createdAt: "2026-03-01T10:00:00.000Z",
    });

    const result = await drain();

    expect(result).toEqual({
      sent: 0,
      failed: 0,
      dead: 2,
      deferred: 0,
      lastError: expect.any(String),
    });
    expect(sink.messages).toHaveLength(0);
    expect(dueOutbox(store.db, "email", "2030-01-01T00:00:00.000Z", 10)).toEqual([]);
  });

  it("keeps the SMTP password out of errors, stored errors and describe()", async () => {
    queueChange(store.db, sampleAlert(), ["ana@example.com"]);
    const wrong = createTransport({
      smtpUrl: sink.url({ user: "monitor", pass: "wr0ng-p@ss/word" }),
      outboxDir: store.dir,
    });

    const result = await drain({ transport: wrong });
    const sendError = await wrong
      .send({
        from: FROM,
        to: "ana@example.com",
        subject: "x",
        text: "x",
        html: "x",
        messageId: "<x@monitor.example.com>",
        inReplyTo: "<t@monitor.example.com>",
        references: "<t@monitor.example.com>",
        headers: {},
      })
      .catch((error: unknown) => error);
    wrong.close();

    expect(result).toMatchObject({ failed: 1, deferred: 0 });
    const stored = store.db
      .prepare<[], { last_error: string }>("SELECT last_error FROM outbox")
      .get();
    expect(stored?.last_error).toContain("535");
    for (const text of [
      stored?.last_error,
      String(sendError),
      JSON.stringify(sendError),
      wrong.describe(),
    ]) {
      expect(text).not.toContain("wr0ng");
      expect(text).not.toContain(encodeURIComponent("wr0ng-p@ss/word"));
    }
    expect(transport.describe()).toBe(
      `smtp://monitor@127.0.0.1:${sink.port} (STARTTLS when offered)`,
    );
  });
});
