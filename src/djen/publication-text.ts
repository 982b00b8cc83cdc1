import { convert } from "html-to-text";

/**
 * DJEN's `texto` is whatever the court's system sent: HTML from dozens of systems, or plain text
 * with CR/LF in any order. It is hostile: it may carry scripts, event handlers, `javascript:`
 * links, bidi overrides or instructions to a model. This makes it plain text (html-to-text drops
 * scripts, styles, frames, images and link targets, and decodes entities), with no control
 * characters, cut at a stated length. The mail's text part and the model get this text; the HTML
 * part shows it fully escaped, so no markup of the court's ever reaches a mail client.
 */
export interface PublicationText {
  /** Plain text, at most `maxChars` characters plus the ellipsis. */
  text: string;
  /** Characters of the whole plain text (a lower bound when `totalIsLowerBound`). */
  totalChars: number;
  truncated: boolean;
  /** The raw text was longer than we parse; `totalChars` counts only what was parsed. */
  totalIsLowerBound: boolean;
}

/** What the mail and the model show of one communication unless told otherwise. */
export const PUBLICATION_TEXT_MAX = 4000;

/** Raw input past this is not parsed: a pathological text must not stall a sweep. */
const PARSE_LIMIT = 500_000;

const TAG = /<\/?[a-z!][^>]*>/iu;
const LINE_BREAK = /\r\n|\n\r|\r|\u2028|\u2029|\u0085/gu;
// C0/C1 controls (but newline), bidi embeddings/overrides/isolates and marks, BOM and soft hyphen.
const INVISIBLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0008\u000b-\u001f\u007f-\u0084\u0086-\u009f\u00ad\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu;

const HTML_OPTIONS = {
  wordwrap: false as const,
  selectors: [
    { selector: "a", options: { ignoreHref: true } },
    { selector: "img", format: "skip" },
  ],
};

function tidy(text: string): string {
  return text
    .replace(LINE_BREAK, "\n")
    .replace(/\t/gu, " ")
    .replace(INVISIBLE, "")
    .split("\n")
    .map((line) => line.replace(/ {2,}/gu, " ").trim())
    .join("\n")
    .replace(/\n{3,}/gu, "\n\n")
    .trim();
}

/** At most `max` characters, ending at a word when one ends near the cut. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const space = head.search(/\s\S*$/u);
  const end = space >= max * 0.8 ? space : max;
  return `${head.slice(0, end).trimEnd()}…`;
}

function checkedMax(maxChars: number): number {
  if (!Number.isInteger(maxChars) || maxChars < 1) {
    throw new RangeError(`maxChars must be a positive integer, got ${maxChars}`);
  }
  return maxChars;
}

export function publicationText(raw: string, options: { maxChars?: number } = {}): PublicationText {
  const maxChars = checkedMax(options.maxChars ?? PUBLICATION_TEXT_MAX);
  const totalIsLowerBound = raw.length > PARSE_LIMIT;
  const input = totalIsLowerBound ? raw.slice(0, PARSE_LIMIT) : raw;
  const plain = tidy(TAG.test(input) ? convert(input, HTML_OPTIONS) : input);
  const text = cut(plain, maxChars);
  return {
    text,
    totalChars: plain.length,
    truncated: totalIsLowerBound || text !== plain,
    totalIsLowerBound,
  };
}

/**
 * A text publicationText already made plain (as stored), cut for showing: never parsed as HTML
 * again, so a "<" the court wrote as "&lt;" stays a "<".
 */
export function cutPlainText(plain: string, options: { maxChars?: number } = {}): PublicationText {
  const maxChars = checkedMax(options.maxChars ?? PUBLICATION_TEXT_MAX);
  const text = cut(plain, maxChars);
  return { text, totalChars: plain.length, truncated: text !== plain, totalIsLowerBound: false };
}

/** "[texto cortado: 4.000 de 12.345 caracteres]" for a cut text, "" for a whole one. */
export function truncationNote(result: PublicationText): string {
  if (!result.truncated) return "";
  const shown = result.text.endsWith("…") ? result.text.length - 1 : result.text.length;
  const total = `${result.totalIsLowerBound ? "mais de " : ""}${result.totalChars.toLocaleString("pt-BR")}`;
  return `[texto cortado: ${shown.toLocaleString("pt-BR")} de ${total} caracteres; a íntegra está no link da publicação]`;
}
