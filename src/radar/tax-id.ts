/*
 * CPF and CNPJ: the check digits the Receita Federal computes (mod 11), and finding them in a
 * DJEN item's text. Since July 2026 a CNPJ may carry letters in its first twelve places (IN RFB
 * 2.229/2024): each character counts as its code minus 48 ("0" is 0, "A" is 17), the two check
 * digits stay numeric. Pure.
 */

export type TaxIdKind = "cpf" | "cnpj";

export interface TaxId {
  kind: TaxIdKind;
  /** 11 digits (CPF) or 14 characters (CNPJ), no separators, letters in upper case. */
  digits: string;
}

export type TaxIdResult = { ok: true; value: TaxId } | { ok: false; error: string };

function value(char: string): number {
  return char.charCodeAt(0) - 48;
}

/** Mod 11 over `body` with `weights`: a remainder below 2 gives 0, else 11 minus it. */
function checkDigit(body: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) sum += value(body[i] ?? "0") * (weights[i] ?? 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

const CPF_WEIGHTS_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_WEIGHTS_2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/** The two check digits a CPF's first nine digits call for. */
export function cpfCheckDigits(nine: string): string {
  const first = checkDigit(nine, CPF_WEIGHTS_1);
  const second = checkDigit(`${nine}${first}`, CPF_WEIGHTS_2);
  return `${first}${second}`;
}

/** The two check digits a CNPJ's first twelve characters call for. */
export function cnpjCheckDigits(twelve: string): string {
  const first = checkDigit(twelve, CNPJ_WEIGHTS_1);
  const second = checkDigit(`${twelve}${first}`, CNPJ_WEIGHTS_2);
  return `${first}${second}`;
}

/** "529.982.247-25", "11.222.333/0001-81". */
export function formatTaxId(id: TaxId): string {
  const d = id.digits;
  return id.kind === "cpf"
    ? `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`
    : `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;
}

/** A CPF or CNPJ as a person writes it (with or without . / - and spaces), check digits verified. */
export function parseTaxId(text: string): TaxIdResult {
  const compact = text
    .trim()
    .toUpperCase()
    .replace(/[\s./-]/gu, "");
  if (/^\d{11}$/u.test(compact)) {
    if (/^(\d)\1{10}$/u.test(compact)) {
      return {
        ok: false,
        error: `CPF ${text.trim()} repeats one digit: it is a placeholder, not a CPF`,
      };
    }
    const expected = cpfCheckDigits(compact.slice(0, 9));
    if (compact.slice(9) !== expected) {
      return {
        ok: false,
        error: `CPF ${text.trim()} has wrong check digits: its first nine digits call for -${expected}; check the number`,
      };
    }
    return { ok: true, value: { kind: "cpf", digits: compact } };
  }
  if (/^[0-9A-Z]{12}\d{2}$/u.test(compact)) {
    if (/^(\d)\1{13}$/u.test(compact)) {
      return {
        ok: false,
        error: `CNPJ ${text.trim()} repeats one digit: it is a placeholder, not a CNPJ`,
      };
    }
    const expected = cnpjCheckDigits(compact.slice(0, 12));
    if (compact.slice(12) !== expected) {
      return {
        ok: false,
        error: `CNPJ ${text.trim()} has wrong check digits: its first twelve characters call for -${expected}; check the number`,
      };
    }
    return { ok: true, value: { kind: "cnpj", digits: compact } };
  }
  return {
    ok: false,
    error: `"${text.trim().slice(0, 40)}" is neither a CPF (11 digits, like 529.982.247-25) nor a CNPJ (14 characters, like 11.222.333/0001-81)`,
  };
}

/*
 * A CPF or CNPJ written in running text: with its usual separators or none, never glued to more
 * digits or letters (a longer number is something else: a case number, a bank account).
 */
const CNPJ_IN_TEXT =
  /(?<![0-9A-Za-z])([0-9A-Z]{2})\.?([0-9A-Z]{3})\.?([0-9A-Z]{3})\/?([0-9A-Z]{4})-?(\d{2})(?![0-9A-Za-z])/gu;
const CPF_IN_TEXT = /(?<![0-9A-Za-z])(\d{3})\.?(\d{3})\.?(\d{3})-?(\d{2})(?![0-9A-Za-z])/gu;

/** Every CPF and CNPJ with valid check digits written in `text`, each once, in order. */
export function findTaxIds(text: string): Array<TaxId & { index: number }> {
  const found: Array<TaxId & { index: number }> = [];
  const seen = new Set<string>();
  const add = (kind: TaxIdKind, digits: string, index: number): void => {
    const parsed = parseTaxId(digits);
    if (!parsed.ok || parsed.value.kind !== kind || seen.has(`${kind}:${digits}`)) return;
    seen.add(`${kind}:${digits}`);
    found.push({ kind, digits, index });
  };
  for (const m of text.matchAll(CNPJ_IN_TEXT)) {
    const digits = m.slice(1).join("");
    // A CNPJ has digits in it; twelve letters in a row are a word.
    if (/\d{2}$/u.test(digits) && /\d/u.test(digits.slice(0, 12))) add("cnpj", digits, m.index);
  }
  for (const m of text.matchAll(CPF_IN_TEXT)) add("cpf", m.slice(1).join(""), m.index);
  return found.sort((a, b) => a.index - b.index);
}
