import { createHash, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";

/*
 * Webhook signatures as the Standard Webhooks specification (standardwebhooks.com, v1) defines
 * them, so a receiver can use any of its libraries: HMAC-SHA256, keyed with the secret's bytes,
 * over `${webhook-id}.${webhook-timestamp}.${body}`, sent base64-encoded as `v1,<signature>` in
 * `webhook-signature` (space-separated when several keys sign, as during a rotation). The secret
 * is written `whsec_` followed by the base64 of 24 to 64 random bytes. The timestamp is in whole
 * seconds; a receiver refuses one too far from its clock, and remembers the ids it has taken
 * within that window, which together stop a replayed request. The HMAC itself is the reference
 * library's (`standardwebhooks`); what stays here is our secret check, whose message says how to
 * make a good secret without quoting the bad one, and a verifier that takes its clock as an input.
 */

export const SECRET_PREFIX = "whsec_";
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;
/** The tolerance the specification recommends: a signed request older or newer than this is refused. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/u;

export type WebhookHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

export class WebhookSecretError extends Error {
  override name = "WebhookSecretError";
}

const SECRET_HINT =
  'make one with: echo "whsec_$(openssl rand -base64 32)" (the value is not shown: it is a secret)';

/** The key bytes of a `whsec_...` secret; the error never quotes the value. */
export function webhookSecretKey(secret: string): Buffer {
  const text = secret.trim();
  const encoded = text.startsWith(SECRET_PREFIX) ? text.slice(SECRET_PREFIX.length) : text;
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0) {
    throw new WebhookSecretError(`the webhook secret is not whsec_ and base64; ${SECRET_HINT}`);
  }
  const key = Buffer.from(encoded, "base64");
  if (key.length < MIN_SECRET_BYTES || key.length > MAX_SECRET_BYTES) {
    throw new WebhookSecretError(
      `the webhook secret holds ${key.length} bytes; Standard Webhooks wants ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES}; ${SECRET_HINT}`,
    );
  }
  return key;
}

/** The base64 signature alone, without its `v1,` version tag. */
function signature(key: Buffer, id: string, timestamp: string, body: string | Buffer): string {
  const signed = new Webhook(key, { format: "raw" }).sign(
    id,
    new Date(Number(timestamp) * 1000),
    body,
  );
  return signed.slice(signed.indexOf(",") + 1);
}

/** The three headers for one delivery attempt; `secrets` usually holds one (two while rotating). */
export function signWebhook(input: {
  id: string;
  /** Unix time in seconds of this attempt. */
  timestampSeconds: number;
  body: string | Buffer;
  secrets: readonly string[];
}): WebhookHeaders {
  if (input.secrets.length === 0) throw new WebhookSecretError("no webhook secret to sign with");
  const timestamp = String(Math.floor(input.timestampSeconds));
  return {
    "webhook-id": input.id,
    "webhook-timestamp": timestamp,
    "webhook-signature": input.secrets
      .map((s) => `v1,${signature(webhookSecretKey(s), input.id, timestamp, input.body)}`)
      .join(" "),
  };
}

export type WebhookVerification =
  | { ok: true; id: string; timestampSeconds: number }
  | {
      ok: false;
      reason: "missing_headers" | "bad_timestamp" | "too_old" | "too_new" | "bad_signature";
    };

function header(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
  name: string,
): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : (value as string | undefined);
}

/**
 * What a receiver does with each request, before it parses the body: the raw body as received,
 * the headers (lower-case names, as node:http gives them), its own clock. A receiver that also
 * remembers each `id` it accepted for `toleranceSeconds` (and answers 2xx to a repeat without
 * acting on it again) is safe from replays and from our retries alike.
 */
export function verifyWebhook(input: {
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  body: string | Buffer;
  /** The endpoint's secret; two during a rotation. */
  secrets: readonly string[];
  nowSeconds: number;
  toleranceSeconds?: number;
}): WebhookVerification {
  const id = header(input.headers, "webhook-id");
  const timestamp = header(input.headers, "webhook-timestamp");
  const signatures = header(input.headers, "webhook-signature");
  if (id === undefined || timestamp === undefined || signatures === undefined) {
    return { ok: false, reason: "missing_headers" };
  }
  if (!/^\d{1,12}$/u.test(timestamp)) return { ok: false, reason: "bad_timestamp" };
  const seconds = Number(timestamp);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (seconds < input.nowSeconds - tolerance) return { ok: false, reason: "too_old" };
  if (seconds > input.nowSeconds + tolerance) return { ok: false, reason: "too_new" };
  const offered = signatures
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .map((s) => Buffer.from(s.slice(3), "base64"));
  for (const secret of input.secrets) {
    const expected = Buffer.from(
      signature(webhookSecretKey(secret), id, timestamp, input.body),
      "base64",
    );
    if (offered.some((o) => o.length === expected.length && timingSafeEqual(o, expected))) {
      return { ok: true, id, timestampSeconds: seconds };
    }
  }
  return { ok: false, reason: "bad_signature" };
}

/** `evt_` and 32 hex digits from what identifies the event (the outbox's key): the same on every retry. */
export function eventId(key: string): string {
  return `evt_${createHash("sha256").update(key).digest("hex").slice(0, 32)}`;
}
