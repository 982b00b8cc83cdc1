import { isMap, isScalar } from "yaml";
import { z } from "zod";
import {
  type CaseAlertPolicy,
  type Delivery,
  foldText,
  type MovementRule,
  type WatcherSettings,
} from "../policy/alert-rules.js";
import { calendarDate, daysInMonth } from "../time/calendar-date.js";
import { cronProblem } from "../time/cron.js";
import type { PositionedError } from "../yaml/positioned-error.js";
import { suggestName } from "../yaml/suggest-name.js";
import {
  errorAtPath,
  lineAt,
  nodeAt,
  type YamlPath,
  type YamlSource,
} from "../yaml/yaml-source.js";
import { addressProblem, normalizeEmailAddress } from "./email-address.js";

/*
 * The watchlist's alert-policy keys: `ignore`/`urgent` (defaults and cases), `muted`/`muted_until`
 * (cases) and `watchers`. The schemas only say which keys exist and what must be a list; the values
 * are checked here, item by item, so every bad item gets its own message at its own position and a
 * bad value never makes the rest of its case unreadable.
 */

/** `ignore:` / `urgent:`: a list of codes or name pieces, each checked by parseScopeRules. */
export const MovementRuleListFile = z.array(z.unknown()).nullable().optional();

/** One item of `watchers:`. Only the address is typed here; the rest is checked in parseWatchers. */
export const WatcherFile = z.strictObject({
  address: z.string(),
  delivery: z.unknown().optional(),
  digest_schedule: z.unknown().optional(),
  status_report: z.unknown().optional(),
});
export type WatcherFile = z.infer<typeof WatcherFile>;

/** The alert keys of one scope (`defaults` or one case), as the schema lets them through. */
export interface RuleScopeFile {
  ignore?: readonly unknown[] | null | undefined;
  urgent?: readonly unknown[] | null | undefined;
}

export interface MutingFile {
  muted?: boolean | null | undefined;
  muted_until?: unknown;
}

/** A watchers item once its address is known to be text (null: missing or not text). */
export type WatcherEntry = Omit<WatcherFile, "address"> & { address: string | null };

export interface ScopeRules {
  ignore: MovementRule[];
  urgent: MovementRule[];
}

const DELIVERIES = ["instant", "digest"] as const satisfies readonly Delivery[];

const PER_CASE_KEYS = new Set(["muted", "muted_until"]);
const PER_WATCHER_KEYS = new Set(["delivery", "digest_schedule", "status_report"]);

/** For issuesToErrors: keys written at the wrong level get told where they belong. */
export function alertKeyHint(path: YamlPath, key: string): string | undefined {
  const scope = path[0];
  const inScope =
    (scope === "defaults" && path.length === 1) || (scope === "cases" && path.length === 2);
  if (!inScope) return undefined;
  if (scope === "defaults" && PER_CASE_KEYS.has(key)) {
    return `muting is set per case; put ${key}: under the case in cases:`;
  }
  if (PER_WATCHER_KEYS.has(key)) {
    return `${key} is set per address; add an entry under watchers: with address: and ${key}:`;
  }
  return undefined;
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

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (typeof value === "boolean") return `${String(value)} (a yes/no value)`;
  if (typeof value === "number") return `the number ${String(value)}`;
  if (typeof value === "string") return `the text ${JSON.stringify(value)}`;
  if (Array.isArray(value)) return "a list";
  if (value instanceof Date) return "a date";
  return "a mapping";
}

const EMPTY_PATTERN = "an empty pattern would match every movement; remove it";

function codeProblem(written: string): string {
  return `${written} is not a movement code: TPU codes are whole numbers from 1 up, like 11010; correct or remove it`;
}

/** The rule an item stands for, or why it stands for none. */
function movementRule(item: unknown, list: string): MovementRule | string {
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

/** The date `muted_until` names, or why it names none. */
function mutedUntilDate(value: unknown): { date: string } | { problem: string } {
  const example = "like muted_until: 2027-01-31";
  // YAML 1.1 files (a %YAML 1.1 line) read an unquoted date as a timestamp.
  if (value instanceof Date && !Number.isNaN(value.getTime())) {
    return { date: value.toISOString().slice(0, 10) };
  }
  if (typeof value !== "string") {
    return {
      problem: `muted_until: expected a date written YYYY-MM-DD, ${example}, got ${describeValue(value)}`,
    };
  }
  const text = value.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/u.exec(text);
  if (iso) {
    const [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    const date = calendarDate(year, month, day);
    if (date === null) {
      const why =
        month < 1 || month > 12
          ? "months go from 01 to 12"
          : `${iso[1]}-${String(month).padStart(2, "0")} has ${daysInMonth(year, month)} days`;
      return {
        problem: `${JSON.stringify(text)} is not a calendar date (${why}); write a real date as YYYY-MM-DD`,
      };
    }
    if (date !== text) {
      return {
        problem: `${JSON.stringify(text)}: write the date with a two-digit month and day, here ${date}`,
      };
    }
    return { date };
  }
  const dayFirst = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/u.exec(text);
  if (dayFirst) {
    const date = calendarDate(Number(dayFirst[3]), Number(dayFirst[2]), Number(dayFirst[1]));
    if (date !== null) {
      return { problem: `${JSON.stringify(text)}: write the date as YYYY-MM-DD, here ${date}` };
    }
  }
  return {
    problem: `${JSON.stringify(text)} is not a date written YYYY-MM-DD; write it ${example}`,
  };
}

function parseMuting(
  source: YamlSource,
  at: YamlPath,
  entry: MutingFile,
  errors: PositionedError[],
): Pick<CaseAlertPolicy, "muted" | "mutedUntil"> {
  const muted = entry.muted ?? null;
  const rawUntil = entry.muted_until ?? null;
  if (rawUntil === null) return { muted: muted === true, mutedUntil: null };
  const until = mutedUntilDate(rawUntil);
  if ("problem" in until) {
    errors.push(errorAtPath(source, [...at, "muted_until"], until.problem));
  }
  if (muted !== null) {
    errors.push(
      errorAtPath(
        source,
        [...at, "muted_until"],
        "muted and muted_until are both given; choose one: muted: true for no alerts until you remove it, or muted_until: a date",
        "key",
      ),
    );
  }
  return { muted: muted === true, mutedUntil: "date" in until ? until.date : null };
}

/** A case's policy: the defaults' rules, then its own, and its muting. */
export function parseCasePolicy(
  source: YamlSource,
  at: YamlPath,
  entry: RuleScopeFile & MutingFile,
  defaults: ScopeRules,
  errors: PositionedError[],
): CaseAlertPolicy {
  const own = parseScopeRules(source, at, entry, errors);
  return {
    ignore: mergeMovementRules(defaults.ignore, own.ignore),
    urgent: mergeMovementRules(defaults.urgent, own.urgent),
    ...parseMuting(source, at, entry, errors),
  };
}

/** The part of an address before its last @, and the part after. */
function splitAddress(address: string): [string, string] {
  const at = address.lastIndexOf("@");
  return [address.slice(0, at), address.slice(at + 1)];
}

/**
 * A notified address that differs from `address` by a typo in one part only: comparing whole
 * addresses would offer ana@example.com for rui@example.com, as both share a long domain.
 */
function closeAddress(address: string, known: readonly string[]): string | undefined {
  const [local, domain] = splitAddress(address);
  const sameDomain = known.filter((k) => splitAddress(k)[1] === domain);
  const local2 = suggestName(
    local,
    sameDomain.map((k) => splitAddress(k)[0]),
  );
  if (local2 !== undefined) return sameDomain.find((k) => splitAddress(k)[0] === local2);
  const sameLocal = known.filter((k) => splitAddress(k)[0].toLowerCase() === local.toLowerCase());
  const domain2 = suggestName(
    domain,
    sameLocal.map((k) => splitAddress(k)[1]),
  );
  return domain2 === undefined ? undefined : sameLocal.find((k) => splitAddress(k)[1] === domain2);
}

function parseDelivery(
  source: YamlSource,
  at: YamlPath,
  value: unknown,
  errors: PositionedError[],
): Delivery | null | "invalid" {
  if (value === null || value === undefined) return null;
  const found = DELIVERIES.find((d) => d === value);
  if (found !== undefined) return found;
  const suggestion = typeof value === "string" ? suggestName(value, DELIVERIES) : undefined;
  const tail = suggestion === undefined ? "" : `; did you mean "${suggestion}"?`;
  errors.push(
    errorAtPath(
      source,
      [...at, "delivery"],
      `delivery must be instant or digest, got ${describeValue(value)}${tail}`,
    ),
  );
  return "invalid";
}

function parseSchedule(
  source: YamlSource,
  path: YamlPath,
  value: unknown,
  example: string,
  errors: PositionedError[],
): string | null {
  if (value === null || value === undefined) return null;
  const key = String(path[path.length - 1]);
  const refuse = (problem: string): null => {
    errors.push(errorAtPath(source, path, problem));
    return null;
  };
  if (typeof value !== "string") {
    return refuse(
      `${key}: expected a cron expression in quotes, like ${example}, got ${describeValue(value)}`,
    );
  }
  const text = value.trim();
  if (text === "") {
    return refuse(`${key} is empty; remove the line, or write a cron expression like ${example}`);
  }
  const why = cronProblem(text);
  if (why !== null) {
    return refuse(
      `${key}: "${text}" is not a cron schedule croner accepts (${why}); write minute hour day-of-month month weekday, like ${example}`,
    );
  }
  return text;
}

/**
 * Each item of `watchers:` that is a mapping, with its index, even when other parts of the file
 * are malformed (`parsed` undefined); its address only if it is text.
 */
export function wellShapedWatchers(
  raw: unknown,
  parsed: { watchers?: readonly WatcherFile[] | null | undefined } | undefined,
): Array<[number, WatcherEntry]> {
  if (parsed) return (parsed.watchers ?? []).map((w, i) => [i, w]);
  if (raw === null || typeof raw !== "object" || !("watchers" in raw)) return [];
  if (!Array.isArray(raw.watchers)) return [];
  const out: Array<[number, WatcherEntry]> = [];
  for (const [i, item] of (raw.watchers as unknown[]).entries()) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) continue;
    const fields = item as Record<string, unknown>;
    out.push([
      i,
      {
        address: typeof fields.address === "string" ? fields.address : null,
        delivery: fields.delivery,
        digest_schedule: fields.digest_schedule,
        status_report: fields.status_report,
      },
    ]);
  }
  return out;
}

/** The keys written in the mapping at `path`, as text. */
function keysAt(source: YamlSource, path: YamlPath): string[] {
  const { node, depth } = nodeAt(source, path);
  if (depth !== path.length || !isMap(node)) return [];
  return node.items.flatMap((pair) => (isScalar(pair.key) ? [String(pair.key.value)] : []));
}

function isMisspeltDelivery(key: string): boolean {
  return key !== "delivery" && suggestName(key, ["delivery"]) === "delivery";
}

/**
 * The `watchers:` entries, in file order. `notified` is every address of every notify list: a
 * watcher nobody sends alerts to is almost always a typo of one who is.
 */
export function parseWatchers(
  source: YamlSource,
  entries: ReadonlyArray<readonly [number, WatcherEntry]>,
  notified: readonly string[],
  errors: PositionedError[],
): WatcherSettings[] {
  const known = new Set(notified.map((a) => a.toLowerCase()));
  const firstLine = new Map<string, number>();
  const out: WatcherSettings[] = [];
  for (const [index, entry] of entries) {
    const at: YamlPath = ["watchers", index];
    const line = lineAt(source, nodeAt(source, at).node?.range?.[0] ?? 0);
    const delivery = parseDelivery(source, at, entry.delivery, errors);
    const digestSchedule = parseSchedule(
      source,
      [...at, "digest_schedule"],
      entry.digest_schedule,
      '"0 18 * * 1-5" (18:00 on weekdays)',
      errors,
    );
    const statusReport = parseSchedule(
      source,
      [...at, "status_report"],
      entry.status_report,
      '"0 8 * * 1" (08:00 on Mondays)',
      errors,
    );
    const hasSchedule = entry.digest_schedule !== null && entry.digest_schedule !== undefined;
    // A misspelt `delivery` key already has its own "did you mean" error, which is the fix.
    const deliveryMisspelt = delivery === null && keysAt(source, at).some(isMisspeltDelivery);
    if (hasSchedule && !deliveryMisspelt && (delivery === null || delivery === "instant")) {
      const fix =
        delivery === null
          ? "add delivery: digest to this entry or remove digest_schedule"
          : "this entry has delivery: instant; change it to delivery: digest or remove digest_schedule";
      errors.push(
        errorAtPath(
          source,
          [...at, "digest_schedule"],
          `digest_schedule only applies to a digest; ${fix}`,
          "key",
        ),
      );
    }

    if (entry.address === null) continue;
    const address = normalizeEmailAddress(entry.address);
    if (address === null) {
      errors.push(errorAtPath(source, [...at, "address"], addressProblem(entry.address)));
      continue;
    }
    const key = address.toLowerCase();
    const first = firstLine.get(key);
    if (first !== undefined) {
      errors.push(
        errorAtPath(
          source,
          [...at, "address"],
          `${address} is already listed under watchers on line ${first}; keep one entry per address`,
        ),
      );
      continue;
    }
    firstLine.set(key, line);
    if (!known.has(key)) {
      const suggestion = closeAddress(address, notified);
      const tail = suggestion === undefined ? "" : `; did you mean "${suggestion}"?`;
      errors.push(
        errorAtPath(
          source,
          [...at, "address"],
          `${address} does not receive alerts for any case; add it to a notify list or remove this entry${tail}`,
        ),
      );
    }
    out.push({
      address,
      delivery: delivery === "invalid" ? null : delivery,
      digestSchedule,
      statusReport,
      line,
    });
  }
  return out;
}
