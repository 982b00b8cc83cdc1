import { z } from "zod";
import { formatOab, type OabRegistration, parseOabRegistration } from "../djen/oab.js";
import { describeValue } from "../yaml/issue-messages.js";
import type { PositionedError } from "../yaml/positioned-error.js";
import {
  errorAtPath,
  lineAt,
  nodeAt,
  type YamlPath,
  type YamlSource,
} from "../yaml/yaml-source.js";

/*
 * `oab:` (under `defaults`, and per address under `watchers`): OAB registrations whose DJEN
 * publications the monitor looks for every sweep, whatever the case. Each item is checked on its
 * own, so every bad one gets its message at its own position.
 */

/** `oab:` as the schema lets it through: a list, each item checked by parseOabList. */
export const OabListFile = z.array(z.unknown()).nullable().optional();

/** One registration the watchlist follows, and who hears of what DJEN addresses to it. */
export interface WatchedOab {
  registration: OabRegistration;
  /** "123456/SP" */
  key: string;
  /** `defaults.notify` for `defaults.oab`, the watcher's address for theirs; merged in file order. */
  notify: string[];
  /** Where it is first listed. */
  line: number;
}

const EXAMPLE = 'like oab: ["123456/SP"]';

function itemProblem(item: unknown): string | OabRegistration {
  if (typeof item === "number") {
    return `the OAB number ${item} needs its state: write it as "${item}/SP" (number/UF, in quotes)`;
  }
  if (typeof item !== "string") {
    return `expected an OAB registration as number/UF, ${EXAMPLE}, got ${describeValue(item)}`;
  }
  const parsed = parseOabRegistration(item);
  return parsed.ok ? parsed.value : parsed.error;
}

/**
 * The registrations of one `oab:` list at `path`, each with its line; a repeated one is an error
 * (one registration is searched once however often it is written).
 */
export function parseOabList(
  source: YamlSource,
  path: YamlPath,
  list: unknown,
  errors: PositionedError[],
): Array<{ registration: OabRegistration; line: number }> {
  if (list === null || list === undefined) return [];
  if (!Array.isArray(list)) {
    errors.push(
      errorAtPath(
        source,
        path,
        `oab must be a list of OAB registrations, ${EXAMPLE}, got ${describeValue(list)}`,
      ),
    );
    return [];
  }
  const out: Array<{ registration: OabRegistration; line: number }> = [];
  const seen = new Map<string, number>();
  for (const [i, item] of list.entries()) {
    const at: YamlPath = [...path, i];
    const result = itemProblem(item);
    if (typeof result === "string") {
      errors.push(errorAtPath(source, at, result));
      continue;
    }
    const line = lineAt(source, nodeAt(source, at).node?.range?.[0] ?? 0);
    const key = formatOab(result);
    const first = seen.get(key);
    if (first !== undefined) {
      errors.push(
        errorAtPath(source, at, `${key} is already listed on line ${first}; keep it once`),
      );
      continue;
    }
    seen.set(key, line);
    out.push({ registration: result, line });
  }
  return out;
}

/** One entry per registration, in the order first listed, with everyone who follows it. */
export function mergeOabs(
  entries: ReadonlyArray<{
    registration: OabRegistration;
    line: number;
    notify: readonly string[];
  }>,
): WatchedOab[] {
  const byKey = new Map<string, WatchedOab>();
  for (const entry of entries) {
    const key = formatOab(entry.registration);
    const known = byKey.get(key);
    if (known === undefined) {
      byKey.set(key, {
        registration: entry.registration,
        key,
        notify: [...entry.notify],
        line: entry.line,
      });
      continue;
    }
    const have = new Set(known.notify.map((a) => a.toLowerCase()));
    for (const address of entry.notify) {
      if (!have.has(address.toLowerCase())) {
        have.add(address.toLowerCase());
        known.notify.push(address);
      }
    }
  }
  return [...byKey.values()].sort((a, b) => a.line - b.line);
}
