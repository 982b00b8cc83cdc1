import { createHash } from "node:crypto";

/*
 * A feed's private address carries a token: 32 random bytes (256 bits) in base64url, prefixed so
 * a leaked one is recognizable in a log or a paste. Only its SHA-256 is stored: a token this long
 * cannot be guessed, so a plain hash (no salt, no slow hash) is enough, and looking it up by its
 * hash takes the same time whichever token is asked.
 */

const PREFIX = "cal_";
const TOKEN = /^cal_[A-Za-z0-9_-]{43}$/u;

export function hashFeedToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A new token from 32 random bytes (node:crypto randomBytes in production). */
export function newFeedToken(randomBytes: (size: number) => Buffer): {
  token: string;
  hash: string;
} {
  const token = `${PREFIX}${randomBytes(32).toString("base64url")}`;
  return { token, hash: hashFeedToken(token) };
}

/** Whether `text` has a token's form (checked before anything is looked up). */
export function isFeedToken(text: string): boolean {
  return TOKEN.test(text);
}
