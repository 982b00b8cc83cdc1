import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../../src/log.js";
import { drainOutbox } from "../../../../src/notify/outbox/drain.js";
import { createTransport } from "../../../../src/notify/transport/transports.js";
import { outboxCounts } from "../../../../src/store/outbox.js";
import { type SmtpSink, startSmtpSink } from "../../../fakes/smtp-sink.js";
import { nodeArgs } from "../../../support/cli-process.js";
import { sampleAlert } from "../../../unit/notify/render/sample-alert.js";
import { DOMAIN, FROM, LIST_ID, queueChange, type TempStore, tempStore } from "./outbox-setup.js";

const CHILD = fileURLToPath(new URL("./drain-child.ts", import.meta.url));
const NOW = "2026-03-01T10:00:00.000Z";

let store: TempStore;
let sink: SmtpSink;
let child: ChildProcess | undefined;

beforeEach(async () => {
  store = tempStore("notify-crash-");
  // The server has the whole message when the sender dies, before the sender hears "250": the
  // one case where a resend cannot be avoided.
  sink = await startSmtpSink({
    beforeReply: async () => {
      child?.kill("SIGKILL");
      await new Promise((r) => setTimeout(r, 50));
    },
  });
});

afterEach(async () => {
  child?.kill("SIGKILL");
  await sink.close();
  store.dispose();
});

function runChild(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    child = spawn(process.execPath, [...nodeArgs(CHILD), store.dbPath, sink.url(), NOW], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve({ code, signal }));
  });
}

describe("a drain killed between send and mark", () => {
  it("loses nothing and resends the one message once, with the same Message-ID", async () => {
    queueChange(store.db, sampleAlert(), ["ana@example.com"], NOW);

    const killed = await runChild();
    child = undefined;
    const pendingAfterCrash = outboxCounts(store.db);
    const receivedBeforeCrash = sink.messages.length;
    const transport = createTransport({ smtpUrl: sink.url(), outboxDir: store.dir });
    const tooSoon = await drainOutbox({
      db: store.db,
      transport,
      from: FROM,
      listId: LIST_ID,
      domain: DOMAIN,
      now: () => new Date(Date.parse(NOW) + 60_000),
      maxAttempts: 5,
      logger: silentLogger(),
    });
    const resend = await drainOutbox({
      db: store.db,
      transport,
      from: FROM,
      listId: LIST_ID,
      domain: DOMAIN,
      now: () => new Date(Date.parse(NOW) + 11 * 60_000),
      maxAttempts: 5,
      logger: silentLogger(),
    });
    transport.close();

    expect(killed.signal).toBe("SIGKILL");
    expect(receivedBeforeCrash).toBe(1);
    expect(pendingAfterCrash).toEqual({ pending: 1, sent: 0, dead: 0 });
    expect(tooSoon).toEqual({ sent: 0, failed: 0, dead: 0, deferred: 0 });
    expect(resend).toEqual({ sent: 1, failed: 0, dead: 0, deferred: 0 });
    expect(outboxCounts(store.db)).toEqual({ pending: 0, sent: 1, dead: 0 });
    const [first, second] = await Promise.all(sink.messages.map((m) => simpleParser(m.raw)));
    expect(sink.messages).toHaveLength(2);
    expect(second?.messageId).toBe(first?.messageId);
    expect(second?.inReplyTo).toBe(first?.inReplyTo);
  });
});
