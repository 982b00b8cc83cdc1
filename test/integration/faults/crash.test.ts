import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server, type Socket } from "node:net";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeAnthropic, startFakeAnthropic } from "../../fakes/fake-anthropic.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import { type SmtpSink, startSmtpSink } from "../../fakes/smtp-sink.js";
import {
  baseEnv,
  letTimePass,
  loadFixtures,
  moveCase,
  n,
  outboxRows,
  query,
  runOnce,
  startDataJud,
  type Workspace,
  waitFor,
  workspace,
} from "../../support/cli-harness.js";
import { cliCommand } from "../../support/cli-process.js";
import { killNow } from "../../support/kill.js";

/*
 * kill -9 at each phase of a sweep. There is no hook in the product, so each phase is held open
 * by a slow fake and the process is killed once the phase is observed from outside.
 */

let datajud: FakeDataJud;
let anthropic: FakeAnthropic;
let sink: SmtpSink;
let killDuringSend: ChildProcess | undefined;
let killAfterAccept: ChildProcess | undefined;
const children: ChildProcess[] = [];

/** Accepts connections and never greets, so a sender waits there with its alerts queued. */
let mute: Server;
const muteSockets: Socket[] = [];

beforeAll(async () => {
  datajud = await startDataJud("crash-key");
  anthropic = await startFakeAnthropic();
  sink = await startSmtpSink({
    beforeReply: async () => {
      const dying = killDuringSend;
      killDuringSend = undefined;
      await killNow(dying);
    },
    afterReply: () => {
      killAfterAccept?.kill("SIGKILL");
      killAfterAccept = undefined;
    },
  });
  mute = createServer((socket) => muteSockets.push(socket));
  await new Promise<void>((resolve) => mute.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  for (const socket of muteSockets) socket.destroy();
  await new Promise<void>((resolve) => mute.close(() => resolve()));
  await Promise.all([sink.close(), anthropic.close(), datajud.close()]);
});

function mutePort(): number {
  const address = mute.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

function startRunOnce(
  ws: Workspace,
  env: Record<string, string>,
): { child: ChildProcess; exited: Promise<NodeJS.Signals | null> } {
  const { command, args } = cliCommand();
  const child = spawn(command, [...args, "run-once", "--json"], {
    cwd: ws.dir,
    // A real process cannot skip a timeout's backoff on a fake clock, and a cold process's first
    // request can take longer than the harness's 2 s: this test is about kills, not timeouts.
    env: { ...env, DATAJUD_TIMEOUT_MS: "10000", DATAJUD_TOTAL_TIMEOUT_MS: "20000" },
    stdio: ["ignore", "ignore", "ignore"],
  });
  children.push(child);
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on("exit", (_code, signal) => resolve(signal)),
  );
  return { child, exited };
}

interface Counts {
  changes: number;
  summaries: number;
  outbox: number;
}

function counts(ws: Workspace): Counts {
  const [row] = query<Counts>(
    ws,
    `SELECT (SELECT COUNT(*) FROM changes) AS changes, (SELECT COUNT(*) FROM summaries) AS summaries,
            (SELECT COUNT(*) FROM outbox) AS outbox`,
  );
  return row ?? { changes: -1, summaries: -1, outbox: -1 };
}

async function messageIds(from: number): Promise<string[]> {
  const parsed = await Promise.all(sink.messages.slice(from).map((m) => simpleParser(m.raw)));
  return parsed.map((p) => p.messageId ?? "");
}

/** A baseline, then one case moves: the next sweep has one change and one alert to deliver. */
async function prepared(prefix: string, smtpUrl: string): Promise<Workspace> {
  const ws = workspace(prefix, [n.trt2Reclamacao]);
  await runOnce(ws, baseEnv(ws, datajud, { SMTP_URL: smtpUrl }));
  return ws;
}

describe("a run-once killed with SIGKILL", () => {
  it("at every phase loses no change, and the next run sends each alert once", async () => {
    const healthy = sink.url();
    const [detected, summarized, sending] = await Promise.all([
      prepared("crash-detect-", healthy),
      prepared("crash-summary-", `smtp://127.0.0.1:${mutePort()}`),
      prepared("crash-send-", healthy),
    ]);
    moveCase(datajud, "trt2", n.trt2Reclamacao);
    anthropic.enqueue({ kind: "hang" });
    const withModel = {
      ANTHROPIC_API_KEY: anthropic.apiKey,
      ANTHROPIC_BASE_URL: anthropic.url,
      ANTHROPIC_MODEL: "claude-fake-1",
    };
    const sentBefore = sink.messages.length;

    // After detection: the change is committed, the model is being asked.
    const a = startRunOnce(
      detected,
      baseEnv(detected, datajud, { ...withModel, SMTP_URL: healthy }),
    );
    // After the summary: summary and alert committed, the mail server has not greeted yet.
    const b = startRunOnce(
      summarized,
      baseEnv(summarized, datajud, { SMTP_URL: `smtp://127.0.0.1:${mutePort()}` }),
    );
    // During sending: the server has the whole message, the sender dies before hearing 250. The
    // three run at once: only this one reaches the healthy server (the first never gets past its
    // summary), so the sink's first message is this one's.
    const c = startRunOnce(sending, baseEnv(sending, datajud, { SMTP_URL: healthy }));
    killDuringSend = c.child;
    // Three processes starting at once on a shared 2-core machine: room to start, not a timing.
    await waitFor(() => anthropic.requests.length > 0, "the summarizer's first request", 45_000);
    a.child.kill("SIGKILL");
    await waitFor(() => muteSockets.length > 0, "a connection to the mute SMTP server", 45_000);
    b.child.kill("SIGKILL");
    const signals = await Promise.all([a.exited, b.exited, c.exited]);
    const afterCrash = [counts(detected), counts(summarized), counts(sending)];
    const receivedInCrash = sink.messages.length - sentBefore;
    const idsInCrash = await messageIds(sentBefore);

    for (const ws of [detected, summarized, sending]) letTimePass(ws);
    const recovery = await Promise.all(
      [detected, summarized, sending].map((ws) =>
        runOnce(ws, baseEnv(ws, datajud, { SMTP_URL: healthy })),
      ),
    );
    for (const ws of [detected, summarized, sending]) letTimePass(ws);
    const quiet = await Promise.all(
      [detected, summarized, sending].map((ws) =>
        runOnce(ws, baseEnv(ws, datajud, { SMTP_URL: healthy })),
      ),
    );
    const ids = await messageIds(sentBefore);

    expect(signals).toEqual(["SIGKILL", "SIGKILL", "SIGKILL"]);
    expect(afterCrash).toEqual([
      { changes: 1, summaries: 0, outbox: 0 },
      { changes: 1, summaries: 1, outbox: 1 },
      { changes: 1, summaries: 1, outbox: 1 },
    ]);
    expect(receivedInCrash).toBe(1);
    // The recovery sweeps see no new change (it was stored before the crash) but deliver it.
    expect(recovery.map((r) => [r.code, r.report.changed, r.report.emailsSent])).toEqual([
      [0, 0, 1],
      [0, 0, 1],
      [0, 0, 1],
    ]);
    expect(quiet.map((r) => r.report.emailsSent)).toEqual([0, 0, 0]);
    for (const ws of [detected, summarized, sending]) {
      expect(counts(ws)).toEqual({ changes: 1, summaries: 1, outbox: 1 });
      expect(outboxRows(ws).map((r) => r.status)).toEqual(["sent"]);
      expect(query(ws, "SELECT status FROM runs WHERE status = 'running'")).toEqual([]);
    }
    // Four deliveries for three alerts: the one unavoidable resend, with the same Message-ID.
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(3);
    expect(ids.filter((id) => id === idsInCrash[0])).toHaveLength(2);
  }, 60_000);
});

describe("run-once killed right after the mail server accepted a message", () => {
  it("twice in a row: the next run delivers everything at once, with at most one resend per kill", async () => {
    loadFixtures(datajud);
    const ws = workspace("crash-accepted-");
    const env = baseEnv(ws, datajud, { SMTP_URL: sink.url() });
    await runOnce(ws, env);
    moveCase(datajud, "trf1", n.trf1Previdenciario);
    moveCase(datajud, "trt2", n.trt2Reclamacao);
    moveCase(datajud, "tjdft", n.tjdftDespejo);
    const sentBefore = sink.messages.length;

    const kills: Array<NodeJS.Signals | null> = [];
    for (let i = 0; i < 2; i++) {
      const run = startRunOnce(ws, env);
      killAfterAccept = run.child;
      kills.push(await run.exited);
    }
    const receivedInCrashes = sink.messages.length - sentBefore;
    const next = await runOnce(ws, env);
    const ids = await messageIds(sentBefore);

    expect(kills).toEqual(["SIGKILL", "SIGKILL"]);
    expect(receivedInCrashes).toBe(2);
    expect(next.code).toBe(0);
    expect(outboxRows(ws).map((r) => r.status)).toEqual(["sent", "sent", "sent"]);
    const distinct = new Set(ids);
    expect(distinct.size).toBe(3);
    // A kill this close to the "250" can land before the sender reads it: that message goes again
    // with the same Message-ID, at most once per kill.
    expect(ids.length - distinct.size).toBeLessThanOrEqual(kills.length);
    expect(next.report.emailsSent).toBe(ids.length - receivedInCrashes);
    // Two cold child processes and two sweeps: seconds when idle, more on a loaded machine.
  }, 60_000);
});
