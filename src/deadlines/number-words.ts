/*
 * Numbers as Brazilian court texts write them: "15", "quinze", "15 (quinze)", "vinte e cinco",
 * "quarenta e oito". Only what periods use (up to a few hundred); the text is folded already
 * (lower case, no accents).
 */

const UNITS: Readonly<Record<string, number>> = {
  um: 1,
  uma: 1,
  dois: 2,
  duas: 2,
  tres: 3,
  quatro: 4,
  cinco: 5,
  seis: 6,
  sete: 7,
  oito: 8,
  nove: 9,
  dez: 10,
  onze: 11,
  doze: 12,
  treze: 13,
  catorze: 14,
  quatorze: 14,
  quinze: 15,
  dezesseis: 16,
  dezasseis: 16,
  dezessete: 17,
  dezoito: 18,
  dezenove: 19,
  vinte: 20,
  trinta: 30,
  quarenta: 40,
  cinquenta: 50,
  sessenta: 60,
  setenta: 70,
  oitenta: 80,
  noventa: 90,
  cem: 100,
  cento: 100,
  duzentos: 200,
  trezentos: 300,
  trezentas: 300,
  duzentas: 200,
};

/** One alternative of the regular expression that matches a number written in words. */
const WORD = Object.keys(UNITS)
  .sort((a, b) => b.length - a.length)
  .join("|");

/** A number in words: "quinze", "vinte e cinco", "cento e vinte". */
export const NUMBER_WORDS = `(?:(?:${WORD})(?:\\s+e\\s+(?:${WORD}))*)`;

/** The value of a number written in words, or null when a word is not a number. */
export function wordsValue(words: string): number | null {
  let total = 0;
  for (const part of words.trim().split(/\s+e\s+/u)) {
    const value = UNITS[part.trim()];
    if (value === undefined) return null;
    total += value;
  }
  return total;
}
