import type { MovementRule } from "../../../src/policy/alert-rules.js";
import type { Watchlist, WatchlistResult } from "../../../src/watchlist/parse-watchlist.js";
import { formatPositionedError, type PositionedError } from "../../../src/yaml/positioned-error.js";

/** What the watchlist tests share: small files, and the errors a result holds. */

export const TJDFT = "0713383-43.2025.8.07.0006";
export const TJSP = "1035289-48.2022.8.26.0602";

export function yaml(...rows: string[]): string {
  return `${rows.join("\n")}\n`;
}

export function valid(result: WatchlistResult): Watchlist {
  if (!result.ok) {
    throw new Error(
      `expected a valid watchlist:\n${result.errors.map(formatPositionedError).join("\n")}`,
    );
  }
  return result.watchlist;
}

export function errorsOf(result: WatchlistResult): PositionedError[] {
  if (result.ok) throw new Error("expected the watchlist to be invalid");
  return result.errors;
}

/** `line:col message` of every error, in file order. */
export function reported(result: WatchlistResult): string[] {
  return errorsOf(result).map((e) => `${e.line}:${e.col} ${e.message}`);
}

export function code(value: number): MovementRule {
  return { kind: "code", code: value };
}

export function name(text: string, folded: string): MovementRule {
  return { kind: "name", text, folded };
}

/** A file of one case (line 2) with `rows` under it, from line 3. */
export function oneCase(...rows: string[]): string {
  return yaml("cases:", `  - number: "${TJDFT}"`, ...rows.map((r) => `    ${r}`));
}
