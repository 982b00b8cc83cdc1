import { countText } from "../datajud/glossary.js";
import { terminalText } from "../text.js";

/** A table's error column, and the notes under the table that say each long error once. */
export interface ErrorNotes {
  /** One cell per row: "" for none, a short error as it is, else its reference ("[1]"). */
  cells: string[];
  /** "[1] 5 cases: DataJud refused the key (HTTP 401): ...", each distinct error once. */
  notes: string[];
}

/** The words before an error's first ": ", at most `max` characters: what failed, not the fix. */
function headOf(error: string, max: number): string {
  const head = error.split(": ")[0] ?? error;
  return head.length <= max ? head : `${head.slice(0, max - 1).trimEnd()}…`;
}

/**
 * The same DataJud error on every case of a court (a refused key, a 403) would fill every row with
 * one long text: each error longer than `inline` characters, or seen on more than one row, is
 * said once under the table and referenced in its rows, with its first words when `head` > 0.
 */
export function errorNotes(
  errors: ReadonlyArray<string | null>,
  options: { inline: number; head: number },
): ErrorNotes {
  const seen = new Map<string, number>();
  for (const error of errors) if (error) seen.set(error, (seen.get(error) ?? 0) + 1);
  const numbers = new Map<string, number>();
  const cells = errors.map((error) => {
    if (!error) return "";
    if ((seen.get(error) ?? 0) === 1 && error.length <= options.inline) return error;
    let n = numbers.get(error);
    if (n === undefined) {
      n = numbers.size + 1;
      numbers.set(error, n);
    }
    return options.head > 0 ? `${headOf(error, options.head)} [${n}]` : `[${n}]`;
  });
  const notes = [...numbers].map(
    ([error, n]) =>
      `[${n}] ${countText(seen.get(error) ?? 0, "case", "cases")}: ${terminalText(error)}`,
  );
  return { cells, notes };
}
