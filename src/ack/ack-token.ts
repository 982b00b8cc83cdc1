import { createHmac, timingSafeEqual } from "node:crypto";

/*
 * The token of an acknowledgement link, `<outbox row id>.<mac>`: the row says which alert (its
 * acknowledgement) and who (its watcher or endpoint), the mac (HMAC-SHA256 under ACK_SECRET,
 * 192 bits, base64url) that we made it. Derived, never stored: a resend of the row carries the
 * same link, and the database alone (a backup, a copy) opens no acknowledgement. A token whose
 * row id is changed to another alert's row no longer matches its mac. Not the calendar feed's
 * token: another secret, another purpose.
 */

const MAC_CHARS = 32;
const TOKEN = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{32})$/u;

/** What a token is bound to: the outbox row and what it carries. */
export interface AckBinding {
  rowId: number;
  ackId: number;
  /** The row's dedupe key: the alert's key and the endpoint (and its number). */
  dedupeKey: string;
}

function mac(secret: string, binding: AckBinding): string {
  return createHmac("sha256", secret)
    .update(`datajud-monitor ack v1\n${binding.rowId}\n${binding.ackId}\n${binding.dedupeKey}`)
    .digest("base64url")
    .slice(0, MAC_CHARS);
}

export function ackToken(secret: string, binding: AckBinding): string {
  return `${binding.rowId}.${mac(secret, binding)}`;
}

/** The row id a token names, before its mac is checked; null when it is not a token's shape. */
export function ackTokenRow(token: string): number | null {
  const match = TOKEN.exec(token);
  return match === null ? null : Number(match[1]);
}

/** Whether `token` is the one we made for `binding` (compared in constant time). */
export function ackTokenMatches(secret: string, token: string, binding: AckBinding): boolean {
  const match = TOKEN.exec(token);
  if (match === null || Number(match[1]) !== binding.rowId) return false;
  const given = Buffer.from(match[2] ?? "", "utf8");
  const expected = Buffer.from(mac(secret, binding), "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The link of each outbox row that asks for an acknowledgement; null for a row that does not. */
export function ackLinks(
  publicBaseUrl: string,
  secret: string,
): (row: { id: number; ackId: number | null; dedupeKey: string }) => string | null {
  const base = publicBaseUrl.replace(/\/+$/u, "");
  return (row) =>
    row.ackId === null
      ? null
      : `${base}/ack/${ackToken(secret, { rowId: row.id, ackId: row.ackId, dedupeKey: row.dedupeKey })}`;
}

/** Acknowledgements are on when both the public base URL and the secret are configured. */
export function acknowledgementsOn(settings: {
  publicBaseUrl: string | null;
  secret: string | null;
}): settings is { publicBaseUrl: string; secret: string } {
  return settings.publicBaseUrl !== null && settings.secret !== null;
}
