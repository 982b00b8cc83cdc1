import { stripAccents } from "../text.js";

/**
 * A court text folded for reading (lower case, no accents) with each folded character's place in
 * the original, so that what was read can be quoted as the court wrote it.
 */
export interface FoldedText {
  /** The original, NFC. */
  original: string;
  folded: string;
  /** `at[i]`: the index in `original` of folded character i. */
  at: readonly number[];
}

export function foldForReading(text: string): FoldedText {
  const original = text.normalize("NFC");
  let folded = "";
  const at: number[] = [];
  let index = 0;
  for (const char of original) {
    // Character by character, so that a character that folds to two never shifts the rest.
    const plain = stripAccents(char).toLowerCase();
    const out = plain.length === char.length ? plain : char;
    for (let k = 0; k < out.length; k++) at.push(index + k);
    folded += out;
    index += char.length;
  }
  return { original, folded, at };
}

/** The original words behind folded[start, end), on one line. */
export function quoteOf(text: FoldedText, start: number, end: number, max = 160): string {
  const from = text.at[start] ?? 0;
  const last = text.at[Math.max(start, end - 1)] ?? from;
  const words = text.original
    .slice(from, last + 1)
    .replace(/\s+/gu, " ")
    .trim();
  return words.length <= max ? words : `${words.slice(0, max - 1).trimEnd()}…`;
}
