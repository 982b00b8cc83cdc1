import { createHash, createPublicKey, type KeyObject, sign, verify } from "node:crypto";

/*
 * The record's signatures: an anchor left where retention pruned a subject's oldest entries, and
 * the head of each export, are signed with the monitor's Ed25519 key. The export carries the
 * public key, so anyone can check it; whoever hands the record over says which key is theirs
 * (`proof key` prints its fingerprint).
 */

/** What is signed: a fixed-order JSON array of the fields, never an object's key order. */
export function signedText(fields: readonly (string | number | null)[]): Buffer {
  return Buffer.from(JSON.stringify(fields), "utf8");
}

export function signFields(
  privateKey: KeyObject,
  fields: readonly (string | number | null)[],
): string {
  return sign(null, signedText(fields), privateKey).toString("base64");
}

export function publicKeyText(privateKey: KeyObject): string {
  return createPublicKey(privateKey).export({ type: "spki", format: "der" }).toString("base64");
}

/** SHA-256 of the public key's DER, the short form people compare. */
export function keyFingerprint(publicKeyBase64: string): string {
  const hex = createHash("sha256").update(Buffer.from(publicKeyBase64, "base64")).digest("hex");
  return `SHA256:${hex.slice(0, 32)}`;
}

/** False for a wrong signature, and for a key or signature that is not one at all. */
export function verifyFields(
  publicKeyBase64: string,
  fields: readonly (string | number | null)[],
  signature: string,
): boolean {
  try {
    const key = createPublicKey({
      key: Buffer.from(publicKeyBase64, "base64"),
      format: "der",
      type: "spki",
    });
    return verify(null, signedText(fields), key, Buffer.from(signature, "base64"));
  } catch {
    return false;
  }
}
