import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpointLine } from "../../../src/cli/status.js";
import { createLogger } from "../../../src/log.js";
import { MonitorMetrics } from "../../../src/metrics/metrics.js";
import { drainEndpoints } from "../../../src/notify/outbox/endpoint-drain.js";
import { movementAlert } from "../../../src/notify/outbox/messages.js";
import { queueMessage } from "../../../src/notify/outbox/queue.js";
import { AdminAlert, renderAdminAlert } from "../../../src/notify/render/operator-mail.js";
import type { Endpoint } from "../../../src/notify/transport/endpoint.js";
import { DEFAULT_ENDPOINT_LIMITS } from "../../../src/notify/transport/http-endpoint.js";
import { endpointMetrics, endpointStatuses } from "../../../src/policy/endpoint-status.js";
import { endpointStates } from "../../../src/store/endpoint-state.js";
import { thisProcessClaimant } from "../../../src/store/lease.js";
import { endpointOutbox } from "../../../src/store/outbox.js";
import { realSystem } from "../../../src/system.js";
import {
  type FakeSlack,
  type FakeTelegram,
  startFakeSlack,
  startFakeTelegram,
} from "../../fakes/fake-chat.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { closedPort } from "../../support/closed-port.js";
import { DOMAIN, queueChange, type TempStore, tempStore } from "../../support/outbox-store.js";
import { sampleAlert } from "../../unit/notify/render/sample-alert.js";

/*
 * An endpoint's URL, token and secret appear in no output: not in the drain's log lines (written
 * by a logger told of no secret, so nothing rests on redaction), not in the database (rows,
 * errors, endpoint state), `monitor status`, `/metrics` or the operator's mail; also when the
 * endpoint's answer echoes the URL it was called at, and when the connection itself fails.
 */

const TOKEN = "987654:telegramSECRETtoken";
const SECRET = `whsec_${Buffer.alloc(32, 9).toString("base64")}`;
const HOOK_PATH = "/hooks/webhookSECRETpath";
const NOW = Date.parse("2026-03-01T10:00:00.000Z");

let slack: FakeSlack;
let telegram: FakeTelegram;
let store: TempStore;
let hookUrl: string;

beforeAll(async () => {
  slack = await startFakeSlack();
  telegram = await startFakeTelegram(TOKEN);
  hookUrl = `http://127.0.0.1:${await closedPort()}${HOOK_PATH}?key=queryTOKENvalue`;
  store = tempStore("endpoint-secrets-");
});

afterAll(async () => {
  store.dispose();
  await Promise.all([slack.close(), telegram.close()]);
});

function endpoints(): Endpoint[] {
  return [
    { name: "sistema", channel: "webhook", url: hookUrl, secrets: [SECRET] },
    { name: "equipe", channel: "slack", url: slack.url },
    { name: "bot", channel: "telegram", apiBase: telegram.origin, token: TOKEN, chatId: "-100" },
  ];
}

function secrets(): string[] {
  const slackPath = new URL(slack.url).pathname;
  return [TOKEN, SECRET, SECRET.slice("whsec_".length), HOOK_PATH, "queryTOKENvalue", slackPath];
}

describe("an endpoint's secrets", () => {
  it("are in no log line, database row, status line, metric or operator mail", async () => {
    const content = sampleAlert();
    const at = new Date(NOW).toISOString();
    const { caseId, changeId } = queueChange(store.db, content, [], at);
    queueMessage(
      { db: store.db, domain: DOMAIN, at: new Date(NOW) },
      movementAlert({ changeId, caseId, detectedAt: at, content }),
      endpoints().map((e) => ({ channel: e.channel, address: e.name })),
    );
    // Each answer echoes the URL it was called at, as some servers' error pages do.
    slack.script.push({ status: 500, body: `upstream failed for ${slack.url}` });
    telegram.script.push({
      status: 410,
      body: `{"ok":false,"description":"Gone: /bot${TOKEN}/sendMessage"}`,
    });
    const lines: string[] = [];
    const logger = createLogger({
      level: "debug",
      destination: { write: (l: string) => lines.push(l) },
    });
    const metrics = new MonitorMetrics({ processMetrics: false });
    metrics.readStoredFrom({
      casesByOutcome: () => ({}),
      outboxByState: () => ({}),
      endpoints: () =>
        endpointMetrics(
          endpointStatuses(endpoints(), endpointOutbox(store.db), endpointStates(store.db)),
        ),
    });

    const result = await drainEndpoints({
      claimant: thisProcessClaimant(realSystem),
      db: store.db,
      endpoints: endpoints(),
      limits: DEFAULT_ENDPOINT_LIMITS,
      clock: new FakeClock({ now: NOW }),
      maxAttempts: 1,
      logger,
      operator: { admin: "ops@example.com", domain: DOMAIN, policy: () => undefined },
    });
    metrics.endpointsDelivered(result);

    // Each failed its own way: a refused connection, a 500 and a 410; each one is told once.
    expect(result).toMatchObject({ sent: 0, dead: 3, operatorAlerts: 3 });
    const rows = JSON.stringify(store.db.prepare("SELECT * FROM outbox").all());
    const states = JSON.stringify(store.db.prepare("SELECT * FROM endpoint_state").all());
    const status = endpointStatuses(endpoints(), endpointOutbox(store.db), endpointStates(store.db))
      .map((e) => endpointLine(e, "America/Sao_Paulo"))
      .join("\n");
    const mails = store.db
      .prepare<[], { payload: string }>("SELECT payload FROM outbox WHERE kind = 'admin'")
      .all()
      .map((r) => renderAdminAlert([AdminAlert.parse(JSON.parse(r.payload))], "America/Sao_Paulo"))
      .map((m) => `${m.subject}\n${m.text}\n${m.html}`)
      .join("\n");
    const scraped = await metrics.registry.metrics();
    expect(status).toContain('telegram endpoint "bot": DISABLED');
    expect(status).toContain('webhook endpoint "sistema": DEAD');
    expect(mails).toContain("127.0.0.1");
    expect(lines.join("")).toContain("endpoint delivery failed");
    for (const [where, text] of Object.entries({
      lines: lines.join(""),
      rows,
      states,
      status,
      mails,
      scraped,
    })) {
      for (const secret of secrets())
        expect(text, `${where} shows ${secret}`).not.toContain(secret);
    }
  });
});
