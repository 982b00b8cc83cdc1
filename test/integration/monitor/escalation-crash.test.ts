import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { queueDueEscalations } from "../../../src/monitor/report/escalate.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { type SmtpSink, startSmtpSink } from "../../fakes/smtp-sink.js";
import { nodeArgs } from "../../support/cli-process.js";
import { drainTo, escalationDeps, escalationPolicy } from "../../support/escalation-deps.js";
import { killNow } from "../../support/kill.js";
import { queueChange, type TempStore, tempStore } from "../../support/outbox-store.js";
import { sampleAlert } from "../../unit/notify/render/sample-alert.js";

/*
 * Exactly once per escalation step across a real crash: a process queues the due step (its mark
 * and its rows in one transaction) and is SIGKILLed while sending it, before or right after the
 * mail server's 250. The next delivery never queues the step again; it sends what the dead
 * process did not mark, at most once more, with the same Message-ID (the outbox's crash floor).
 */

const CHILD = fileURLToPath(new URL("./escalation-child.ts", import.meta.url));
/** Fri 27/11/2026 16:00 in São Paulo: step 1 (4 business hours) is due Mon 30/11 11:00. */
const QUEUED = "2026-11-27T19:00:00.000Z";
const STEP_ONE = "2026-11-30T14:00:00.000Z";
/** One minute after the crash: far inside the ten minutes a claim lasts. */
const NEXT = new Date(Date.parse(STEP_ONE) + 60_000);

let store: TempStore;
let sink: SmtpSink;
let child: ChildProcess | undefined;
let killAt: "beforeReply" | "afterReply" = "afterReply";

beforeEach(async () => {
  store = tempStore("escalation-crash-");
  sink = await startSmtpSink({
    beforeReply: async () => {
      if (killAt !== "beforeReply" || child === undefined) return;
      const dying = child;
      child = undefined;
      await killNow(dying);
    },
    afterReply: () => {
      if (killAt !== "afterReply" || child === undefined) return;
      child.kill("SIGKILL");
      child = undefined;
    },
  });
  queueChange(
    store.db,
    sampleAlert({ urgent: true }),
    ["ana@example.com"],
    QUEUED,
    escalationPolicy(),
  );
  // Planned at once (nothing due yet); the original alert goes out before the crash.
  queueDueEscalations(
    escalationDeps(store.db, new FakeClock({ now: Date.parse(QUEUED) })),
    new Date(QUEUED),
  );
  await deliverAt(new Date(QUEUED));
  sink.messages.length = 0;
});

afterEach(async () => {
  await killNow(child);
  await sink.close();
  store.dispose();
});

function runChild(): Promise<{ signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const spawned = spawn(
      process.execPath,
      [...nodeArgs(CHILD), store.dbPath, sink.url(), STEP_ONE],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child = spawned;
    spawned.on("error", reject);
    spawned.on("exit", (_code, signal) => resolve({ signal }));
  });
}

/** The next process's delivery: due steps, then the e-mail. */
async function deliverAt(now: Date): Promise<void> {
  const clock = new FakeClock({ now: now.getTime() });
  queueDueEscalations(escalationDeps(store.db, clock), now);
  await drainTo(store.db, sink.url(), clock, store.dir);
}

function stepRows(): Array<{ recipient: string; status: string }> {
  return store.db
    .prepare("SELECT recipient, status FROM outbox WHERE message_type = 'escalation' ORDER BY id")
    .all() as Array<{ recipient: string; status: string }>;
}

async function received(): Promise<Array<{ to: string; messageId: string }>> {
  const parsed = await Promise.all(sink.messages.map((m) => simpleParser(m.raw)));
  return parsed.map((p) => ({
    to: (Array.isArray(p.to) ? p.to[0]?.text : p.to?.text) ?? "",
    messageId: p.messageId ?? "",
  }));
}

describe("an escalation step killed while it is sent", () => {
  it("before the server's 250: the next delivery resends it once, same Message-ID, never queues it again", async () => {
    killAt = "beforeReply";
    const killed = await runChild();
    expect(killed.signal).toBe("SIGKILL");
    // The step was committed (marked, its row pending) before the send began.
    expect(stepRows()).toEqual([{ recipient: "socia@example.com", status: "pending" }]);

    await deliverAt(NEXT);
    await deliverAt(new Date(NEXT.getTime() + 60_000));

    expect(stepRows()).toEqual([{ recipient: "socia@example.com", status: "sent" }]);
    const mails = await received();
    expect(mails.map((m) => m.to)).toEqual(["socia@example.com", "socia@example.com"]);
    expect(mails[1]?.messageId).toBe(mails[0]?.messageId);
  });

  it("right after the 250: sent once more at most, with the same Message-ID", async () => {
    killAt = "afterReply";
    const killed = await runChild();
    expect(killed.signal).toBe("SIGKILL");

    await deliverAt(NEXT);
    await deliverAt(new Date(NEXT.getTime() + 60_000));

    expect(stepRows()).toEqual([{ recipient: "socia@example.com", status: "sent" }]);
    const mails = await received();
    expect(mails.length === 1 || mails.length === 2).toBe(true);
    expect(new Set(mails.map((m) => m.messageId)).size).toBe(1);
    expect(mails.every((m) => m.to === "socia@example.com")).toBe(true);
  });
});
