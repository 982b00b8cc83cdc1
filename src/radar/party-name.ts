import { stripAccents } from "../text.js";
import { COMMON_FIRST_NAMES, COMMON_SURNAMES, GENERIC_COMPANY_WORDS } from "./common-names.js";

/*
 * A party's name as the radar compares it: no accents, upper case, punctuation gone, and a
 * company's legal-form suffix (LTDA, S.A., S/A, ME, EPP, EIRELI) dropped at the end, so "Acme
 * Comércio Ltda." and "ACME COMERCIO LTDA - ME" are one name. And whether a name is worth
 * watching at all: DJEN's name search is loose, and a common name brings thousands of strangers.
 * Pure.
 */

/** Legal forms written after a company's name; dropped when comparing. */
const SUFFIXES = new Set(["LTDA", "LIMITADA", "SA", "ME", "EPP", "EIRELI", "MEI"]);

/** Words joining a name's parts: not what tells two names apart. */
const PARTICLES = new Set(["DE", "DA", "DO", "DAS", "DOS", "E", "DI", "DU"]);

/** Upper case, no accents, every run of punctuation or space one space; S/A and S.A. as SA. */
export function plainName(name: string): string {
  return stripAccents(name)
    .toUpperCase()
    .replace(/\bS\s*[./]\s*A\b\.?/gu, " SA ")
    .replace(/[^0-9A-Z]+/gu, " ")
    .trim();
}

/** The tokens of a name as compared: plainName without a trailing legal form. */
export function nameTokens(name: string): string[] {
  const tokens = plainName(name)
    .split(" ")
    .filter((t) => t !== "");
  while (tokens.length > 1 && SUFFIXES.has(tokens.at(-1) ?? "")) tokens.pop();
  return tokens;
}

/** What two names are compared by: equal keys are the same name. */
export function nameKey(name: string): string {
  return nameTokens(name).join(" ");
}

/** What DJEN is asked (`nomeParte`): the name without accents or punctuation, legal form kept. */
export function queryName(name: string): string {
  return plainName(name);
}

/** Fewest letters a watched name may have: below it DJEN's search brings anything. */
export const MIN_NAME_LETTERS = 6;

const COMMON = new Set([...COMMON_FIRST_NAMES, ...COMMON_SURNAMES]);
const GENERIC = new Set(GENERIC_COMPANY_WORDS);

/**
 * Why `name` cannot be watched, or null when it can: too short, a single common or generic word,
 * or only common first names and surnames in two words ("MARIA SILVA", "JOSÉ DOS SANTOS"), each
 * of which DJEN would answer with thousands of people who are not the client.
 */
export function nameProblem(name: string): string | null {
  const tokens = nameTokens(name);
  const letters = tokens.join("").replace(/[^A-Z]/gu, "").length;
  const shown = name.trim().slice(0, 80);
  const tooShort = `"${shown}" is too short to watch (${letters} letters; at least ${MIN_NAME_LETTERS}): DJEN's name search would bring every party whose name has it; write the full name or razão social`;
  const significant = tokens.filter((t) => !PARTICLES.has(t));
  if (significant.length <= 1) {
    const word = significant[0] ?? "";
    if (COMMON.has(word)) {
      return `"${shown}" is a single common name (one of the commonest in Brazil, IBGE): it would match thousands of people; write the full name`;
    }
    if (GENERIC.has(word)) {
      return `"${shown}" is a single generic word: thousands of company names contain it; write the razão social or the nome fantasia`;
    }
    return letters < MIN_NAME_LETTERS ? tooShort : null;
  }
  if (letters < MIN_NAME_LETTERS) return tooShort;
  if (significant.every((t) => GENERIC.has(t))) {
    return `"${shown}" is made only of generic words (${significant.join(", ")}): thousands of company names contain them; write the razão social or the nome fantasia`;
  }
  if (significant.length === 2 && significant.every((t) => COMMON.has(t))) {
    return `"${shown}" is made only of common Brazilian names (IBGE): it would match thousands of people; write the full name as it appears in court (with every surname)`;
  }
  return null;
}
