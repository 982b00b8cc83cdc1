import type { CaseAlertPolicy } from "../policy/alert-rules.js";
import { calendarDate, daysInMonth } from "../time/calendar-date.js";
import { describeValue } from "../yaml/issue-messages.js";
import type { PositionedError } from "../yaml/positioned-error.js";
import { errorAtPath, type YamlPath, type YamlSource } from "../yaml/yaml-source.js";
import {
  mergeMovementRules,
  parseScopeRules,
  type RuleScopeFile,
  type ScopeRules,
} from "./parse-ignore-urgent.js";

/** `muted:` and `muted_until:` of a case, and the case's whole alert policy. */

export interface MutingFile {
  muted?: boolean | null | undefined;
  muted_until?: unknown;
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
