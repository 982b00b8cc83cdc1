import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type ParsedMail, simpleParser } from "mailparser";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../../src/log.js";
import { type DrainOptions, drainOutbox } from "../../../../src/notify/outbox/drain.js";
import { caseThreadKey, threadId } from "../../../../src/notify/outbox/message-ids.js";
import type { MailTransport } from "../../../../src/notify/transport/mail-transport.js";
import { createTransport } from "../../../../src/notify/transport/transports.js";
import type { Db } from "../../../../src/store/database.js";
import { thisProcessClaimant } from "../../../../src/store/lease.js";
import { outboxCounts } from "../../../../src/store/outbox.js";
import { realSystem } from "../../../../src/system.js";
import { FakeClock } from "../../../fakes/fake-clock.js";
import { type SmtpSink, startSmtpSink } from "../../../fakes/smtp-sink.js";
import { nodeArgs } from "../../../support/cli-process.js";
import { killNow } from "../../../support/kill.js";
import {
  DIGEST_POLICY,
  DOMAIN,
  FROM,
  LIST_ID,
  queueChange,
  type TempStore,
  tempStore,
} from "../../../support/outbox-store.js";
import { sampleAlert, sampleSummary } from "../../../unit/notify/render/sample-alert.js";

const CHILD = fileURLToPath(new URL("./drain-child.ts", import.meta.url));
const NOW = "2026-03-01T10:00:00.000Z";
const MINUTE = 60_000;

let store: TempStore | undefined;
let sink: SmtpSink | undefined;
let transport: MailTransport | undefined;
let child: ChildProcess | undefined;

afterEach(async () => {
  child?.kill("SIGKILL");
  child = undefined;
  transport?.close();
  await sink?.close();
  store?.dispose();
  store = undefined;
  sink = undefined;
  transport = undefined;
});

function quietCase(caseNumber: string, label: string): ReturnType<typeof sampleAlert> {
  return sampleAlert({
    caseNumber,
    label,
    current: sampleSummary({ needsLawyerAttention: false, attentionReasons: [] }),
  });
}

function drain(db: Db, t: MailTransport, at: number, overrides: Partial<DrainOptions> = {}) {
  return drainOutbox({
    claimant: thisProcessClaimant(realSystem),
    db,
    transport: t,
    from: FROM,
    listId: LIST_ID,
    domain: DOMAIN,
    clock: new FakeClock({ now: at }),
    maxAttempts: 5,
    logger: silentLogger(),
    ...overrides,
  });
}

async function parsed(s: SmtpSink): Promise<ParsedMail[]> {
  return Promise.all(s.messages.map((m) => simpleParser(m.raw)));
}

function rows(
  db: Db,
): Array<{ recipient: string; status: string; messageId: string; smtp: string }> {
  return db
    .prepare<[], { recipient: string; status: string; messageId: string; smtp: string }>(
      "SELECT recipient, status, message_id AS messageId, smtp_response AS smtp FROM outbox ORDER BY id",
    )
    .all();
}

describe("digest delivery", () => {
  it("sends each watcher one e-mail listing every changed case, rows marked together", async () => {
    store = tempStore("notify-digest-");
    sink = await startSmtpSink();
    transport = createTransport({ smtpUrl: sink.url(), outboxDir: store.dir });
    queueChange(store.db, sampleAlert(), ["ana@example.com"], NOW, DIGEST_POLICY);
    queueChange(
      store.db,
      quietCase("0000002-00.2025.8.07.0001", "<script>alert(1)</script>\r\nBcc: evil@x.example"),
      ["ana@example.com"],
      NOW,
      DIGEST_POLICY,
    );
    queueChange(
      store.db,
      quietCase("0000003-00.2025.8.07.0001", "Terceiro caso"),
      ["ana@example.com", "bruno@example.com"],
      NOW,
      DIGEST_POLICY,
    );

    const result = await drain(store.db, transport, Date.parse(NOW));

    expect(result).toEqual({ sent: 2, failed: 0, dead: 0, deferred: 0, lastError: null });
    expect(sink.messages.map((m) => m.to)).toEqual([["ana@example.com"], ["bruno@example.com"]]);
    const [ana, bruno] = await parsed(sink);
    if (ana === undefined || bruno === undefined) throw new Error("expected two e-mails");
    expect(ana.subject).toBe("[datajud] ⚠ 3 processos com novidades");
    expect(bruno.subject).toBe("[datajud] 1 processo com novidades");
    for (const label of ["Silva x Souza (despejo)", "Terceiro caso", "0000002-00.2025.8.07.0001"]) {
      expect(ana.text).toContain(label);
      expect(ana.html).toContain(label);
    }
    expect(ana.text).toContain("1. ⚠ Silva x Souza (despejo)");
    expect(ana.html).not.toContain("<script>");
    expect(ana.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(ana.headers.has("bcc")).toBe(false);
    expect(ana.inReplyTo).toBeUndefined();
    expect(bruno.text).toContain("Terceiro caso");
    expect(bruno.text).not.toContain("Silva x Souza");
    const stored = rows(store.db);
    const anaRows = stored.filter((r) => r.recipient === "ana@example.com");
    expect(stored.every((r) => r.status === "sent")).toBe(true);
    expect(anaRows).toHaveLength(3);
    expect(new Set(anaRows.map((r) => r.messageId))).toEqual(new Set([ana.messageId]));
    expect(new Set(anaRows.map((r) => r.smtp)).size).toBe(1);
    expect(anaRows[0]?.smtp).toMatch(/^250/);
    expect(stored.find((r) => r.recipient === "bruno@example.com")?.messageId).toBe(
      bruno.messageId,
    );
  });

  it("retries a refused digest as the same e-mail, and an instant alert still goes alone", async () => {
    store = tempStore("notify-digest-retry-");
    sink = await startSmtpSink();
    transport = createTransport({ smtpUrl: sink.url(), outboxDir: store.dir });
    queueChange(store.db, sampleAlert(), ["ana@example.com"], NOW, DIGEST_POLICY);
    queueChange(
      store.db,
      quietCase("0000002-00.2025.8.07.0001", "Segundo"),
      ["ana@example.com"],
      NOW,
      DIGEST_POLICY,
    );
    sink.refuseNext(1, 451);

    const refused = await drain(store.db, transport, Date.parse(NOW));
    const retried = await drain(store.db, transport, Date.parse(NOW) + MINUTE);
    queueChange(store.db, quietCase("0000003-00.2025.8.07.0001", "Terceiro"), ["ana@example.com"]);
    const instant = await drain(store.db, transport, Date.parse(NOW) + 2 * MINUTE);

    expect(refused).toEqual({
      sent: 0,
      failed: 1,
      dead: 0,
      deferred: 0,
      lastError: expect.any(String),
    });
    expect(retried).toEqual({ sent: 1, failed: 0, dead: 0, deferred: 0, lastError: null });
    expect(instant).toEqual({ sent: 1, failed: 0, dead: 0, deferred: 0, lastError: null });
    const [digest, single] = await parsed(sink);
    expect(digest?.subject).toBe("[datajud] ⚠ 2 processos com novidades");
    expect(single?.subject).toBe("[datajud] Terceiro: decidido (2 movimentações novas)");
    // Alone, it is an alert like any other: in its case's thread.
    expect(single?.inReplyTo).toBe(
      threadId(caseThreadKey("0000003-00.2025.8.07.0001", "tjdft"), "ana@example.com", DOMAIN),
    );
    const attempts = store.db
      .prepare<[], { attempts: number }>("SELECT attempts FROM outbox ORDER BY id")
      .all();
    expect(attempts.map((a) => a.attempts)).toEqual([1, 1, 0]);
  });
});

describe("a digest drain killed between send and mark", () => {
  it("resends the same digest once, with the same Message-ID, and sends newer changes apart", async () => {
    const s = tempStore("notify-digest-crash-");
    store = s;
    const smtp = await startSmtpSink({
      beforeReply: async () => {
        await killNow(child);
      },
    });
    sink = smtp;
    queueChange(s.db, sampleAlert(), ["ana@example.com"], NOW, DIGEST_POLICY);
    queueChange(
      s.db,
      quietCase("0000002-00.2025.8.07.0001", "Segundo"),
      ["ana@example.com"],
      NOW,
      DIGEST_POLICY,
    );

    const killed = await new Promise<NodeJS.Signals | null>((resolve, reject) => {
      child = spawn(process.execPath, [...nodeArgs(CHILD), s.dbPath, smtp.url(), NOW], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      child.on("error", reject);
      child.on("exit", (_code, signal) => resolve(signal));
    });
    child = undefined;
    const afterCrash = outboxCounts(s.db);
    queueChange(
      s.db,
      quietCase("0000003-00.2025.8.07.0001", "Chegou depois"),
      ["ana@example.com"],
      "2026-03-01T10:05:00.000Z",
      DIGEST_POLICY,
    );
    transport = createTransport({ smtpUrl: smtp.url(), outboxDir: s.dir });
    const next = await drain(s.db, transport, Date.parse(NOW) + MINUTE);

    expect(killed).toBe("SIGKILL");
    expect(afterCrash).toEqual({ pending: 2, sent: 0, dead: 0 });
    // The pair the dead process claimed is taken over at once and goes out as it was; the new
    // change does not join it.
    expect(next).toEqual({ sent: 2, failed: 0, dead: 0, deferred: 0, lastError: null });
    expect(outboxCounts(s.db)).toEqual({ pending: 0, sent: 3, dead: 0 });
    const [first, again, later] = await parsed(smtp);
    expect(smtp.messages).toHaveLength(3);
    expect(first?.subject).toBe("[datajud] ⚠ 2 processos com novidades");
    expect(later?.subject).toBe("[datajud] 1 processo com novidades");
    expect(later?.text).toContain("Chegou depois");
    expect(again?.messageId).toBe(first?.messageId);
    expect(again?.subject).toBe(first?.subject);
    expect(again?.text).toBe(first?.text);
  });
});
