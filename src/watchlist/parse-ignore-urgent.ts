import { z } from "zod";
import { foldText, type MovementRule } from "../policy/alert-rules.js";
import { describeValue } from "../yaml/issue-messages.js";
import type { PositionedError } from "../yaml/positioned-error.js";
import { errorAtPath, type YamlPath, type YamlSource } from "../yaml/yaml-source.js";

/*
 * `ignore:` and `urgent:` (in defaults and in each case): every item checked on its own, so each
 * bad item gets its own message at its own position.
 */

/** `ignore:` / `urgent:`: a list of codes or name pieces, each checked by parseScopeRules. */
export const MovementRuleListFile = z.array(z.unknown()).nullable().optional();

/** The alert keys of one scope (`defaults` or one case), as the schema lets them through. */
export interface RuleScopeFile {
  ignore?: readonly unknown[] | null | undefined;
  urgent?: readonly unknown[] | null | undefined;
}

export interface ScopeRules {
  ignore: MovementRule[];
  urgent: MovementRule[];
}

function ruleKey(rule: MovementRule): string {
  return rule.kind === "code" ? `code:${rule.code}` : `name:${rule.folded}`;
}

function showRule(rule: MovementRule): string {
  return rule.kind === "code" ? String(rule.code) : JSON.stringify(rule.text);
}

/** `base` followed by the rules of `own` it does not already have (same code or folded name). */
export function mergeMovementRules(
  base: readonly MovementRule[],
  own: readonly MovementRule[],
): MovementRule[] {
  if (own.length === 0) return [...base];
  const seen = new Set<string>();
  const out: MovementRule[] = [];
  for (const rule of [...base, ...own]) {
    const key = ruleKey(rule);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(rule);
  }
  return out;
}

const EMPTY_PATTERN = "an empty pattern would match every movement; remove it";

function codeProblem(written: string): string {
  return `${written} is not a movement code: TPU codes are whole numbers from 1 up, like 11010; correct or remove it`;
}

/** The rule an item stands for, or why it stands for none. */
export function movementRule(item: unknown, list: string): MovementRule | string {
  if (typeof item === "number") {
    return Number.isSafeInteger(item) && item > 0
      ? { kind: "code", code: item }
      : codeProblem(String(item));
  }
  if (typeof item === "string") {
    const text = item.trim();
    if (text === "") return EMPTY_PATTERN;
    if (/^\d+$/u.test(text)) {
      const code = Number(text);
      return Number.isSafeInteger(code) && code > 0 ? { kind: "code", code } : codeProblem(text);
    }
    const folded = foldText(text);
    if (folded === "") return EMPTY_PATTERN;
    if ([...folded].length === 1) {
      return `${JSON.stringify(text)} is one character and would match almost every movement; write more of the name (like "juntada") or the movement's code`;
    }
    return { kind: "name", text, folded };
  }
  if (item === null || item === undefined) return EMPTY_PATTERN;
  if (Array.isArray(item)) {
    return `a list inside the list; write one code or name per item, like ${list}: [juntada, 11010]`;
  }
  if (typeof item === "object" && !(item instanceof Date)) {
    return `a mapping is not a movement code or name; write the code or name itself, like - 11010 or - juntada (a name with ": " in it goes in quotes)`;
  }
  return `expected a movement code (like 11010) or a piece of a movement's name (like "juntada"), got ${describeValue(item)}`;
}

interface PlacedRule {
  rule: MovementRule;
  path: YamlPath;
}

/** The valid items of one `ignore:`/`urgent:` list, first spelling of each rule kept. */
function parseRuleList(
  source: YamlSource,
  path: YamlPath,
  items: readonly unknown[] | null | undefined,
  errors: PositionedError[],
): PlacedRule[] {
  const list = String(path[path.length - 1]);
  const seen = new Set<string>();
  const out: PlacedRule[] = [];
  for (const [i, item] of (items ?? []).entries()) {
    const at = [...path, i];
    const rule = movementRule(item, list);
    if (typeof rule === "string") {
      errors.push(errorAtPath(source, at, rule));
      continue;
    }
    const key = ruleKey(rule);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ rule, path: at });
  }
  return out;
}

/** The `ignore:` and `urgent:` of one scope; a rule in both is an error at the later one. */
export function parseScopeRules(
  source: YamlSource,
  scope: YamlPath,
  entry: RuleScopeFile,
  errors: PositionedError[],
): ScopeRules {
  const ignore = parseRuleList(source, [...scope, "ignore"], entry.ignore, errors);
  const urgent = parseRuleList(source, [...scope, "urgent"], entry.urgent, errors);
  const ignored = new Map(ignore.map((placed) => [ruleKey(placed.rule), placed]));
  for (const placed of urgent) {
    const twin = ignored.get(ruleKey(placed.rule));
    if (twin === undefined) continue;
    const inUrgent = errorAtPath(source, placed.path, "");
    const inIgnore = errorAtPath(source, twin.path, "");
    const urgentIsLater =
      inUrgent.line > inIgnore.line ||
      (inUrgent.line === inIgnore.line && inUrgent.col > inIgnore.col);
    const [later, other, otherList] = urgentIsLater
      ? [inUrgent, inIgnore, "ignore"]
      : [inIgnore, inUrgent, "urgent"];
    errors.push({
      ...later,
      message: `${showRule(placed.rule)} is in both ignore and urgent (${otherList} on line ${other.line}); keep it in one list: urgent wins, so remove it from ignore to be alerted or from urgent to hear nothing of it`,
    });
  }
  return { ignore: ignore.map((p) => p.rule), urgent: urgent.map((p) => p.rule) };
}
