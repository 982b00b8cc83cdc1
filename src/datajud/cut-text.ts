import { createHash } from "node:crypto";

/**
 * Longest text kept from one DataJud field (a movement's name, a complement, a court unit's
 * name). Real ones are under 300 characters; a hostile or broken answer can send megabytes, which
 * would be stored, diffed, mailed and shown whole.
 */
export const TEXT_MAX = 2000;

/**
 * `text` when it fits in `max` characters; else its beginning with a visible marker giving the
 * full length and the start of the full text's SHA-256, so two long texts that differ only past
 * the cut stay different (a movement's identity hashes the cut text).
 */
export function cutText(text: string, max = TEXT_MAX): string {
  if (text.length <= max) return text;
  const sha = createHash("sha256").update(text).digest("hex").slice(0, 16);
  const marker = ` [texto cortado: ${text.length.toLocaleString("pt-BR")} caracteres; sha256 ${sha}]`;
  return `${text.slice(0, Math.max(0, max - marker.length))}${marker}`;
}
