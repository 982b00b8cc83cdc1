/**
 * What a terminal shows after `written`, for the few controls LiveLines uses: "\n", "\r",
 * cursor up (ESC [ n A), erase down (ESC [ J) and colours (ESC [ ... m, no width). Lines are never wider than the terminal here.
 */
export function screenAfter(written: string): string[] {
  const lines: string[] = [""];
  let row = 0;
  let col = 0;
  const put = (ch: string): void => {
    const line = lines[row] ?? "";
    lines[row] = line.slice(0, col) + ch + line.slice(col + 1);
    col++;
  };
  for (let i = 0; i < written.length; i++) {
    const ch = written[i] ?? "";
    if (ch === "\x1b") {
      const control = /^\[([\d;]*)([AJm])/.exec(written.slice(i + 1));
      if (control === null)
        throw new Error(`unexpected control at ${i}: ${JSON.stringify(written.slice(i, i + 8))}`);
      if (control[2] === "m") {
        // colours take no room
      } else if (control[2] === "A") {
        row = Math.max(0, row - Number(control[1] || "1"));
      } else {
        lines[row] = (lines[row] ?? "").slice(0, col);
        lines.length = row + 1;
      }
      i += control[0].length;
    } else if (ch === "\n") {
      row++;
      col = 0;
      if (lines[row] === undefined) lines[row] = "";
    } else if (ch === "\r") {
      col = 0;
    } else {
      put(ch);
    }
  }
  return lines;
}
