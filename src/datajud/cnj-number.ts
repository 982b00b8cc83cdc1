import { invalidInput, quoteInput } from "./errors.js";

/**
 * CNJ unified case numbers (Resolução CNJ 65/2008): NNNNNNN-DD.AAAA.J.TR.OOOO, where DD are
 * ISO 7064 mod 97-10 check digits over the other 18 digits.
 */
export interface CnjNumber {
  /** The 20 digits, no separators. */
  digits: string;
  /** NNNNNNN-DD.AAAA.J.TR.OOOO */
  formatted: string;
  sequence: string;
  checkDigits: string;
  year: string;
  /** J: the justice segment, one digit. */
  segment: string;
  /** TR: the court within the segment, two digits. */
  tribunal: string;
  /** OOOO: the originating unit. */
  origin: string;
}

export type CnjParseResult = { ok: true; value: CnjNumber } | { ok: false; error: string };

const SHAPE = "NNNNNNN-DD.AAAA.J.TR.OOOO";
const MIN_YEAR = 1900;

// Copied from PDFs and word processors, numbers arrive with non-breaking spaces and typographic
// dashes; those are separators like "." and "-", anything else is a typo worth reporting.
const SEPARATORS = /[\s.\-\u2010-\u2015\u2212/_]/gu;
const LETTER = /\p{L}/u;

function digitsOnly(value: string, length: number): boolean {
  return value.length === length && /^\d+$/.test(value);
}

/** DD = 98 - (N AAAA J TR OOOO 00 mod 97), always two digits. */
export function computeCheckDigits(
  sequence: string,
  year: string,
  segment: string,
  tribunal: string,
  origin: string,
): string {
  const parts: [string, number, string][] = [
    [sequence, 7, "sequence"],
    [year, 4, "year"],
    [segment, 1, "segment"],
    [tribunal, 2, "tribunal"],
    [origin, 4, "origin"],
  ];
  for (const [value, length, label] of parts) {
    if (!digitsOnly(value, length)) {
      throw invalidInput(`CNJ ${label} must be ${length} digit(s), got ${quoteInput(value)}`);
    }
  }
  // 20 digits exceed Number's exact integer range, hence BigInt.
  const remainder = BigInt(`${sequence}${year}${segment}${tribunal}${origin}00`) % 97n;
  return String(98n - remainder).padStart(2, "0");
}

/** 20 digits into NNNNNNN-DD.AAAA.J.TR.OOOO; the check digits are not verified here. */
export function formatCnjNumber(digits: string): string {
  if (!digitsOnly(digits, 20)) {
    throw invalidInput(`${quoteInput(digits)}: a CNJ number has 20 digits (${SHAPE})`);
  }
  return `${digits.slice(0, 7)}-${digits.slice(7, 9)}.${digits.slice(9, 13)}.${digits.slice(13, 14)}.${digits.slice(14, 16)}.${digits.slice(16, 20)}`;
}

function fail(error: string): CnjParseResult {
  return { ok: false, error };
}

/** Accepts the formatted form or 20 bare digits; never throws. */
export function parseCnjNumber(input: string): CnjParseResult {
  const text = input.trim();
  const quoted = quoteInput(text);
  if (text === "") {
    return fail(`"": no CNJ number given; it looks like ${SHAPE}`);
  }
  if (LETTER.test(text)) {
    return fail(
      `${quoted}: letters are not allowed in a CNJ number; use only its digits (${SHAPE})`,
    );
  }
  const digits = text.replace(SEPARATORS, "");
  const stray = digits.match(/\D/u);
  if (stray) {
    return fail(
      `${quoted}: unexpected character ${quoteInput(stray[0])}; a CNJ number has only digits, dots and dashes (${SHAPE})`,
    );
  }
  if (digits.length !== 20) {
    return fail(`${quoted}: a CNJ number has 20 digits (${SHAPE}), this has ${digits.length}`);
  }
  const value: CnjNumber = {
    digits,
    formatted: formatCnjNumber(digits),
    sequence: digits.slice(0, 7),
    checkDigits: digits.slice(7, 9),
    year: digits.slice(9, 13),
    segment: digits.slice(13, 14),
    tribunal: digits.slice(14, 16),
    origin: digits.slice(16, 20),
  };
  if (value.segment === "0") {
    return fail(
      `${quoted}: justice segment (J) 0 does not exist, it must be 1 to 9; check the number`,
    );
  }
  if (Number(value.year) < MIN_YEAR) {
    return fail(`${quoted}: year ${value.year} is not plausible; check the number`);
  }
  const expected = computeCheckDigits(
    value.sequence,
    value.year,
    value.segment,
    value.tribunal,
    value.origin,
  );
  if (expected !== value.checkDigits) {
    return fail(
      `${quoted}: check digits are ${value.checkDigits} but should be ${expected}; check the number against the court's record`,
    );
  }
  return { ok: true, value };
}
