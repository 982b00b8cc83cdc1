import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/log.js";
import { drainEndpoints } from "../../../src/notify/outbox/endpoint-drain.js";
import { movementAlert, publicationAlert } from "../../../src/notify/outbox/messages.js";
import { queueMessage } from "../../../src/notify/outbox/queue.js";
import type { Endpoint } from "../../../src/notify/transport/endpoint.js";
import { DEFAULT_ENDPOINT_LIMITS } from "../../../src/notify/transport/http-endpoint.js";
import { type EndpointPolicy, NO_ALERT_POLICY } from "../../../src/policy/alert-rules.js";
import { type MailPolicy, mailPolicy } from "../../../src/policy/mail-policy.js";
import { thisProcessClaimant } from "../../../src/store/lease.js";
import { realSystem } from "../../../src/system.js";
import {
  type FakeSlack,
  type FakeTeams,
  startFakeSlack,
  startFakeTeams,
} from "../../fakes/fake-chat.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import {
  type FakeWebhookReceiver,
  startFakeWebhookReceiver,
} from "../../fakes/fake-webhook-receiver.js";
import { DOMAIN, queueChange, type TempStore, tempStore } from "../../support/outbox-store.js";
import { sampleAlert } from "../../unit/notify/render/sample-alert.js";
import { samplePublication } from "../../unit/notify/render/sample-publication.js";

/*
 * Quiet hours and digests per channel, through queueMessage and the endpoint drain: at 23:00 in
 * São Paulo (quiet hours 22:00-07:00) the webhook gets every event at once, the Slack channel only
 * what is urgent (the rest at 07:00), and the Teams channel, on a digest at 18:00, one message
 * with them all at 18:00. A re-estimated deadline is its own publication.reestimated event.
 */

const SECRET = `whsec_${Buffer.alloc(32, 3).toString("base64")}`;
const NIGHT = new Date("2025-10-02T02:00:00.000Z"); // 23:00 on 01/10 in São Paulo (UTC-3)
const QUIET_ENDS = new Date("2025-10-02T10:00:00.000Z"); // 07:00
const DIGEST_AT = new Date("2025-10-02T21:00:00.000Z"); // 18:00
const CASE = sampleAlert();
const EVENTS = [
  "case.movement",
  "case.correction",
  "publication.published",
  "publication.cancelled",
  "publication.reestimated",
];

let receiver: FakeWebhookReceiver;
let slack: FakeSlack;
let teams: FakeTeams;
let store: TempStore;

beforeAll(async () => {
  receiver = await startFakeWebhookReceiver({
    secret: SECRET,
    nowSeconds: () => Math.floor(clock / 1000),
  });
  slack = await startFakeSlack();
  teams = await startFakeTeams();
});
afterAll(async () => {
  await Promise.all([receiver.close(), slack.close(), teams.close()]);
});
beforeEach(() => {
  store = tempStore("endpoint-timing-");
});
afterEach(() => {
  store.dispose();
});

let clock = NIGHT.getTime();

function chat(name: string, channel: "slack" | "teams", digest: boolean): EndpointPolicy {
  return {
    name,
    channel,
    events: EVENTS,
    delivery: digest ? "digest" : "instant",
    digestSchedule: digest ? "0 18 * * *" : null,
    quietHours: true,
  };
}

function policy(): MailPolicy {
  const digits = CASE.caseNumber.replace(/\D/g, "");
  return mailPolicy(
    {
      cases: [
        { digits, court: CASE.court, policy: NO_ALERT_POLICY, channels: ["equipe", "gestao"] },
      ],
      watchers: [],
    },
    {
      timezone: "America/Sao_Paulo",
      quietHours: { start: "22:00", end: "07:00" },
      urgentBypassesQuietHours: true,
      defaultDelivery: "instant",
      endpoints: [
        { ...chat("webhook", "slack", false), channel: "webhook", quietHours: false },
        chat("equipe", "slack", false),
        chat("gestao", "teams", true),
      ],
    },
  );
}

function endpoints(): Endpoint[] {
  return [
    { name: "webhook", channel: "webhook", url: receiver.url, secrets: [SECRET] },
    { name: "equipe", channel: "slack", url: slack.url },
    { name: "gestao", channel: "teams", url: teams.url },
  ];
}

async function drainAt(at: Date): Promise<void> {
  clock = at.getTime();
  await drainEndpoints({
    claimant: thisProcessClaimant(realSystem),
    db: store.db,
    endpoints: endpoints(),
    limits: DEFAULT_ENDPOINT_LIMITS,
    clock: new FakeClock({ now: at.getTime() }),
    maxAttempts: 3,
    logger: silentLogger(),
  });
}

describe("the same alerts at night, per channel", () => {
  it("webhook at once, Slack urgent now and the rest after quiet hours, Teams in its 18:00 digest", async () => {
    const context = { db: store.db, domain: DOMAIN, at: NIGHT, policy: policy() };
    const channels = context.policy.channels(CASE.caseNumber.replace(/\D/g, ""), CASE.court);
    for (const urgent of [false, true]) {
      const content = sampleAlert({ urgent });
      const at = new Date(NIGHT.getTime() - (urgent ? 0 : 60_000)).toISOString();
      const { caseId, changeId } = queueChange(store.db, content, [], at);
      queueMessage(
        context,
        movementAlert({ changeId, caseId, detectedAt: at, content, channels }),
        [],
      );
    }
    // A closure learnt after the alert moved the count a day on: a correction, as urgent as any.
    queueMessage(
      context,
      publicationAlert(
        samplePublication({
          notice: "re-estimated",
          countingStartsOn: "2025-10-07",
          estimateRevision: 2,
          previous: {
            publishedOn: "2025-10-03",
            countingStartsOn: "2025-10-06",
            lastDay: null,
            session: null,
          },
        }),
        null,
        channels,
      ),
      [],
    );
    const events = () => (receiver.events as Array<{ type: string }>).map((e) => e.type);
    const slackBefore = slack.messages.length;
    const teamsBefore = teams.cards.length;
    const eventsBefore = receiver.events.length;

    await drainAt(NIGHT);
    const night = {
      webhook: events().slice(eventsBefore),
      slack: slack.messages.slice(slackBefore).map((m) => m.text.split("\n")[0]),
      teams: teams.cards.length - teamsBefore,
    };
    await drainAt(QUIET_ENDS);
    const morning = {
      slack: slack.messages.length - slackBefore,
      teams: teams.cards.length - teamsBefore,
    };
    await drainAt(DIGEST_AT);
    await drainAt(new Date(DIGEST_AT.getTime() + 60_000));

    expect(night.webhook).toEqual(["case.movement", "case.movement", "publication.reestimated"]);
    expect(night.slack).toHaveLength(2);
    expect(night.slack.every((title) => title?.includes("URGENTE"))).toBe(true);
    expect(night.slack[1]).toContain("Prazo reestimado");
    expect(night.teams).toBe(0);
    expect(morning).toEqual({ slack: 3, teams: 0 });
    const digests = teams.cards.slice(teamsBefore);
    expect(digests).toHaveLength(1);
    expect(digests[0]?.texts.join("\n")).toContain("Resumo do monitor: 3 alertas");
    expect(receiver.events.length - eventsBefore).toBe(3);
    expect(slack.messages.length - slackBefore).toBe(3);
  });
});
