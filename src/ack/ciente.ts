/*
 * Whether a chat reply says "ciente" (issue 40): the word a Brazilian lawyer answers an
 * intimação's notice with. The rule, on purpose narrow, since a reply acknowledges an urgent
 * alert and stops its escalation: once lower-cased, without accents and punctuation, the reply is
 * "ciente" and at most three of the plain words people put around it ("ok, ciente", "estou
 * ciente", "tô ciente, obrigada", "Ciente!"), nothing else. A question mark ("ciente?") or a
 * negation ("não estou ciente", "nem ciente") never counts, nor does a longer sentence that
 * mentions the word ("ciente, mas o prazo está errado").
 */

const WORD = "ciente";
/** What may stand beside "ciente"; each is a whole word once accents are dropped. */
const AROUND: ReadonlySet<string> = new Set([
  "ok",
  "okay",
  "sim",
  "estou",
  "to",
  "ta",
  "esta",
  "ja",
  "fiquei",
  "fico",
  "certo",
  "obrigado",
  "obrigada",
  "obg",
  "grato",
  "grata",
]);
const MAX_AROUND = 3;
/** Longer text is not a reply of a few words, whatever it holds. */
const MAX_LENGTH = 80;

/** The reply's words: lower case, accents dropped, split on anything but letters. */
function words(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((w) => w !== "");
}

export function isCiente(text: string): boolean {
  if (text.length > MAX_LENGTH || text.includes("?")) return false;
  const all = words(text);
  const others = all.filter((w) => w !== WORD);
  return (
    all.length - others.length === 1 &&
    others.length <= MAX_AROUND &&
    others.every((w) => AROUND.has(w))
  );
}
