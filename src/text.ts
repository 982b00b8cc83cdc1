/** The text without its accents: "Conclusão" -> "Conclusao" (marks removed after NFD). */
export function stripAccents(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "");
}

/**
 * Lower case, no accents, single spaces: how names are compared, in ignore/urgent rules and in a
 * movement's identity (a court re-serving "Conclusão  para DECISÃO" has not made a new movement).
 * A `?` that replaced a letter stays: which letter it was is lost.
 */
export function foldText(text: string): string {
  return stripAccents(text).toLowerCase().replace(/\s+/gu, " ").trim();
}

/** Edit distance where swapping two neighbours ("tjps" for "tjsp") counts as one edit. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i += 1) {
    const row = rows[i] ?? [];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i, j - 1) + 1, at(i - 1, j) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

function sortedLetters(name: string): string {
  return [...name].sort().join("");
}

function squash(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, "");
}

/** The closest known name, if it is close enough to be a typo (or a snake_case spelling). */
export function suggestName(unknown: string, known: readonly string[]): string | undefined {
  const squashed = squash(unknown);
  const same = known.find((k) => squash(k) === squashed);
  if (same) return same;
  const allowed = Math.max(1, Math.floor(squashed.length / 3));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  let bestIsAnagram = false;
  let letters: string | undefined;
  for (const candidate of known) {
    // The distance is at least the difference in length: a megabyte of input costs nothing here.
    if (Math.abs(squash(candidate).length - squashed.length) > allowed) continue;
    const distance = editDistance(squashed, squash(candidate));
    letters ??= sortedLetters(squashed);
    const anagram = sortedLetters(squash(candidate)) === letters;
    // On a tie, a candidate with the same letters wins: a swap is likelier than a wrong letter.
    if (distance < bestDistance || (distance === bestDistance && anagram && !bestIsAnagram)) {
      best = candidate;
      bestDistance = distance;
      bestIsAnagram = anagram;
    }
  }
  return bestDistance <= allowed ? best : undefined;
}

// What a terminal acts on or hides: C0 and C1 controls (ESC starts colour, title, clipboard and
// hyperlink sequences; CR and BS overwrite), format characters (bidi overrides and isolates,
// zero-width spaces and joiners, soft hyphen, BOM, tag characters), line and paragraph
// separators, and lone surrogates.
const NOT_FOR_TERMINAL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/**
 * Text from a court (or anywhere else) as a terminal may print it: every control, bidi and
 * invisible character written out as its escape (`\x1B`, `\u202E`), so an escape sequence a court
 * system stored is seen, never run, and hidden text is visible. Line breaks and tabs are kept when
 * `keepLineBreaks` (whole lines of our own output); escaped otherwise (one field).
 */
export function terminalText(text: string, options: { keepLineBreaks?: boolean } = {}): string {
  const keep = options.keepLineBreaks === true;
  return text.replace(NOT_FOR_TERMINAL, (char) => {
    if (keep && (char === "\n" || char === "\t")) return char;
    const code = char.codePointAt(0) ?? 0;
    const hex = code.toString(16).toUpperCase();
    if (code <= 0xff) return `\\x${hex.padStart(2, "0")}`;
    return code <= 0xffff ? `\\u${hex.padStart(4, "0")}` : `\\u{${hex}}`;
  });
}

/*
 * Text from a label, DataJud, DJEN or an error message made safe to show (an e-mail, a tool's
 * answer, a calendar event): no control or bidi characters that could disguise it, bounded.
 */

const FIELD_MAX = 500;
const PARAGRAPH_MAX = 4000;

// Control characters, line/paragraph separators, and bidi overrides that could disguise text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_KEEP_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;
const BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`;
}

/** Anything from a label or DataJud as one clean line. */
export function oneLine(text: string, max = FIELD_MAX): string {
  return clip(text.replace(BIDI, "").replace(CONTROL, " ").replace(/\s+/g, " ").trim(), max);
}

/** A paragraph that may keep its line breaks. */
export function paragraph(text: string, max = PARAGRAPH_MAX): string {
  const clean = text
    .replace(/\r\n?/g, "\n")
    .replace(BIDI, "")
    .replace(CONTROL_KEEP_NEWLINE, " ")
    .split("\n")
    .map((line) => line.replace(/[ \t]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return clip(clean, max);
}
