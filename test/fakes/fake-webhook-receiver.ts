import { Webhook } from "standardwebhooks";
import { type EndpointFake, type ReceivedRequest, startEndpointFake } from "./endpoint-fake.js";

/**
 * A firm's system receiving our webhooks, as the Standard Webhooks specification tells receivers
 * to work, with the reference library (standardwebhooks) computing the expected signature, so our
 * signing is checked by code that is not ours: the signature over id.timestamp.body, the
 * timestamp within five minutes of the receiver's own clock (`nowSeconds`, injectable), and an
 * id seen before taken as a duplicate (answered 200, not processed again). A bad signature or an
 * old timestamp gets 401. `events` holds each event processed once; `duplicates` the ids that
 * came again.
 */

export interface WebhookDelivery {
  id: string;
  verified: boolean;
  /** Why it was refused, when it was. */
  refusal: string | null;
  event: unknown;
}

export interface FakeWebhookReceiver extends EndpointFake {
  /** Where to POST: `${origin}/hooks/datajud`. */
  url: string;
  deliveries: WebhookDelivery[];
  /** Events processed, once each. */
  events: unknown[];
  duplicates: string[];
  nowSeconds: () => number;
}

const TOLERANCE_SECONDS = 300;

function header(request: ReceivedRequest, name: string): string {
  const value = request.headers[name];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

function check(request: ReceivedRequest, secret: string, now: number): string | null {
  const id = header(request, "webhook-id");
  const timestamp = header(request, "webhook-timestamp");
  const offered = header(request, "webhook-signature").split(" ");
  if (id === "" || timestamp === "" || offered[0] === "") return "missing headers";
  if (!/^\d+$/.test(timestamp)) return "bad timestamp";
  if (Math.abs(now - Number(timestamp)) > TOLERANCE_SECONDS) return "timestamp outside the window";
  const expected = new Webhook(secret).sign(id, new Date(Number(timestamp) * 1000), request.body);
  if (!offered.includes(expected)) return "bad signature";
  if (header(request, "content-type") !== "application/json") return "not application/json";
  return null;
}

export async function startFakeWebhookReceiver(options: {
  secret: string;
  nowSeconds?: () => number;
}): Promise<FakeWebhookReceiver> {
  const seen = new Set<string>();
  const fake = (await startEndpointFake((request) => {
    const refusal =
      request.path !== "/hooks/datajud"
        ? "unknown path"
        : check(request, options.secret, receiver.nowSeconds());
    const id = header(request, "webhook-id");
    if (refusal !== null) {
      receiver.deliveries.push({ id, verified: false, refusal, event: null });
      return { status: 401, body: refusal };
    }
    const event: unknown = JSON.parse(request.body);
    receiver.deliveries.push({ id, verified: true, refusal: null, event });
    if (seen.has(id)) {
      receiver.duplicates.push(id);
      return { status: 200, body: "duplicate" };
    }
    seen.add(id);
    receiver.events.push(event);
    return { status: 204 };
  })) as FakeWebhookReceiver;
  const receiver = fake;
  receiver.url = `${fake.origin}/hooks/datajud`;
  receiver.deliveries = [];
  receiver.events = [];
  receiver.duplicates = [];
  receiver.nowSeconds = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  return receiver;
}
