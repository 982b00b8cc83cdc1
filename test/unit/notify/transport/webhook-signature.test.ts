import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import {
  eventId,
  signWebhook,
  verifyWebhook,
  webhookSecretKey,
} from "../../../../src/notify/transport/webhook-signature.js";

const SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
const OTHER = `whsec_${Buffer.alloc(32, 9).toString("base64")}`;
const BODY = '{"type":"case.movement","data":{"name":"Sentença"}}';
const ID = eventId("alert:42:ana@example.com");
const NOW = 1_759_400_000;

describe("signWebhook", () => {
  it("signs exactly as the Standard Webhooks reference library does", () => {
    const headers = signWebhook({ id: ID, timestampSeconds: NOW, body: BODY, secrets: [SECRET] });

    const reference = new Webhook(SECRET).sign(ID, new Date(NOW * 1000), BODY);
    expect(headers["webhook-signature"]).toBe(reference);
    expect(headers["webhook-timestamp"]).toBe(String(NOW));
    expect(headers["webhook-id"]).toBe(ID);
  });

  it("is accepted by the reference library's verify, which checks against its own clock", () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = signWebhook({ id: ID, timestampSeconds: now, body: BODY, secrets: [SECRET] });

    const parsed = new Webhook(SECRET).verify(BODY, { ...headers });

    expect(parsed).toEqual(JSON.parse(BODY));
  });

  it("signs with both keys during a rotation, and either verifies", () => {
    const headers = signWebhook({
      id: ID,
      timestampSeconds: NOW,
      body: BODY,
      secrets: [SECRET, OTHER],
    });

    for (const secret of [SECRET, OTHER]) {
      expect(verifyWebhook({ headers, body: BODY, secrets: [secret], nowSeconds: NOW }).ok).toBe(
        true,
      );
    }
  });
});

describe("verifyWebhook", () => {
  const headers = signWebhook({ id: ID, timestampSeconds: NOW, body: BODY, secrets: [SECRET] });

  it("accepts a request the reference library signed", () => {
    const signed = {
      "webhook-id": ID,
      "webhook-timestamp": String(NOW),
      "webhook-signature": new Webhook(SECRET).sign(ID, new Date(NOW * 1000), BODY),
    };

    expect(
      verifyWebhook({ headers: signed, body: BODY, secrets: [SECRET], nowSeconds: NOW }),
    ).toEqual({ ok: true, id: ID, timestampSeconds: NOW });
  });

  it("refuses a changed body, another id, another key or a missing header", () => {
    const verify = (h: Record<string, string>, body = BODY, secret = SECRET): unknown =>
      verifyWebhook({ headers: h, body, secrets: [secret], nowSeconds: NOW });

    expect(verify(headers, BODY.replace("Sentença", "Despacho"))).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    expect(verify({ ...headers, "webhook-id": eventId("other") })).toMatchObject({ ok: false });
    expect(verify(headers, BODY, OTHER)).toMatchObject({ ok: false, reason: "bad_signature" });
    const { "webhook-signature": _, ...unsigned } = headers;
    expect(verify(unsigned)).toEqual({ ok: false, reason: "missing_headers" });
  });

  it("refuses a replay outside the five-minute window, on either side", () => {
    const at = (nowSeconds: number): unknown =>
      verifyWebhook({ headers, body: BODY, secrets: [SECRET], nowSeconds });

    expect(at(NOW + 300)).toMatchObject({ ok: true });
    expect(at(NOW + 301)).toEqual({ ok: false, reason: "too_old" });
    expect(at(NOW - 301)).toEqual({ ok: false, reason: "too_new" });
  });
});

describe("webhookSecretKey", () => {
  it("takes whsec_ and base64 of 24 to 64 bytes, with or without the prefix", () => {
    const raw = randomBytes(32);

    expect(webhookSecretKey(`whsec_${raw.toString("base64")}`)).toEqual(raw);
    expect(webhookSecretKey(raw.toString("base64"))).toEqual(raw);
  });

  it("refuses a short or non-base64 secret without quoting it", () => {
    const short = `whsec_${Buffer.alloc(8, 1).toString("base64")}`;
    const typed = "my-password-1234";

    expect(() => webhookSecretKey(short)).toThrow(/8 bytes/);
    for (const secret of [short, typed]) {
      let message = "";
      try {
        webhookSecretKey(secret);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain("openssl rand");
      expect(message).not.toContain(secret);
      expect(message).not.toContain(secret.slice(6));
    }
  });
});

describe("eventId", () => {
  it("is stable for one key and differs between keys", () => {
    expect(eventId("a")).toBe(eventId("a"));
    expect(eventId("a")).not.toBe(eventId("b"));
    expect(eventId("a")).toMatch(/^evt_[0-9a-f]{32}$/);
  });
});
