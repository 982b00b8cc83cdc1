import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../../src/log.js";
import { drainEndpoints } from "../../../../src/notify/outbox/endpoint-drain.js";
import { movementAlert } from "../../../../src/notify/outbox/messages.js";
import { queueMessage } from "../../../../src/notify/outbox/queue.js";
import { DEFAULT_ENDPOINT_LIMITS } from "../../../../src/notify/transport/http-endpoint.js";
import { thisProcessClaimant } from "../../../../src/store/lease.js";
import { outboxCounts } from "../../../../src/store/outbox.js";
import { realSystem } from "../../../../src/system.js";
import { FakeClock } from "../../../fakes/fake-clock.js";
import {
  type FakeWebhookReceiver,
  startFakeWebhookReceiver,
} from "../../../fakes/fake-webhook-receiver.js";
import { nodeArgs } from "../../../support/cli-process.js";
import { DOMAIN, queueChange, type TempStore, tempStore } from "../../../support/outbox-store.js";
import { sampleAlert } from "../../../unit/notify/render/sample-alert.js";

/*
 * The webhook floor, as crash-resend.test.ts proves it for mail: a drain killed right after the
 * receiver's 2xx. One kill in a process that only drains (not a whole run-once): what is proven
 * is the gap between the 2xx and the mark, and a second kill would prove the same gap again.
 */

const CHILD = fileURLToPath(new URL("./endpoint-drain-child.ts", import.meta.url));
const SECRET = `whsec_${Buffer.alloc(32, 8).toString("base64")}`;
const NOW = "2026-03-01T10:00:00.000Z";
/** One minute after the crash: far inside the ten minutes a claim lasts. */
const NEXT_RUN = new Date(Date.parse(NOW) + 60_000);

let store: TempStore;
let receiver: FakeWebhookReceiver;
let child: ChildProcess | undefined;

beforeEach(async () => {
  store = tempStore("endpoint-crash-");
  receiver = await startFakeWebhookReceiver({
    secret: SECRET,
    nowSeconds: () => Math.floor(Date.parse(NOW) / 1000),
  });
  receiver.afterAnswer = () => {
    child?.kill("SIGKILL");
    child = undefined;
  };
});

afterEach(async () => {
  child?.kill("SIGKILL");
  await receiver.close();
  store.dispose();
});

/** Three changes of one case, each queued for the firm-wide webhook. */
function queueThree(): void {
  for (const minute of ["00", "01", "02"]) {
    const at = `2026-03-01T09:${minute}:00.000Z`;
    const content = sampleAlert();
    const { caseId, changeId } = queueChange(store.db, content, [], at);
    queueMessage(
      { db: store.db, domain: DOMAIN, at: new Date(at) },
      movementAlert({ changeId, caseId, detectedAt: at, content }),
      [{ channel: "webhook", address: "webhook" }],
    );
  }
}

function runChild(): Promise<NodeJS.Signals | null> {
  return new Promise((resolve, reject) => {
    const spawned = spawn(
      process.execPath,
      [...nodeArgs(CHILD), store.dbPath, receiver.url, SECRET, NOW],
      { stdio: ["ignore", "ignore", "ignore"] },
    );
    child = spawned;
    spawned.on("error", reject);
    spawned.on("exit", (_code, signal) => resolve(signal));
  });
}

describe("an endpoint drain killed right after the webhook receiver's 2xx", () => {
  it("the next drain sends the rest at once: at most one resend, with the same webhook-id", async () => {
    queueThree();

    const signal = await runChild();
    const inCrash = receiver.deliveries.map((d) => d.id);
    const next = await drainEndpoints({
      claimant: thisProcessClaimant(realSystem),
      db: store.db,
      endpoints: [{ name: "webhook", channel: "webhook", url: receiver.url, secrets: [SECRET] }],
      limits: DEFAULT_ENDPOINT_LIMITS,
      clock: new FakeClock({ now: NEXT_RUN.getTime() }),
      maxAttempts: 5,
      logger: silentLogger(),
    });
    const ids = receiver.deliveries.map((d) => d.id);

    expect(signal).toBe("SIGKILL");
    expect(inCrash.length).toBeGreaterThanOrEqual(1);
    expect(next.sent).toBeGreaterThanOrEqual(2);
    expect(outboxCounts(store.db)).toEqual({ pending: 0, sent: 3, dead: 0 });
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    expect(new Set(ids).size).toBe(3);
    expect(receiver.events).toHaveLength(3);
    // The floor: one kill, at most one event delivered twice, and then with the id the receiver
    // already had (it answers a repeat as a duplicate and does not act on it again).
    expect(ids.length - 3).toBeLessThanOrEqual(1);
    expect(receiver.duplicates).toHaveLength(ids.length - 3);
  });
});
