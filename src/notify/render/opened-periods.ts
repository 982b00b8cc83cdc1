import type { CaseSummary } from "../../summarize/case-summary.js";

/*
 * The attention items and the next step of a summary name the periods an act opens in full
 * ("prazos que abre: apelação: 15 dias úteis da intimação da sentença (CPC, art. 1.003, § 5º
 * ...)"), as the rules wrote them (summarize/act-periods.ts `periodsText`). Where the message
 * already lists each of those periods with its last day (what to do by when), the text says where
 * they are instead of repeating them. Only an act whose every period has a last day is shortened:
 * where one has none, the summary's words (what starts it: the juntada, the audiência) are kept.
 * Nothing of a date is in the words replaced; the summary stored is untouched. Pure.
 */

/** A period as an alert's act or a webhook event's act carries it. */
export interface ListedPeriod {
  name: string;
  days: number | null;
  /** "business" or "calendar". */
  counting: string;
  article: string;
  lastDay: string | null;
}

/** The pointer in an e-mail whose opening lists the dates above. */
export const LISTED_ABOVE = "ver “O que fazer e até quando”, acima";

/** The pointer in a digest's entry, whose list of dates follows its summary. */
export const LISTED_BELOW = "ver “O que fazer e até quando”, abaixo";

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
}

/**
 * "apelação: 15 dias úteis <from> (<article>)" for each period, joined by "; ", as periodsText
 * writes them; `from` is any text (it has commas, parentheses and semicolons of its own).
 */
function periodsPattern(periods: readonly ListedPeriod[]): RegExp | null {
  if (periods.length === 0) return null;
  const parts: string[] = [];
  for (const p of periods) {
    if (p.days === null || p.lastDay === null) return null;
    const unit = p.counting === "business" ? "dias úteis" : "dias corridos";
    parts.push(`${escaped(p.name)}: ${p.days} ${unit} .*? \\(${escaped(p.article)}\\)`);
  }
  return new RegExp(parts.join("; "), "gu");
}

/** `text` with each dated act's periods replaced by `pointer`. */
export function withoutListedPeriods(
  text: string,
  acts: ReadonlyArray<{ periods: readonly ListedPeriod[] }>,
  pointer: string,
): string {
  let out = text;
  for (const act of acts) {
    const pattern = periodsPattern(act.periods);
    if (pattern !== null) out = out.replace(pattern, pointer);
  }
  return out;
}

/** The summary as a message with those dates shows it: its attention items and next step. */
export function summaryWithoutListedPeriods(
  summary: CaseSummary,
  acts: ReadonlyArray<{ periods: readonly ListedPeriod[] }>,
  pointer: string,
): CaseSummary {
  if (acts.length === 0) return summary;
  const step = summary.nextExpectedStep;
  return {
    ...summary,
    attentionReasons: summary.attentionReasons.map((r) => ({
      ...r,
      reason: withoutListedPeriods(r.reason, acts, pointer),
    })),
    nextExpectedStep: step === null ? null : withoutListedPeriods(step, acts, pointer),
  };
}
