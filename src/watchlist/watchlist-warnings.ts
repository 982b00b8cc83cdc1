import { formatOab, parseOabRegistration } from "../djen/oab.js";
import { normalizeEmailAddress } from "../email-address.js";
import { unreachableRuleProblem } from "../policy/rule-reach.js";
import type { PositionedError } from "../yaml/positioned-error.js";
import { errorAtPath, type YamlPath, type YamlSource } from "../yaml/yaml-source.js";
import { movementRule } from "./parse-ignore-urgent.js";
import type { WatchlistFile } from "./watchlist-file.js";

/*
 * What is valid but most likely a mistake, for `monitor validate` and `monitor doctor`: rules that
 * can match no movement DataJud is known to send, and the example's sample values left in a copy
 * (a sample OAB registration costs seven DJEN requests a sweep and mails strangers' publications).
 */

/** The sample values of watchlist.example.yaml (a test keeps this list in step with the file). */
export const EXAMPLE_VALUES = {
  caseDigits: [
    "07133834320258070006",
    "10352894820228260602",
    "10001235920245020001",
    "10012341420234013400",
  ],
  oab: ["123456/SP", "654321/DF"],
} as const;

/** Domains reserved for examples (RFC 2606, RFC 6761): mail there reaches nobody. */
function reservedDomain(address: string): string | null {
  const domain = address.slice(address.lastIndexOf("@") + 1).toLowerCase();
  if (/(^|\.)example\.(com|net|org)$/u.test(domain)) return domain;
  if (/\.(example|invalid|test)$/u.test(domain)) return domain;
  return null;
}

function ruleWarnings(
  source: YamlSource,
  scope: YamlPath,
  entry: {
    ignore?: readonly unknown[] | null | undefined;
    urgent?: readonly unknown[] | null | undefined;
  },
  out: PositionedError[],
): void {
  for (const list of ["ignore", "urgent"] as const) {
    for (const [i, item] of (entry[list] ?? []).entries()) {
      const rule = movementRule(item, list);
      if (typeof rule === "string") continue;
      const problem = unreachableRuleProblem(rule);
      if (problem !== null)
        out.push(errorAtPath(source, [...scope, list, i], `${list}: ${problem}`));
    }
  }
}

function sampleOab(
  source: YamlSource,
  path: YamlPath,
  list: unknown,
  out: PositionedError[],
): void {
  if (!Array.isArray(list)) return;
  for (const [i, item] of list.entries()) {
    if (typeof item !== "string") continue;
    const parsed = parseOabRegistration(item);
    if (!parsed.ok) continue;
    const key = formatOab(parsed.value);
    if ((EXAMPLE_VALUES.oab as readonly string[]).includes(key)) {
      out.push(
        errorAtPath(
          source,
          [...path, i],
          `${key} is the sample registration of watchlist.example.yaml: every sweep asks DJEN for it (seven requests) and mails what it finds; put your own registration here or remove the line`,
        ),
      );
    }
  }
}

/** Every warning of a watchlist that parsed without errors, in file order of its checks. */
export function watchlistWarnings(source: YamlSource, file: WatchlistFile): PositionedError[] {
  const out: PositionedError[] = [];
  const defaults = file.defaults ?? {};
  ruleWarnings(source, ["defaults"], defaults, out);
  sampleOab(source, ["defaults", "oab"], defaults.oab, out);
  const addresses: Array<[YamlPath, string]> = (defaults.notify ?? []).map((a, i) => [
    ["defaults", "notify", i],
    a,
  ]);
  for (const [index, entry] of (file.cases ?? []).entries()) {
    const at: YamlPath = ["cases", index];
    if (
      (EXAMPLE_VALUES.caseDigits as readonly string[]).includes(entry.number.replace(/\D/gu, ""))
    ) {
      out.push(
        errorAtPath(
          source,
          [...at, "number"],
          "this is a sample case number of watchlist.example.yaml: replace it with one of your cases or remove the case",
        ),
      );
    }
    ruleWarnings(source, at, entry, out);
    for (const [i, a] of (entry.notify ?? []).entries()) addresses.push([[...at, "notify", i], a]);
  }
  for (const [index, watcher] of (file.watchers ?? []).entries()) {
    sampleOab(source, ["watchers", index, "oab"], watcher.oab, out);
    if (typeof watcher.address === "string") {
      addresses.push([["watchers", index, "address"], watcher.address]);
    }
  }
  // One warning per address, where it is first written: the example names each several times.
  const told = new Set<string>();
  for (const [path, raw] of addresses) {
    const address = normalizeEmailAddress(raw)?.toLowerCase();
    const domain = address === undefined ? null : reservedDomain(address);
    if (address === undefined || domain === null || told.has(address)) continue;
    told.add(address);
    out.push(
      errorAtPath(
        source,
        path,
        `${address}: ${domain} is reserved for examples and receives no mail; write a real address`,
      ),
    );
  }
  return out;
}
