import { simpleParser } from "mailparser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import { type SmtpSink, startSmtpSink } from "../../fakes/smtp-sink.js";
import {
  baseEnv,
  cliInProcess,
  closedPort,
  letTimePass,
  loadFixtures,
  moveCase,
  n,
  outboxRows,
  runOnce,
  startDataJud,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";

let datajud: FakeDataJud;
let sink: SmtpSink;
let slowSink: SmtpSink;
let ws: Workspace;

function env(smtpUrl: string): Record<string, string> {
  return baseEnv(ws, datajud, { SMTP_URL: smtpUrl });
}

beforeAll(async () => {
  datajud = await startDataJud("smtp-faults-key");
  sink = await startSmtpSink();
  // Slow to say 250 for each message, yet well inside the transport's timeouts (30 s and more):
  // the sender must wait, not give up and resend. How slow changes nothing but the test's time.
  slowSink = await startSmtpSink({
    beforeReply: () => new Promise((resolve) => setTimeout(resolve, 300)),
  });
});

afterAll(async () => {
  await Promise.all([sink.close(), slowSink.close(), datajud.close()]);
});

beforeEach(async () => {
  loadFixtures(datajud);
  sink.messages.length = 0;
  ws = workspace("faults-smtp-");
  await runOnce(ws, env(sink.url()));
  moveCase(datajud, "trt2", n.trt2Reclamacao);
  moveCase(datajud, "trf1", n.trf1Previdenciario);
  // Two changed cases, one watcher: two alerts.
});

async function deliveredIds(): Promise<string[]> {
  const parsed = await Promise.all(sink.messages.map((m) => simpleParser(m.raw)));
  return parsed.map((p) => p.messageId ?? "");
}

describe("an SMTP server that is not taking mail", () => {
  const outages: Array<[string, () => Promise<string>]> = [
    [
      "refusing every message with 451",
      async () => {
        sink.refuseNext(10, 451);
        return sink.url();
      },
    ],
    [
      "refusing connections with 421",
      async () => {
        sink.refuseConnections(10, 421);
        return sink.url();
      },
    ],
    ["unreachable (closed port)", async () => `smtp://127.0.0.1:${await closedPort()}`],
  ];

  it.each(outages)(
    "%s: the outbox keeps the alerts, a later run sends each once",
    async (_, down) => {
      const smtpUrl = await down();

      const failing = await runOnce(ws, env(smtpUrl));
      const pending = outboxRows(ws);
      sink.refuseNext(0);
      sink.refuseConnections(0);
      letTimePass(ws);
      const healthy = await runOnce(ws, env(sink.url()));
      letTimePass(ws);
      const after = await runOnce(ws, env(sink.url()));

      // Every case checked, no alert delivered: exit 3, the outbox keeps them.
      expect(failing.code).toBe(3);
      expect(healthy.code).toBe(0);
      expect(failing.report.changed).toBe(2);
      expect(failing.report.emailsQueued).toBe(2);
      expect(failing.report.emailsSent).toBe(0);
      expect(pending.map((r) => r.status)).toEqual(["pending", "pending"]);
      expect(healthy.report.emailsSent).toBe(2);
      expect(after.report.emailsSent).toBe(0);
      expect(outboxRows(ws).map((r) => r.status)).toEqual(["sent", "sent"]);
      const ids = await deliveredIds();
      expect(ids).toHaveLength(2);
      expect(new Set(ids).size).toBe(2);
    },
  );

  it("waits out a slow server and sends each alert once", async () => {
    const run = await runOnce(ws, env(slowSink.url()));

    expect(run.report.emailsSent).toBe(2);
    expect(slowSink.messages).toHaveLength(2);
    expect(outboxRows(ws).map((r) => r.status)).toEqual(["sent", "sent"]);
  });

  it("is told, not hidden: run-once's summary, its log line and status name the server and the error", async () => {
    const port = await closedPort();
    const down = { ...env(`smtp://127.0.0.1:${port}`), MONITOR_LOG_LEVEL: "warn" };

    const run = await cliInProcess(["run-once"], down, ws.dir);
    const status = await cliInProcess(["status"], down, ws.dir);

    expect(run.code).toBe(3);
    expect(run.stdout).toContain("mail: 2 queued, 0 sent, 2 waiting in the outbox");
    expect(run.stdout).toMatch(
      new RegExp(`not sent: smtp://127\\.0\\.0\\.1:${port} .*ECONNREFUSED`),
    );
    expect(run.stdout).toContain("retried from ");
    const failure = run.stderr
      .split("\n")
      .filter((l) => l.includes("mail delivery failed"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    // One line per failed attempt (each phase's delivery and the sweep's last one may try).
    expect(failure.length).toBeGreaterThanOrEqual(1);
    for (const line of failure) {
      expect(line.transport).toBe(`smtp://127.0.0.1:${port} (STARTTLS when offered)`);
      expect(String(line.error)).toContain("ECONNREFUSED");
    }
    expect(status.stdout).toMatch(
      new RegExp(
        `mail not sent yet: \\d e-mails? failed \\(smtp://127\\.0\\.0\\.1:${port} .*ECONNREFUSED.*\\); next attempt `,
      ),
    );
  });
});
