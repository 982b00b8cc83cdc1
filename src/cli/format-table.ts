import { terminalText } from "../text.js";

/**
 * A plain-text table for people; scripts use --json. A cell is one line, whatever it holds:
 * control, bidi and invisible characters (line breaks included) are written out.
 */
export function formatTable(
  header: readonly string[],
  cellRows: ReadonlyArray<readonly string[]>,
  fit?: {
    /** The widest a line may be (a terminal's columns). */
    maxWidth: number;
    /** The column whose cells are cut (with "…") so each line fits. */
    shrink: number;
  },
): string {
  let rows = cellRows.map((row) => row.map((cell) => terminalText(cell)));
  if (fit !== undefined) rows = fitted(header, rows, fit.maxWidth, fit.shrink);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

const GAP = 2;

/** Cuts the `shrink` column's cells so that every line is at most `maxWidth` wide. */
function fitted(
  header: readonly string[],
  rows: string[][],
  maxWidth: number,
  shrink: number,
): string[][] {
  const width = (i: number): number =>
    Math.max((header[i] ?? "").length, ...rows.map((r) => (r[i] ?? "").length));
  const longestLine = Math.max(
    ...[header, ...rows].map((row) =>
      row.reduce(
        (sum, _cell, i) => sum + (i === row.length - 1 ? (row[i] ?? "").length : width(i) + GAP),
        0,
      ),
    ),
  );
  const over = longestLine - maxWidth;
  if (over <= 0) return rows;
  const room = Math.max((header[shrink] ?? "").length, width(shrink) - over);
  return rows.map((row) =>
    row.map((cell, i) =>
      i === shrink && cell.length > room
        ? `${cell.slice(0, Math.max(0, room - 1)).trimEnd()}…`
        : cell,
    ),
  );
}
