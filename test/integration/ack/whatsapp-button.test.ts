import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ackLinks } from "../../../src/ack/ack-token.js";
import type { HttpServer } from "../../../src/http/server.js";
import { createLogger } from "../../../src/log.js";
import { drainEndpoints } from "../../../src/notify/outbox/endpoint-drain.js";
import { movementAlert } from "../../../src/notify/outbox/messages.js";
import { emailEndpoints, queueMessage } from "../../../src/notify/outbox/queue.js";
import { DEFAULT_ENDPOINT_LIMITS } from "../../../src/notify/transport/http-endpoint.js";
import type { MailPolicy } from "../../../src/policy/mail-policy.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { type FakeWhatsApp, startFakeWhatsApp } from "../../fakes/fake-whatsapp.js";
import {
  ACK_BASE,
  ACK_SECRET,
  acknowledgedOf,
  callServer,
  PER_WATCHER_ZAP,
  startAckServer,
  watchersPolicy,
} from "../../support/ack-http.js";
import { DOMAIN, queueChange, type TempStore, tempStore } from "../../support/outbox-store.js";
import { sampleAlert } from "../../unit/notify/render/sample-alert.js";

/*
 * WhatsApp's acknowledgement button (issue 40, docs/channels.md "WhatsApp's button"): an urgent
 * alert goes as the endpoint's ackTemplate, the URL button's dynamic suffix its link's token,
 * accepted by a loopback Cloud API that knows both templates; the button opens the alert's own
 * page, whose POST acknowledges it as the watcher's number. A quiet alert goes as the plain
 * template, without a button.
 */

const NOW = Date.parse("2026-03-02T13:00:00.000Z");
const TOKEN = "EAAGbuttonWHATSAPPtoken0123456789";
const ANA = "+5561987654321";

function policy(): MailPolicy {
  return watchersPolicy([["ana@example.com", ANA]], { endpoints: [PER_WATCHER_ZAP] });
}

let api: FakeWhatsApp;
let store: TempStore;
let clock: FakeClock;
let server: HttpServer;
let port: number;

beforeAll(async () => {
  api = await startFakeWhatsApp({
    token: TOKEN,
    ackTemplate: "alerta_urgente",
    ackUrlBase: `${ACK_BASE}/ack/`,
  });
});
afterAll(async () => {
  await api.close();
});
beforeEach(async () => {
  store = tempStore("ack-wa-button-");
  clock = new FakeClock({ now: NOW });
  ({ server, port } = await startAckServer({ db: store.db, clock, policy: () => policy() }));
});
afterEach(async () => {
  await server.close();
  store.dispose();
  api.messages.length = 0;
});

function queue(label: string, urgent: boolean): void {
  const content = sampleAlert({ label, urgent });
  const iso = new Date(NOW).toISOString();
  const { caseId, changeId } = queueChange(store.db, content, [], iso);
  queueMessage(
    { db: store.db, domain: DOMAIN, at: new Date(NOW), policy: policy() },
    movementAlert({ changeId, caseId, detectedAt: iso, content }),
    emailEndpoints(["ana@example.com"]),
  );
}

describe("WhatsApp's acknowledgement button", () => {
  it("carries the urgent alert's token; its page acknowledges the alert as the number", async () => {
    queue("Silva x Estado", true);
    queue("Lima x Banco", false);

    const result = await drainEndpoints({
      db: store.db,
      endpoints: [
        {
          name: "zap",
          channel: "whatsapp",
          apiBase: api.apiBase,
          token: TOKEN,
          phoneNumberId: api.phoneNumberId,
          to: null,
          template: { name: "alerta_processo", language: "pt_BR" },
          ackTemplate: { name: "alerta_urgente", language: "pt_BR" },
        },
      ],
      limits: { ...DEFAULT_ENDPOINT_LIMITS, timeoutMs: 2000 },
      clock,
      maxAttempts: 3,
      logger: createLogger({ level: "silent" }),
      claimant: { holder: "me@host", holderIsDead: () => false },
      ackLink: ackLinks(ACK_BASE, ACK_SECRET),
    });

    expect(result).toMatchObject({ sent: 2, failed: 0, dead: 0 });
    const urgent = api.messages.find((m) => m.template === "alerta_urgente");
    const quiet = api.messages.find((m) => m.template === "alerta_processo");
    expect(quiet?.buttonUrl).toBeNull();
    expect(urgent?.buttonUrl).toMatch(/^https:\/\/monitor\.example\.com\/ack\/\d+\.[\w-]{32}$/u);
    // {{3}} stays the court's page: the button is the acknowledgement.
    expect(urgent?.parameters[2]).not.toContain("/ack/");

    const path = new URL(urgent?.buttonUrl ?? "").pathname;
    const page = await callServer(port, "GET", path);
    const post = await callServer(port, "POST", path, { origin: ACK_BASE });

    expect(page.body).toContain("Silva x Estado");
    expect(post.status).toBe(200);
    const row = store.db
      .prepare<[], { ackId: number | null }>(
        "SELECT ack_id AS ackId FROM outbox WHERE channel = 'whatsapp' AND subject LIKE '%Silva%'",
      )
      .get();
    expect(acknowledgedOf(store.db, { ackId: row?.ackId ?? null })).toEqual({
      at: "2026-03-02T13:00:00.000Z",
      by: `whatsapp ${ANA}`,
    });
  });
});
