import { type FoldedText, foldForReading, quoteOf } from "./folded-text.js";
import { NUMBER_WORDS, wordsValue } from "./number-words.js";

/*
 * The periods a court text states: "no prazo de 15 (quinze) dias", "em 5 dias úteis", "em 48
 * horas", "prazo comum de 10 dias corridos", "com prazo de 30 (trinta) dias" in an edital. Read
 * only where the words around the number make it a period given to someone ("prazo", "em",
 * "dentro de", "por"), never a penalty ("10 dias-multa", "2 anos de reclusão"), a suspension of
 * the case ("suspendo o feito por 90 dias") or a lapse ("há mais de 30 dias").
 */

export type PeriodUnit = "days" | "hours" | "months" | "years";

export interface StatedPeriod {
  amount: number;
  unit: PeriodUnit;
  /** What the text says of the days: "úteis" (business), "corridos" (calendar), or nothing. */
  dayKind: "business" | "calendar" | null;
  /** The text calls it successive ("prazo sucessivo"): one party's runs after the other's. */
  successive: boolean;
  /** The text speaks of doubling ("em dobro") next to it. */
  doubled: boolean;
  /** The edital's own period (the dilação, CPC art. 257 III), not a period to act. */
  dilation: boolean;
  /** The words read, as the court wrote them. */
  quote: string;
}

const NUMBER = `(?:(\\d{1,3})(?:\\s*\\(\\s*(${NUMBER_WORDS})\\s*\\))?|(${NUMBER_WORDS}))`;
const UNIT = "(dias?|horas?|hs?|mes|meses|anos?)";
const QUALIFIER =
  "(?:\\s*\\(?\\s*(uteis|util|corridos?|consecutivos|continuos|ininterruptos)\\)?)?";
const PERIOD = new RegExp(
  `(?<![\\w/.,-])${NUMBER}\\s*${UNIT}(?![\\w])${QUALIFIER}(?![\\w-])`,
  "gu",
);

/** Words that make the number a period given to someone, just before it in its clause. */
const TRIGGER =
  /(?:\bprazos?\b|\bem\b|\bdentro\s+d[eo]s?\b|\bpor\b|\bperiodo\b|\binterregno\b|\blapso\b|\bate\b|\bdilacao\b|\bquinquidio\b|\bdecendio\b)[^0-9]{0,40}$/u;

/** Around a number that is not a period to act: the case suspended or archived, a penalty. */
const NOT_A_PERIOD_BEFORE =
  /(?:suspen|sobrest|arquiv|aguard|reclusao|detencao|\bpena\b|condenad|ha\s+mais\s+de|ultimos?)[^.;]*$/u;
const NOT_A_PERIOD_AFTER =
  /^\s*(?:-\s*multa|multa|de\s+(?:reclusao|detencao|prisao|pena|idade|servico|internacao|atraso|antecedencia)|atras|antes\b)/u;

/** Where the clause a number sits in begins: the last sentence end before it. */
function clauseBefore(folded: string, index: number, reach: number): string {
  const before = folded.slice(Math.max(0, index - reach), index);
  const cut = Math.max(
    before.lastIndexOf(". "),
    before.lastIndexOf(".\n"),
    before.lastIndexOf(";"),
    before.lastIndexOf("\n\n"),
    before.lastIndexOf("!"),
    before.lastIndexOf("?"),
  );
  return cut < 0 ? before : before.slice(cut + 1);
}

function unitOf(word: string): PeriodUnit {
  if (word.startsWith("dia")) return "days";
  if (word.startsWith("h")) return "hours";
  if (word.startsWith("mes")) return "months";
  return "years";
}

function dayKindOf(qualifier: string | undefined, after: string): StatedPeriod["dayKind"] {
  const word = qualifier ?? /^\s*,?\s*(uteis|corridos)/u.exec(after)?.[1];
  if (word === undefined) return null;
  return word.startsWith("ut") ? "business" : "calendar";
}

/** The amount read: the digits, or the words; when both disagree, the smaller (never late). */
function amountOf(digits: string | undefined, inWords: string | undefined): number | null {
  const fromDigits = digits === undefined ? null : Number(digits);
  const fromWords = inWords === undefined ? null : wordsValue(inWords);
  if (fromDigits !== null && fromWords !== null) return Math.min(fromDigits, fromWords);
  return fromDigits ?? fromWords;
}

function readOne(text: FoldedText, match: RegExpMatchArray): StatedPeriod | null {
  const start = match.index ?? 0;
  const end = start + match[0].length;
  const { folded } = text;
  const clause = clauseBefore(folded, start, 90);
  const trigger = TRIGGER.exec(clause);
  if (trigger === null) return null;
  const after = folded.slice(end, end + 40);
  if (NOT_A_PERIOD_BEFORE.test(clause.slice(-60)) || NOT_A_PERIOD_AFTER.test(after)) return null;
  const amount = amountOf(match[1], match[2] ?? match[3]);
  const unitWord = match[4] ?? "";
  if (amount === null || amount <= 0) return null;
  const unit = unitOf(unitWord);
  // "em 2 anos" / "em 6 meses" read as periods only after the word "prazo".
  if ((unit === "months" || unit === "years") && !/prazo/u.test(trigger[0])) return null;
  const near = `${clause.slice(-80)} ${after}`;
  const quoteStart = start - (clause.length - trigger.index);
  return {
    amount,
    unit,
    dayKind: unit === "days" ? dayKindOf(match[5], after) : null,
    successive: /sucessiv/u.test(near),
    doubled: /em\s+dobro/u.test(near),
    dilation:
      /dilacao|prazo\s+do\s+edital/u.test(clause) ||
      (/edital/u.test(clause) && unit === "days" && amount >= 20 && amount <= 60),
    quote: quoteOf(text, Math.max(0, quoteStart), end),
  };
}

/** Every period the text states, in the order written, each amount and unit once. */
export function statedPeriods(text: string): StatedPeriod[] {
  const folded = foldForReading(text);
  const out: StatedPeriod[] = [];
  for (const match of folded.folded.matchAll(PERIOD)) {
    const period = readOne(folded, match);
    if (period === null) continue;
    const same = out.find(
      (p) =>
        p.amount === period.amount &&
        p.unit === period.unit &&
        p.dilation === period.dilation &&
        p.dayKind === period.dayKind,
    );
    if (same === undefined) out.push(period);
  }
  return out;
}
