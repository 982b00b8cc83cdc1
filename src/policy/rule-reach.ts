import { KNOWN_MOVEMENTS, type KnownMovement } from "../datajud/known-movements.js";
import { foldText } from "../text.js";
import type { MovementRule } from "./alert-rules.js";
import { matchesRule } from "./movement-rules.js";
import { KNOWN_PUBLICATION_NAMES } from "./publication-rules.js";

/*
 * What an ignore/urgent rule can match among the movements and publications this monitor knows
 * DataJud and DJEN send: a rule that reaches none of them is most likely written in words DataJud
 * does not use ("sentença" where DataJud says "Procedência"), so `monitor validate` warns. Pure.
 */

export interface RuleReach {
  movements: KnownMovement[];
  /** DJEN kinds and document types the rule's name piece is found in (never for a code). */
  publications: string[];
}

export function ruleReach(
  rule: MovementRule,
  movements: readonly KnownMovement[] = KNOWN_MOVEMENTS,
): RuleReach {
  return {
    movements: movements.filter((m) => matchesRule(m, rule)),
    publications:
      rule.kind === "name" && rule.folded !== ""
        ? KNOWN_PUBLICATION_NAMES.filter((n) => foldText(n).includes(rule.folded))
        : [],
  };
}

/** Known movements sharing a word of four letters or more with a name rule: what it may mean. */
export function nearbyMovements(
  rule: MovementRule,
  movements: readonly KnownMovement[] = KNOWN_MOVEMENTS,
): KnownMovement[] {
  if (rule.kind !== "name") return [];
  const words = rule.folded.split(/[^a-z0-9]+/u).filter((w) => w.length >= 4);
  const seen = new Set<string>();
  return movements.filter((m) => {
    const name = foldText(m.name);
    if (!words.some((w) => name.includes(w)) || seen.has(name)) return false;
    seen.add(name);
    return true;
  });
}

/** Why a rule that reaches nothing known is probably wrong, and what to write instead; null if it reaches something. */
export function unreachableRuleProblem(
  rule: MovementRule,
  movements: readonly KnownMovement[] = KNOWN_MOVEMENTS,
): string | null {
  const reach = ruleReach(rule, movements);
  if (reach.movements.length > 0 || reach.publications.length > 0) return null;
  if (rule.kind === "code") {
    return `code ${rule.code} is none of the ${movements.length} movements this monitor knows DataJud sends; check it in CNJ's movement table (TPU): a code DataJud never sends matches nothing`;
  }
  const nearby = nearbyMovements(rule, movements).slice(0, 3);
  const closest =
    nearby.length === 0
      ? ""
      : `; known names close to it: ${nearby.map((m) => `"${m.name}" (${m.code})`).join(", ")}`;
  return `${JSON.stringify(rule.text)} is in no movement name DataJud is known to send, nor in a DJEN publication's kind or document type: rules read the name as DataJud sends it, not its complements (a sentence is named by its result, "Procedência" or "Improcedência"; a hearing "Audiência")${closest}`;
}
