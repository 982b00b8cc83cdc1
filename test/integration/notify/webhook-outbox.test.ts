import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeSlack, startFakeSlack } from "../../fakes/fake-chat.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import {
  type FakeWebhookReceiver,
  startFakeWebhookReceiver,
} from "../../fakes/fake-webhook-receiver.js";
import {
  baseEnv,
  cliInProcess,
  loadFixtures,
  moveCase,
  n,
  query,
  runOnce,
  startDataJud,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";

/*
 * Alerts through the one outbox to a signed webhook and a Slack channel: each event once per
 * endpoint, and a 410 giving the endpoint up. A kill between the receiver's 2xx and the mark:
 * outbox/endpoint-crash.test.ts.
 */

const SECRET = `whsec_${Buffer.alloc(32, 8).toString("base64")}`;
let datajud: FakeDataJud;
let receiver: FakeWebhookReceiver;
let slack: FakeSlack;

beforeAll(async () => {
  datajud = await startDataJud("webhook-key");
  receiver = await startFakeWebhookReceiver({ secret: SECRET });
  slack = await startFakeSlack();
});

afterAll(async () => {
  await Promise.all([receiver.close(), slack.close(), datajud.close()]);
});

function setUp(prefix: string): { ws: Workspace; env: Record<string, string> } {
  loadFixtures(datajud);
  const ws = workspace(prefix);
  writeFileSync(
    ws.watchlistPath,
    `defaults:\n  notify: [ana@example.com]\n  channels: [equipe]\ncases:\n${[n.trf1Previdenciario, n.trt2Reclamacao, n.tjdftDespejo].map((x) => `  - number: "${x}"\n`).join("")}`,
  );
  const config = join(ws.dir, "monitor.yaml");
  writeFileSync(
    config,
    "notify:\n  endpoints:\n    equipe: { channel: slack, urlVariable: SLACK_URL }\n",
  );
  const env = baseEnv(ws, datajud, {
    MONITOR_CONFIG: config,
    WEBHOOK_URL: receiver.url,
    WEBHOOK_SECRET: SECRET,
    SLACK_URL: slack.url,
  });
  return { ws, env };
}

function moveAll(): void {
  moveCase(datajud, "trf1", n.trf1Previdenciario);
  moveCase(datajud, "trt2", n.trt2Reclamacao);
  moveCase(datajud, "tjdft", n.tjdftDespejo);
}

function rows(
  ws: Workspace,
): Array<{ channel: string; recipient: string; status: string; lastError: string | null }> {
  return query(
    ws,
    "SELECT channel, recipient, status, last_error AS lastError FROM outbox ORDER BY id",
  );
}

function byChannel(ws: Workspace): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of rows(ws)) {
    const list = out[r.channel] ?? [];
    list.push(r.status);
    out[r.channel] = list;
  }
  return out;
}

describe("alerts to a webhook and a chat, through the outbox", () => {
  it("sends each case's change once to the e-mail watcher, the signed webhook and Slack", async () => {
    const { ws, env } = setUp("webhook-outbox-");
    await runOnce(ws, env);
    moveAll();
    const eventsBefore = receiver.events.length;
    const slackBefore = slack.messages.length;

    const run = await runOnce(ws, env);
    const again = await runOnce(ws, env);

    expect(run.code).toBe(0);
    expect(again.code).toBe(0);
    // Counted per channel: emailsQueued is the e-mails alone (it counted all 9 rows before).
    expect(run.report.emailsQueued).toBe(3);
    expect(run.report.queued).toEqual({ email: 3, webhook: 3, slack: 3 });
    expect(run.report.endpoints.map((e) => [e.channel, e.name, e.queued, e.sent])).toEqual([
      ["webhook", "webhook", 3, 3],
      ["slack", "equipe", 3, 3],
    ]);
    expect(again.report.queued).toEqual({});
    expect(byChannel(ws)).toEqual({
      email: ["sent", "sent", "sent"],
      webhook: ["sent", "sent", "sent"],
      slack: ["sent", "sent", "sent"],
    });
    const events = receiver.events.slice(eventsBefore) as Array<{ type: string; id: string }>;
    expect(events.map((e) => e.type)).toEqual(["case.movement", "case.movement", "case.movement"]);
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    expect(slack.messages.length - slackBefore).toBe(3);
    expect(slack.messages.at(-1)?.mentions).toEqual([]);
  });

  it("a muted case reaches no channel: not the mail, the webhook nor Slack", async () => {
    const { ws, env } = setUp("webhook-muted-");
    writeFileSync(
      ws.watchlistPath,
      `defaults:\n  notify: [ana@example.com]\n  channels: [equipe]\ncases:\n  - number: "${n.trf1Previdenciario}"\n    muted: true\n  - number: "${n.trt2Reclamacao}"\n`,
    );
    await runOnce(ws, env);
    moveCase(datajud, "trf1", n.trf1Previdenciario);
    moveCase(datajud, "trt2", n.trt2Reclamacao);

    await runOnce(ws, env);

    expect(byChannel(ws)).toEqual({ email: ["sent"], webhook: ["sent"], slack: ["sent"] });
  });

  it("gives Slack up on 410, keeps sending the webhook and tells it Slack was disabled", async () => {
    const { ws, env } = setUp("webhook-gone-");
    await runOnce(ws, env);
    moveAll();
    slack.script.push({ status: 410, body: "channel_is_archived" });
    const eventsBefore = receiver.events.length;

    await runOnce(ws, env);

    // The three alerts, then the operator alert (the firm-wide webhook takes every event type).
    expect(byChannel(ws).webhook).toEqual(["sent", "sent", "sent", "sent"]);
    const told = receiver.events.slice(eventsBefore).at(-1) as {
      type: string;
      data: { alertType: string; title: string };
    };
    expect(told.type).toBe("operator.alert");
    expect(told.data.alertType).toBe("endpoint_disabled");
    expect(JSON.stringify(told)).not.toContain("slacksecretpath123");
    expect(byChannel(ws).slack).toEqual(["dead", "dead", "dead"]);
    const errors = rows(ws)
      .filter((r) => r.channel === "slack")
      .map((r) => r.lastError ?? "");
    expect(errors.every((e) => e.includes("410"))).toBe(true);
    expect(errors.join(" ")).not.toContain("slacksecretpath123");
    const status = await cliInProcess(["status"], env, ws.dir);
    expect(status.stdout).toContain('slack endpoint "equipe": DISABLED since');
    expect(status.stdout).toContain("0 pending; 3 dead; 0 delivered");
    // The mail count is the e-mail's: the endpoints have their own lines.
    expect(status.stdout).toContain("mail: 0 pending, 3 sent, 0 dead");
    expect(`${status.stdout}${status.stderr}`).not.toContain("slacksecretpath123");

    const doctor = await cliInProcess(["doctor"], env, ws.dir);
    expect(doctor.stdout).toContain("1 of 2 endpoint(s) disabled by a 410 Gone");
    expect(doctor.stdout).toContain("then datajud-monitor endpoint enable equipe");
    expect(doctor.stdout).not.toContain("slacksecretpath123");

    const enabled = await cliInProcess(["endpoint", "enable", "equipe"], env, ws.dir);
    const listed = await cliInProcess(["endpoint", "list"], env, ws.dir);

    expect(enabled.code).toBe(0);
    expect(enabled.stdout).toContain('enabled slack endpoint "equipe"');
    expect(listed.stdout).toContain('slack endpoint "equipe": 0 pending; 3 dead; 0 delivered');
    expect(listed.stdout).toContain('webhook endpoint "webhook": 0 pending; 0 dead; 4 delivered');
    expect(`${listed.stdout}${listed.stderr}`).not.toContain("slacksecretpath123");
  });
});

describe("run-once's report of the endpoints", () => {
  it("says per endpoint what was delivered and what waits and why, never a URL or secret", async () => {
    const { ws, env } = setUp("webhook-report-");
    await runOnce(ws, env);
    moveAll();
    for (let i = 0; i < 3; i++) receiver.script.push({ status: 503, body: "maintenance" });

    const run = await cliInProcess(["run-once"], env, ws.dir);

    const lines = run.stdout.split("\n").filter((l) => l.includes(" endpoint "));
    expect(lines).toEqual([
      expect.stringMatching(
        /^webhook endpoint "webhook": 3 queued, 0 delivered, 3 waiting; not delivered: HTTP 503: maintenance, next attempt \d\d\/\d\d\/\d{4} \d\d:\d\d$/,
      ),
      'slack endpoint "equipe": 3 queued, 3 delivered',
    ]);
    for (const secret of [SECRET, receiver.url, slack.url, receiver.origin, slack.origin]) {
      expect(run.stdout).not.toContain(secret);
      expect(run.stderr).not.toContain(secret);
    }
  });
});
