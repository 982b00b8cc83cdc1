import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import {
  type FakeWebhookReceiver,
  startFakeWebhookReceiver,
} from "../../fakes/fake-webhook-receiver.js";
import {
  baseEnv,
  cliInProcess,
  moveCase,
  n,
  query,
  startDataJud,
  workspace,
} from "../../support/cli-harness.js";
import { startDaemonInProcess } from "../../support/daemon-in-process.js";
import { waitFor } from "../../support/wait-for.js";

/*
 * An endpoint exists because the configuration names it, not because a process holds its secret
 * (issue 38: a run-once through a wrapper without WEBHOOK_URL/WEBHOOK_SECRET mailed a change and
 * never queued its webhook event). The firm-wide webhook is declared in monitor.yaml; run-once,
 * without its variables, queues the event and says who sends it; a daemon without the secret
 * says loudly (journal, status) that it sends nothing there; the daemon with it sends the event.
 */

const SECRET = `whsec_${Buffer.alloc(32, 9).toString("base64")}`;
let datajud: FakeDataJud;
let receiver: FakeWebhookReceiver;

beforeAll(async () => {
  datajud = await startDataJud("declared-key");
  receiver = await startFakeWebhookReceiver({ secret: SECRET });
});

afterAll(async () => {
  await Promise.all([receiver.close(), datajud.close()]);
});

/** The daemon (in this process, as a SIGTERM would stop it), until `until` holds of its log. */
async function daemon(
  env: Record<string, string>,
  cwd: string,
  until: (logs: string) => boolean,
  what: string,
): Promise<{ code: number | null; logs: string }> {
  const running = startDaemonInProcess(env, cwd);
  let code: number | null = null;
  try {
    await waitFor(() => until(running.logs()), what, 30_000);
  } finally {
    code = await running.stop();
  }
  return { code, logs: running.logs() };
}

describe("an endpoint declared in the configuration, its secret elsewhere", () => {
  it("run-once without the webhook's variables queues its event; a daemon without the secret says so; the daemon with it sends it", async () => {
    const ws = workspace("declared-endpoint-", [n.tjdftDespejo]);
    const config = join(ws.dir, "monitor.yaml");
    writeFileSync(
      config,
      [
        'schedule: { cron: "0 0 1 1 *", startJitterSeconds: 0 }',
        "mail: { admin: ti@example.com }",
        "notify:",
        "  endpoints:",
        "    webhook: { channel: webhook, urlVariable: WEBHOOK_URL, secretVariable: WEBHOOK_SECRET }",
        "",
      ].join("\n"),
    );
    // As the old systemd wrapper ran it: the DataJud key and nothing of the webhook.
    const bare = baseEnv(ws, datajud, { MONITOR_CONFIG: config });
    const validate = await cliInProcess(["validate"], bare, ws.dir);
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain(
      'note: webhook endpoint "webhook": WEBHOOK_URL and WEBHOOK_SECRET not set in this process; its alerts are queued, and only a process that has them (the daemon) sends them\n',
    );
    expect((await cliInProcess(["run-once"], bare, ws.dir)).code).toBe(0);
    moveCase(datajud, "tjdft", n.tjdftDespejo);

    const run = await cliInProcess(["run-once"], bare, ws.dir);

    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'webhook endpoint "webhook": 1 event queued; this process has no WEBHOOK_URL and WEBHOOK_SECRET: the daemon sends them\n',
    );
    const caseRows = () =>
      query<{ channel: string; status: string; attempts: number }>(
        ws,
        "SELECT channel, status, attempts FROM outbox WHERE kind <> 'admin' ORDER BY id",
      );
    expect(caseRows()).toEqual([
      { channel: "email", status: "sent", attempts: 0 },
      { channel: "webhook", status: "pending", attempts: 0 },
    ]);

    // A daemon given the URL but not the secret: loud in its journal and in status, sends nothing.
    const half = await daemon(
      { ...bare, WEBHOOK_URL: receiver.url, MONITOR_LOG_LEVEL: "info" },
      ws.dir,
      (logs) => logs.includes("daemon started"),
      "the daemon without the secret to start",
    );
    expect(half.code).toBe(0);
    expect(half.logs).toContain(
      'webhook endpoint \\"webhook\\": this daemon has no WEBHOOK_SECRET; its alerts are queued and NOT sent',
    );
    expect(receiver.requests).toHaveLength(0);
    expect(caseRows()[1]).toEqual({ channel: "webhook", status: "pending", attempts: 0 });
    // mail.admin is told, once however often the daemon restarts without it.
    await daemon(
      { ...bare, WEBHOOK_URL: receiver.url, MONITOR_LOG_LEVEL: "info" },
      ws.dir,
      (logs) => logs.includes("daemon started"),
      "the daemon without the secret to start again",
    );
    const told = () =>
      query<{ recipient: string; type: string; subject: string; status: string }>(
        ws,
        "SELECT recipient, message_type AS type, subject, status FROM outbox WHERE kind = 'admin'",
      );
    expect(told().map(({ status: _, ...row }) => row)).toEqual([
      {
        recipient: "ti@example.com",
        type: "operator",
        subject:
          '[datajud] ⚠ alerts not sent to endpoint webhook "webhook": the daemon has no WEBHOOK_SECRET',
      },
    ]);
    const status = await cliInProcess(["status"], bare, ws.dir);
    expect(status.stdout).toMatch(
      /webhook endpoint "webhook": NOT SENT: the daemon has had no WEBHOOK_SECRET since \d\d\/\d\d\/\d{4} \d\d:\d\d; its alerts wait in the outbox until the daemon is restarted with it/,
    );
    expect(status.stdout).toContain("; 1 pending;");

    // The daemon with both: its start-up drain sends what run-once queued.
    const full = await daemon(
      { ...bare, WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: SECRET, MONITOR_LOG_LEVEL: "info" },
      ws.dir,
      // Stopped once it has marked the row too: a stop between the receiver's 200 and the mark
      // leaves the row to the next daemon (the documented crash floor), not what this checks.
      () => receiver.events.length > 0 && caseRows()[1]?.status === "sent",
      "the queued event at the receiver, its row marked sent",
    );
    expect(full.code).toBe(0);
    expect((receiver.events as Array<{ type: string }>).map((e) => e.type)).toEqual([
      "case.movement",
    ]);
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    expect(caseRows()[1]?.status).toBe("sent");
    // The operator's alert went by e-mail by the time the event reached the receiver (one loop:
    // e-mail, then the webhook).
    expect(told().map((r) => r.status)).toEqual(["sent"]);
    const after = await cliInProcess(["status"], bare, ws.dir);
    expect(after.stdout).not.toContain("NOT SENT");
    expect(`${run.stdout}${run.stderr}${half.logs}${full.logs}`).not.toContain(SECRET);
  }, 90_000);
});
