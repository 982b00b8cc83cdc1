import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { endpointLine } from "../../../src/cli/status.js";
import { silentLogger } from "../../../src/log.js";
import { MonitorMetrics } from "../../../src/metrics/metrics.js";
import {
  drainEndpoints,
  type EndpointDrainOptions,
} from "../../../src/notify/outbox/endpoint-drain.js";
import { movementAlert } from "../../../src/notify/outbox/messages.js";
import { queueMessage } from "../../../src/notify/outbox/queue.js";
import { AdminAlert, renderAdminAlert } from "../../../src/notify/render/operator-mail.js";
import type { Endpoint } from "../../../src/notify/transport/endpoint.js";
import { DEFAULT_ENDPOINT_LIMITS } from "../../../src/notify/transport/http-endpoint.js";
import type { EndpointPolicy } from "../../../src/policy/alert-rules.js";
import { endpointMetrics, endpointStatuses } from "../../../src/policy/endpoint-status.js";
import { mailPolicy } from "../../../src/policy/mail-policy.js";
import { closeDatabase, openDatabase } from "../../../src/store/database.js";
import {
  enableEndpoint,
  endpointState,
  endpointStates,
} from "../../../src/store/endpoint-state.js";
import { thisProcessClaimant } from "../../../src/store/lease.js";
import { endpointOutbox } from "../../../src/store/outbox.js";
import { realSystem } from "../../../src/system.js";
import { type FakeSlack, startFakeSlack } from "../../fakes/fake-chat.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { DOMAIN, queueChange, type TempStore, tempStore } from "../../support/outbox-store.js";
import { sampleAlert } from "../../unit/notify/render/sample-alert.js";

/*
 * What the monitor remembers of an endpoint (store/endpoint-state.ts): a 410 disables it across
 * restarts until `endpoint enable`; alerts given up after their attempts make it dead; each is
 * told to the operator once, never per alert, and never with the endpoint's secret URL.
 */

const SECRET_PATH = "slacksecretpath123";
const ADMIN = "ops@example.com";
const T0 = Date.parse("2026-03-01T10:00:00.000Z");
const MINUTE = 60_000;

let slack: FakeSlack;
let store: TempStore;
let now: number;
let queued = 0;

beforeAll(async () => {
  slack = await startFakeSlack();
});
afterAll(async () => {
  await slack.close();
});
beforeEach(() => {
  store = tempStore("endpoint-state-");
  now = T0;
  queued = 0;
  slack.script.length = 0;
});
afterEach(() => {
  store.dispose();
});

function endpoint(): Endpoint {
  return { name: "equipe", channel: "slack", url: slack.url };
}

/** One change of the sample case, queued for the Slack endpoint only. */
function queueAlert(): void {
  const at = new Date(T0 + queued * MINUTE).toISOString();
  queued++;
  const content = sampleAlert();
  const { caseId, changeId } = queueChange(store.db, content, [], at);
  queueMessage(
    { db: store.db, domain: DOMAIN, at: new Date(at) },
    movementAlert({ changeId, caseId, detectedAt: at, content }),
    [{ channel: "slack", address: "equipe" }],
  );
}

function drain(overrides: Partial<EndpointDrainOptions> = {}) {
  return drainEndpoints({
    claimant: thisProcessClaimant(realSystem),
    db: store.db,
    endpoints: [endpoint()],
    limits: DEFAULT_ENDPOINT_LIMITS,
    clock: new FakeClock({ now }),
    maxAttempts: 3,
    backoffMs: () => MINUTE,
    logger: silentLogger(),
    operator: { admin: ADMIN, domain: DOMAIN, policy: () => undefined },
    ...overrides,
  });
}

function operatorRows(): Array<{ recipient: string; payload: string }> {
  return store.db
    .prepare<[], { recipient: string; payload: string }>(
      "SELECT recipient, payload FROM outbox WHERE kind = 'admin' ORDER BY id",
    )
    .all();
}

function statusOf() {
  const [status] = endpointStatuses(
    [endpoint()],
    endpointOutbox(store.db),
    endpointStates(store.db),
  );
  if (status === undefined) throw new Error("no status");
  return status;
}

describe("an endpoint that answers 410 Gone", () => {
  it("stays disabled across a restart, its later alerts given up unsent, until enabled again", async () => {
    queueAlert();
    queueAlert();
    slack.script.push({ status: 410, body: "channel_is_archived" });

    const first = await drain();

    expect(first).toMatchObject({ sent: 0, dead: 2, operatorAlerts: 1 });
    expect(endpointState(store.db, "slack", "equipe")?.disabledAt).toBe(new Date(T0).toISOString());
    // A restart: the state is the database's, not the process's.
    closeDatabase(store.db);
    store.db = openDatabase(store.dbPath);
    queueAlert();
    now += 10 * MINUTE;
    const requestsBefore = slack.requests.length;

    const second = await drain();

    expect(slack.requests.length).toBe(requestsBefore);
    expect(second).toMatchObject({ sent: 0, dead: 1, operatorAlerts: 0 });
    expect(statusOf()).toMatchObject({ condition: "disabled", dead: 3, pending: 0 });
    expect(operatorRows()).toHaveLength(1);
    const line = endpointLine(statusOf(), "America/Sao_Paulo");
    expect(line).toContain('slack endpoint "equipe": DISABLED since');
    expect(line).toContain("datajud-monitor endpoint enable equipe");
    expect(line).not.toContain(SECRET_PATH);

    expect(enableEndpoint(store.db, "equipe")).toEqual(["slack"]);
    queueAlert();
    const third = await drain();

    expect(third).toMatchObject({ sent: 1, dead: 0 });
    expect(statusOf()).toMatchObject({ condition: "ok", sent: 1, dead: 3 });
  });

  it("tells the operator once, by name and host, never with the URL, and not on itself", async () => {
    queueAlert();
    slack.script.push({ status: 410, body: `gone: ${slack.url}` });
    const operators: EndpointPolicy[] = ["equipe", "webhook"].map((name) => ({
      name,
      channel: name === "webhook" ? "webhook" : "slack",
      events: ["operator.alert"],
      delivery: "instant",
      digestSchedule: null,
      quietHours: false,
    }));
    const policy = mailPolicy(
      { cases: [], watchers: [] },
      {
        timezone: "America/Sao_Paulo",
        quietHours: null,
        urgentBypassesQuietHours: true,
        defaultDelivery: "instant",
        endpoints: operators,
      },
    );

    await drain({ operator: { admin: ADMIN, domain: DOMAIN, policy: () => policy } });

    // mail.admin and the firm's webhook hear of it; the Slack channel that is gone does not.
    expect(operatorRows().map((r) => r.recipient)).toEqual([ADMIN, "webhook"]);
    const [row] = operatorRows();
    expect(row?.recipient).toBe(ADMIN);
    const alert = AdminAlert.parse(JSON.parse(row?.payload ?? "null"));
    expect(alert).toMatchObject({ type: "endpoint_disabled", channel: "slack", name: "equipe" });
    const mail = renderAdminAlert([alert], "America/Sao_Paulo");
    expect(mail.subject).toContain('endpoint slack "equipe" disabled (410 Gone)');
    expect(mail.text).toContain("datajud-monitor endpoint enable equipe");
    expect(mail.text).toContain("127.0.0.1");
    for (const out of [mail.subject, mail.text, mail.html, row?.payload ?? ""]) {
      expect(out).not.toContain(SECRET_PATH);
    }
  });
});

describe("alerts an endpoint keeps failing", () => {
  it("are retried with back-off, then dead: one operator alert for them all, until a delivery", async () => {
    for (let i = 0; i < 3; i++) queueAlert();
    for (let i = 0; i < 9; i++) slack.script.push({ status: 503, body: "busy" });

    const tries = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      tries.push(await drain());
      now += MINUTE;
    }

    expect(tries.map((t) => [t.failed, t.dead])).toEqual([
      [3, 0],
      [3, 0],
      [0, 3],
    ]);
    expect(statusOf()).toMatchObject({ condition: "dead", dead: 3, lastError: "HTTP 503: busy" });
    expect(operatorRows()).toHaveLength(1);
    expect(JSON.parse(operatorRows()[0]?.payload ?? "null")).toMatchObject({
      type: "endpoint_dead",
      attempts: 3,
    });

    // A delivery ends the spell: the next alert given up is told again.
    queueAlert();
    await drain();
    expect(statusOf().condition).toBe("ok");
    queueAlert();
    slack.script.push({ status: 400, body: "invalid_payload" });
    slack.script.push({ status: 400, body: "invalid_payload" });
    slack.script.push({ status: 400, body: "invalid_payload" });
    for (let attempt = 0; attempt < 3; attempt++) {
      await drain({ maxAttempts: 10 });
      now += MINUTE;
    }
    // Another 4xx needs a person: dead after three attempts even where ten are allowed.
    expect(statusOf()).toMatchObject({ condition: "dead", dead: 4, pending: 0 });
    expect(operatorRows()).toHaveLength(2);
  });

  it("show in /metrics per endpoint: delivered, failed, dead, and whether it is disabled", async () => {
    const metrics = new MonitorMetrics({ processMetrics: false });
    metrics.readStoredFrom({
      casesByOutcome: () => ({}),
      outboxByState: () => ({}),
      endpoints: () =>
        endpointMetrics(
          endpointStatuses([endpoint()], endpointOutbox(store.db), endpointStates(store.db)),
        ),
    });
    queueAlert();
    metrics.endpointsDelivered(await drain());
    queueAlert();
    slack.script.push({ status: 503 });
    metrics.endpointsDelivered(await drain());
    slack.script.push({ status: 410, body: "channel_is_archived" });
    now += MINUTE;
    metrics.endpointsDelivered(await drain());

    const text = await metrics.registry.metrics();
    const p = "datajud_monitor_";
    expect(text).toContain(
      `${p}endpoint_deliveries_total{channel="slack",endpoint="equipe",result="sent"} 1`,
    );
    expect(text).toContain(
      `${p}endpoint_deliveries_total{channel="slack",endpoint="equipe",result="failed"} 1`,
    );
    expect(text).toContain(
      `${p}endpoint_deliveries_total{channel="slack",endpoint="equipe",result="dead"} 1`,
    );
    expect(text).toContain(`${p}endpoint_alerts{channel="slack",endpoint="equipe",state="dead"} 1`);
    expect(text).toContain(`${p}endpoint_disabled{channel="slack",endpoint="equipe"} 1`);
    expect(text).not.toContain(SECRET_PATH);
  });
});

function slackRows(): Array<{
  status: string;
  lastError: string | null;
  nextAttemptAt: string | null;
}> {
  return store.db
    .prepare<[], { status: string; lastError: string | null; nextAttemptAt: string | null }>(
      "SELECT status, last_error AS lastError, next_attempt_at AS nextAttemptAt FROM outbox WHERE channel = 'slack' ORDER BY id",
    )
    .all();
}

describe("rows no endpoint of this process can take", () => {
  it("are left due when the configuration names the endpoint but this process cannot send to it", async () => {
    queueAlert();

    const result = await drain({
      endpoints: [],
      unsendable: [{ channel: "slack", name: "equipe" }],
    });

    expect(result).toMatchObject({ sent: 0, failed: 0, dead: 0 });
    expect(slackRows()).toEqual([{ status: "pending", lastError: null, nextAttemptAt: null }]);
  });

  it("are dead at once, saying why, when the endpoint left the configuration", async () => {
    queueAlert();
    const posted = slack.messages.length;

    const result = await drain({ endpoints: [] });

    expect(result.dead).toBe(1);
    expect(slackRows()).toMatchObject([
      {
        status: "dead",
        lastError: 'no slack endpoint "equipe" in the configuration any more',
      },
    ]);
    expect(slack.messages).toHaveLength(posted);
  });
});

describe("a failed delivery's next attempt", () => {
  it("waits the back-off, or the endpoint's Retry-After when that is longer", async () => {
    queueAlert();
    slack.script.push({ status: 503, body: "busy" });
    await drain();
    expect(slackRows()[0]?.nextAttemptAt).toBe(new Date(T0 + MINUTE).toISOString());

    now += MINUTE;
    slack.script.push({ status: 429, body: "slow down", headers: { "retry-after": "600" } });
    await drain();
    expect(slackRows()[0]).toMatchObject({
      status: "pending",
      nextAttemptAt: new Date(now + 600_000).toISOString(),
    });
  });
});
