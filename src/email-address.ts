/*
 * The one rule for an e-mail address we send to: a watcher's, `mail.admin`, `test-email --to`, an
 * outbox row's recipient (the From mailbox, which may be local, is config's own). Deliberately
 * plain: one @, no spaces, brackets, quotes, separators, backslashes or control characters, a
 * dotted domain. Anything stricter rejects real addresses; anything looser lets "ana@example",
 * "Ana <ana@x.com>" or "a@x.com, b@y.com" through to the mailer, where one string could become
 * two recipients or a header.
 */
const ADDRESS = /^[^\s@<>()[\],;:"\\\p{Cc}]+@[^\s@<>()[\],;:"\\\p{Cc}]+$/u;
const DOMAIN = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}\p{N}-]{2,}$/u;

/** "Ana@Example.COM " -> "Ana@example.com"; null if it is not a plain address. */
export function normalizeEmailAddress(input: string): string | null {
  const text = input.trim();
  if (!ADDRESS.test(text)) return null;
  const at = text.lastIndexOf("@");
  const local = text.slice(0, at);
  const domain = text.slice(at + 1).toLowerCase();
  if (
    !DOMAIN.test(domain) ||
    local.startsWith(".") ||
    local.endsWith(".") ||
    local.includes("..")
  ) {
    return null;
  }
  return `${local}@${domain}`;
}

export function isEmailAddress(input: string): boolean {
  return normalizeEmailAddress(input) !== null;
}

/** What is wrong with an input normalizeEmailAddress refused, and how to write it. */
export function addressProblem(input: string): string {
  const text = input.trim();
  const shown = JSON.stringify(text);
  if (text === "") return "an empty e-mail address; remove the item or write the address";
  if (/[<>]/u.test(text)) {
    return `${shown}: write only the address, like ana@example.com, without a name or <>`;
  }
  if (/[,;\s]/u.test(text) && text.split(/[,;\s]+/u).filter((p) => p.includes("@")).length > 1) {
    return `${shown}: one address per list item, like notify: [ana@example.com, rui@example.com]`;
  }
  return `${shown} is not an e-mail address (like ana@example.com)`;
}
