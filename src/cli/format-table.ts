import { terminalText } from "../text.js";

/**
 * A plain-text table for people; scripts use --json. A cell is one line, whatever it holds:
 * control, bidi and invisible characters (line breaks included) are written out.
 */
export function formatTable(
  header: readonly string[],
  cellRows: ReadonlyArray<readonly string[]>,
): string {
  const rows = cellRows.map((row) => row.map((cell) => terminalText(cell)));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}
