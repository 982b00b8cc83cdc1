/**
 * OAB registrations (a lawyer's number in a state's bar): parsed from what people type, turned
 * into the strings DJEN must be asked for, and compared as digits + UF, never by name.
 */

export const UFS = [
  "AC",
  "AL",
  "AM",
  "AP",
  "BA",
  "CE",
  "DF",
  "ES",
  "GO",
  "MA",
  "MG",
  "MS",
  "MT",
  "PA",
  "PB",
  "PE",
  "PI",
  "PR",
  "RJ",
  "RN",
  "RO",
  "RR",
  "RS",
  "SC",
  "SE",
  "SP",
  "TO",
] as const;
export type Uf = (typeof UFS)[number];

export interface OabRegistration {
  /** The number's digits without leading zeros: "94719" for OAB/RJ 094.719. */
  number: string;
  uf: Uf;
}

export type OabParseResult = { ok: true; value: OabRegistration } | { ok: false; error: string };

/**
 * DJEN matches `numeroOab` as an exact string, and courts store the same registration with
 * suffixes (O: ordinária, A: suplementar, N, B, S: estagiário, E: estrangeiro...): every one is
 * asked for. Numbers are asked for without leading zeros, the form DJEN's recorded answers carry
 * ("94719" for a registration printed OAB/RJ-094719).
 */
export const OAB_SUFFIXES = ["", "-O", "-A", "-N", "-B", "-S", "-E"] as const;

const EXAMPLE = 'write it as number/UF, like "123456/SP"';

function isUf(value: string): value is Uf {
  return (UFS as readonly string[]).includes(value);
}

/** Digits without leading zeros ("" when there are none or all are zeros). */
function significant(digits: string): string {
  return digits.replace(/^0+/, "");
}

// "123456/SP", "123.456-A/SP", "SP123456", "OAB/SP 123.456", "123456 SP", "sp-123456"
const NUMBER_FIRST = /^(\d[\d.]*)(?:\s*-?\s*([A-Z]))?\s*[/\s-]\s*([A-Z]{2})$/u;
const UF_FIRST = /^([A-Z]{2})\s*[/\s-]?\s*(\d[\d.]*)(?:\s*-?\s*([A-Z]))?$/u;

/** A registration as people write it; the error says what is wrong and how to write it. */
export function parseOabRegistration(input: string): OabParseResult {
  const text = input
    .trim()
    .toUpperCase()
    .replace(/^OAB\s*[/:-]?\s*/u, "");
  const numberFirst = NUMBER_FIRST.exec(text);
  const ufFirst = numberFirst ? null : UF_FIRST.exec(text);
  const rawNumber = numberFirst?.[1] ?? ufFirst?.[2];
  const uf = numberFirst?.[3] ?? ufFirst?.[1];
  if (rawNumber === undefined || uf === undefined) {
    return { ok: false, error: `"${input}" is not an OAB registration; ${EXAMPLE}` };
  }
  if (!isUf(uf)) {
    return {
      ok: false,
      error: `"${input}": ${uf} is not a Brazilian state (UF); ${EXAMPLE}`,
    };
  }
  const digits = rawNumber.replace(/\./g, "");
  const number = significant(digits);
  if (number === "" || number.length > 7) {
    return {
      ok: false,
      error: `"${input}": an OAB number has 1 to 7 digits and is not zero; ${EXAMPLE}`,
    };
  }
  return { ok: true, value: { number, uf } };
}

/** "123456/SP" */
export function formatOab(registration: OabRegistration): string {
  return `${registration.number}/${registration.uf}`;
}

/** Every `numeroOab` to ask DJEN for, one request series each. */
export function oabQueryVariants(registration: OabRegistration): string[] {
  return OAB_SUFFIXES.map((suffix) => `${registration.number}${suffix}`);
}

/** The digits of a number as a court stored it ("094719", "123456-O", "123.456A"), or null. */
export function oabDigits(stored: string | null): string | null {
  if (stored === null) return null;
  const match = /^\D*?(\d[\d.]*)/u.exec(stored.trim());
  if (!match?.[1]) return null;
  const number = significant(match[1].replace(/\./g, ""));
  return number === "" ? null : number;
}

/** Whether a lawyer named in a communication is this registration: digits and UF, never the name. */
export function sameRegistration(
  registration: OabRegistration,
  lawyer: { oabNumber: string | null; uf: string | null },
): boolean {
  return (
    lawyer.uf !== null &&
    lawyer.uf.trim().toUpperCase() === registration.uf &&
    oabDigits(lawyer.oabNumber) === registration.number
  );
}
