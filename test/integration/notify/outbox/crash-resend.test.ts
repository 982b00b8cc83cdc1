import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../../src/log.js";
import { drainOutbox } from "../../../../src/notify/outbox/drain.js";
import { createTransport } from "../../../../src/notify/transport/transports.js";
import { thisProcessClaimant } from "../../../../src/store/lease.js";
import { outboxCounts } from "../../../../src/store/outbox.js";
import { realSystem } from "../../../../src/system.js";
import { FakeClock } from "../../../fakes/fake-clock.js";
import { type SmtpSink, startSmtpSink } from "../../../fakes/smtp-sink.js";
import { nodeArgs } from "../../../support/cli-process.js";
import { killNow } from "../../../support/kill.js";
import {
  DOMAIN,
  FROM,
  LIST_ID,
  queueChange,
  type TempStore,
  tempStore,
} from "../../../support/outbox-store.js";
import { sampleAlert } from "../../../unit/notify/render/sample-alert.js";

const CHILD = fileURLToPath(new URL("./drain-child.ts", import.meta.url));
const NOW = "2026-03-01T10:00:00.000Z";
/** One minute after the crash: far inside the ten minutes a claim lasts. */
const NEXT_RUN = new Date(Date.parse(NOW) + 60_000);

let store: TempStore;
let sink: SmtpSink;
let child: ChildProcess | undefined;
let killAt: "beforeReply" | "afterReply" = "afterReply";

function killChild(): void {
  child?.kill("SIGKILL");
  child = undefined;
}

beforeEach(async () => {
  store = tempStore("notify-crash-");
  sink = await startSmtpSink({
    beforeReply: async () => {
      if (killAt !== "beforeReply" || child === undefined) return;
      const dying = child;
      child = undefined;
      await killNow(dying);
    },
    afterReply: () => {
      if (killAt === "afterReply") killChild();
    },
  });
});

afterEach(async () => {
  killChild();
  await sink.close();
  store.dispose();
});

function runChild(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const spawned = spawn(process.execPath, [...nodeArgs(CHILD), store.dbPath, sink.url(), NOW], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = spawned;
    spawned.on("error", reject);
    spawned.on("exit", (code, signal) => resolve({ code, signal }));
  });
}

async function drainAt(now: Date): Promise<Awaited<ReturnType<typeof drainOutbox>>> {
  const transport = createTransport({ smtpUrl: sink.url(), outboxDir: store.dir });
  try {
    return await drainOutbox({
      claimant: thisProcessClaimant(realSystem),
      db: store.db,
      transport,
      from: FROM,
      listId: LIST_ID,
      domain: DOMAIN,
      clock: new FakeClock({ now: now.getTime() }),
      maxAttempts: 5,
      logger: silentLogger(),
    });
  } finally {
    transport.close();
  }
}

async function receivedIds(): Promise<string[]> {
  const parsed = await Promise.all(sink.messages.map((m) => simpleParser(m.raw)));
  return parsed.map((p) => p.messageId ?? "");
}

describe("a drain killed while sending", () => {
  it("right after the server's 250: the next drain sends the rest at once, at most one resend", async () => {
    killAt = "afterReply";
    queueChange(store.db, sampleAlert(), ["ana@example.com", "rui@example.com", "eva@example.com"]);

    const killed = await runChild();
    const receivedInCrash = sink.messages.length;
    const next = await drainAt(NEXT_RUN);
    const ids = await receivedIds();

    expect(killed.signal).toBe("SIGKILL");
    expect(receivedInCrash).toBe(1);
    expect(outboxCounts(store.db)).toEqual({ pending: 0, sent: 3, dead: 0 });
    // Either the child marked its one message before dying (2 left) or it did not (3, one resent).
    expect(next.sent === 2 || next.sent === 3).toBe(true);
    expect(new Set(ids).size).toBe(3);
    expect(ids.length - new Set(ids).size).toBeLessThanOrEqual(1);
    expect(ids.filter((id) => id === ids[0]).length).toBe(next.sent === 3 ? 2 : 1);
  });

  it("before the sender heard 250: the next drain resends that message once, with the same Message-ID", async () => {
    killAt = "beforeReply";
    queueChange(store.db, sampleAlert(), ["ana@example.com"]);

    const killed = await runChild();
    const pendingAfterCrash = outboxCounts(store.db);
    const next = await drainAt(NEXT_RUN);
    const again = await drainAt(NEXT_RUN);
    const [first, second] = await Promise.all(sink.messages.map((m) => simpleParser(m.raw)));

    expect(killed.signal).toBe("SIGKILL");
    expect(pendingAfterCrash).toEqual({ pending: 1, sent: 0, dead: 0 });
    expect(next).toEqual({ sent: 1, failed: 0, dead: 0, deferred: 0, lastError: null });
    expect(again).toEqual({ sent: 0, failed: 0, dead: 0, deferred: 0, lastError: null });
    expect(outboxCounts(store.db)).toEqual({ pending: 0, sent: 1, dead: 0 });
    expect(sink.messages).toHaveLength(2);
    expect(second?.messageId).toBe(first?.messageId);
    expect(second?.inReplyTo).toBe(first?.inReplyTo);
  });
});
