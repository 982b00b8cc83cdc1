import { foldText } from "../text.js";

/**
 * DataJud's text as it really arrives: some courts send UTF-8 that was decoded as Latin-1 (or
 * Windows-1252) and encoded again (`Ã³rgÃ£o` for `órgão`); others lost accents to `?`
 * (`P?BLICA`). The first can be undone exactly; the second cannot, and is left as sent.
 */

/** Windows-1252's characters for bytes 0x80-0x9F, which Latin-1 leaves as control codes. */
const CP1252_BYTES: ReadonlyMap<string, number> = new Map([
  ["€", 0x80],
  ["‚", 0x82],
  ["ƒ", 0x83],
  ["„", 0x84],
  ["…", 0x85],
  ["†", 0x86],
  ["‡", 0x87],
  ["ˆ", 0x88],
  ["‰", 0x89],
  ["Š", 0x8a],
  ["‹", 0x8b],
  ["Œ", 0x8c],
  ["Ž", 0x8e],
  ["‘", 0x91],
  ["’", 0x92],
  ["“", 0x93],
  ["”", 0x94],
  ["•", 0x95],
  ["–", 0x96],
  ["—", 0x97],
  ["˜", 0x98],
  ["™", 0x99],
  ["š", 0x9a],
  ["›", 0x9b],
  ["œ", 0x9c],
  ["ž", 0x9e],
  ["Ÿ", 0x9f],
]);

/** Characters that stand for UTF-8 continuation bytes (0x80-0xBF) read as Latin-1 or 1252. */
const CONTINUATION = "[\\u0080-\\u00bf€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]";

/**
 * One UTF-8 character read as Latin-1: a lead byte (Â-ß for two bytes, à-ï for three) and its
 * continuation bytes. Courts' exports mix it with correct text (`alteração ... Ã³rgÃ£o`).
 */
const DOUBLE_ENCODED = new RegExp(
  `[\\u00c2-\\u00df]${CONTINUATION}|[\\u00e0-\\u00ef]${CONTINUATION}{2}`,
  "gu",
);

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

function byteOf(char: string): number | undefined {
  const code = char.codePointAt(0) ?? 0;
  return code <= 0xff ? code : CP1252_BYTES.get(char);
}

/** The character a double-encoded sequence stands for; null when its bytes are not UTF-8. */
function decoded(sequence: string): string | null {
  const bytes = Array.from(sequence, byteOf);
  if (bytes.some((b) => b === undefined)) return null;
  try {
    return STRICT_UTF8.decode(Uint8Array.from(bytes as number[]));
  } catch {
    return null;
  }
}

/**
 * Double-encoded UTF-8 repaired (`Ã³rgÃ£o` -> `órgão`) when the repair is unambiguous: every
 * such sequence in the text decodes to one valid character (a letter or sign beyond ASCII).
 * Anything else (correct text, `?` losses) comes back unchanged.
 */
export function repairMojibake(text: string): string {
  const sequences = text.match(DOUBLE_ENCODED);
  if (sequences === null) return text;
  const fixes = new Map<string, string>();
  for (const sequence of sequences) {
    const char = decoded(sequence);
    if (char === null || char.length !== 1 || char.charCodeAt(0) < 0x80) return text;
    fixes.set(sequence, char);
  }
  return text.replace(DOUBLE_ENCODED, (sequence) => fixes.get(sequence) ?? sequence);
}

/**
 * A name as two readings of it are compared: a repaired encoding, another case, accents or
 * spacing do not make it another name.
 */
export function comparableName(name: string): string {
  return foldText(repairMojibake(name));
}
