import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log.js";
import { drainEndpoints } from "../../../src/notify/outbox/endpoint-drain.js";
import { movementAlert } from "../../../src/notify/outbox/messages.js";
import { emailEndpoints, queueMessage } from "../../../src/notify/outbox/queue.js";
import type { Endpoint } from "../../../src/notify/transport/endpoint.js";
import { DEFAULT_ENDPOINT_LIMITS } from "../../../src/notify/transport/http-endpoint.js";
import type { MailPolicy } from "../../../src/policy/mail-policy.js";
import type { Claimant } from "../../../src/store/lease.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { type FakeWhatsApp, startFakeWhatsApp } from "../../fakes/fake-whatsapp.js";
import { PER_WATCHER_ZAP, watchersPolicy } from "../../support/ack-http.js";
import { DOMAIN, queueChange, type TempStore, tempStore } from "../../support/outbox-store.js";
import { sampleAlert } from "../../unit/notify/render/sample-alert.js";

/*
 * A whatsapp endpoint without a `to` of its own sends each watcher's alert to the number of the
 * watcher's `whatsapp:` (issue 40): one outbox row per watcher number, each sent once, a watcher
 * without a number told by e-mail only, and a crash between the Cloud API's 200 and the mark
 * resending only the one row in flight.
 */

const TOKEN = "EAAGsecretWHATSAPPtoken0123456789";
const NOW = Date.parse("2026-03-02T13:00:00.000Z");
const silent = createLogger({ level: "silent" });

let api: FakeWhatsApp;
let store: TempStore;

beforeAll(async () => {
  api = await startFakeWhatsApp({ token: TOKEN });
});
afterAll(async () => {
  await api.close();
});
beforeEach(() => {
  store = tempStore("wa-watchers-");
});
afterEach(() => {
  store.dispose();
  api.messages.length = 0;
  api.requests.length = 0;
  api.script.length = 0;
});

function endpoint(): Endpoint {
  return {
    name: "zap",
    channel: "whatsapp",
    apiBase: api.apiBase,
    token: TOKEN,
    phoneNumberId: api.phoneNumberId,
    to: null,
    template: { name: "alerta_processo", language: "pt_BR" },
  };
}

function policy(): MailPolicy {
  return watchersPolicy(
    [
      ["ana@example.com", "+5561987654321"],
      ["rui@example.com", "+5511912345678"],
      ["bia@example.com", null],
    ],
    { endpoints: [PER_WATCHER_ZAP], acknowledgement: false },
  );
}

const WATCHERS = ["ana@example.com", "rui@example.com", "bia@example.com"];

function queueAlert(): void {
  const content = sampleAlert();
  const at = new Date(NOW).toISOString();
  const { caseId, changeId } = queueChange(store.db, content, [], at);
  for (let i = 0; i < 2; i++) {
    // Twice, as a retried run does: the dedupe keys add nothing the second time.
    queueMessage(
      { db: store.db, domain: DOMAIN, at: new Date(NOW), policy: policy() },
      movementAlert({ changeId, caseId, detectedAt: at, content }),
      emailEndpoints(WATCHERS),
    );
  }
}

function claimant(holder: string, dead: readonly string[] = []): Claimant {
  return { holder, holderIsDead: (h: string) => dead.includes(h) };
}

function drain(clock: FakeClock, who: Claimant) {
  return drainEndpoints({
    claimant: who,
    db: store.db,
    endpoints: [endpoint()],
    limits: { ...DEFAULT_ENDPOINT_LIMITS, timeoutMs: 2000 },
    clock,
    maxAttempts: 5,
    logger: silent,
  });
}

describe("a per-watcher whatsapp endpoint", () => {
  it("queues one row per watcher number and sends each alert to that number once", async () => {
    queueAlert();
    const rows = store.db
      .prepare<[], { recipient: string; target: string | null }>(
        "SELECT recipient, target FROM outbox WHERE channel = 'whatsapp' ORDER BY target",
      )
      .all();
    expect(rows).toEqual([
      { recipient: "zap", target: "+5511912345678" },
      { recipient: "zap", target: "+5561987654321" },
    ]);

    const clock = new FakeClock({ now: NOW });
    const first = await drain(clock, claimant("a@host"));
    expect(first).toMatchObject({ sent: 2, failed: 0, dead: 0 });
    // The Cloud API takes the number without its "+".
    expect(api.messages.map((m) => m.to).sort()).toEqual(["5511912345678", "5561987654321"]);

    const again = await drain(clock, claimant("a@host"));
    expect(again).toMatchObject({ sent: 0, failed: 0, dead: 0 });
    expect(api.messages).toHaveLength(2);
  });

  it("resends only the row in flight when the process died between the 200 and the mark", async () => {
    queueAlert();
    const clock = new FakeClock({ now: NOW });
    // The crash: a dead process claimed ana's row and the API took it, the mark never came.
    const row = store.db
      .prepare<[], { id: number }>(
        "SELECT id FROM outbox WHERE channel = 'whatsapp' AND target = '+5561987654321'",
      )
      .get();
    store.db
      .prepare(
        "UPDATE outbox SET claimed_by = 'dead@host', next_attempt_at = '2026-03-02T14:00:00.000Z' WHERE id = ?",
      )
      .run(row?.id);

    const result = await drain(clock, claimant("b@host", ["dead@host"]));

    expect(result).toMatchObject({ sent: 2 });
    expect(api.messages.map((m) => m.to).sort()).toEqual(["5511912345678", "5561987654321"]);
    const after = await drain(clock, claimant("b@host", ["dead@host"]));
    expect(after.sent).toBe(0);
  });

  it("is never routed by a case's channels: (it has no number of its own)", () => {
    const content = sampleAlert();
    const at = new Date(NOW).toISOString();
    const { caseId, changeId } = queueChange(store.db, content, [], at);
    queueMessage(
      { db: store.db, domain: DOMAIN, at: new Date(NOW), policy: policy() },
      movementAlert({ changeId, caseId, detectedAt: at, content, channels: ["zap"] }),
      emailEndpoints(["bia@example.com"]),
    );
    const rows = store.db.prepare("SELECT * FROM outbox WHERE channel = 'whatsapp'").all();
    expect(rows).toEqual([]);
  });
});
