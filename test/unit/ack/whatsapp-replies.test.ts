import { describe, expect, it } from "vitest";
import { sameNumber, signatureMatches } from "../../../src/ack/whatsapp-replies.js";

/*
 * The two checks of a WhatsApp reply that are not the webhook's plumbing: Meta's
 * X-Hub-Signature-256 ("sha256=" and the hex HMAC-SHA256 of the raw body under the app secret)
 * and whether the reply's `from` is the number the alert went to.
 */

describe("signatureMatches", () => {
  // HMAC-SHA256("secret", "test"), worked out with node:crypto.
  const MAC = "0329a06b62cd16b33eb6792be8c60b158d89a2ee3a876fce9a881ebb488c0914";

  it("takes the body's HMAC under the app secret, hex in either case", () => {
    expect(signatureMatches("secret", Buffer.from("test"), `sha256=${MAC}`)).toBe(true);
    expect(signatureMatches("secret", Buffer.from("test"), `sha256=${MAC.toUpperCase()}`)).toBe(
      true,
    );
  });

  it("refuses another body, another secret, another scheme, a cut or missing signature", () => {
    expect(signatureMatches("secret", Buffer.from("test "), `sha256=${MAC}`)).toBe(false);
    expect(signatureMatches("secreT", Buffer.from("test"), `sha256=${MAC}`)).toBe(false);
    expect(signatureMatches("secret", Buffer.from("test"), `sha1=${MAC}`)).toBe(false);
    expect(signatureMatches("secret", Buffer.from("test"), `sha256=${MAC.slice(2)}`)).toBe(false);
    expect(signatureMatches("secret", Buffer.from("test"), MAC)).toBe(false);
    expect(signatureMatches("secret", Buffer.from("test"), undefined)).toBe(false);
  });
});

describe("sameNumber", () => {
  it("matches the number's digits, and a Brazilian mobile's form without the ninth digit", () => {
    expect(sameNumber("+5561987654321", "5561987654321")).toBe(true);
    expect(sameNumber("+5561987654321", "556187654321")).toBe(true);
    expect(sameNumber("+14155550123", "14155550123")).toBe(true);
  });

  it("refuses another number, a landline or foreign number cut short, another DDD", () => {
    expect(sameNumber("+5561987654321", "5511987654321")).toBe(false);
    expect(sameNumber("+556133334444", "55613333444")).toBe(false);
    expect(sameNumber("+14155550123", "1415555012")).toBe(false);
    expect(sameNumber("+5561987654321", "551187654321")).toBe(false);
    expect(sameNumber("+5561987654321", "")).toBe(false);
  });
});
