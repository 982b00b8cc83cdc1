import { terminalText } from "../text.js";

/** What the CLI writes to: process.stdout/stderr, or a test's capture. */
export interface OutputStream {
  /** Text, or bytes (an .xlsx workbook on stdout). */
  write(chunk: string | Uint8Array): unknown;
  /** True when a person is reading it on a terminal (Node sets it on process.stderr). */
  isTTY?: boolean;
  /** The terminal's width in characters, when known. */
  columns?: number;
  /**
   * Node streams: "drain" once a write that returned false has been taken (backpressure; see
   * chunked-output.ts), "error" and "close" when the reader went away.
   */
  once?(event: "drain" | "error" | "close", listener: (error?: unknown) => void): unknown;
  off?(event: "drain" | "error" | "close", listener: (error?: unknown) => void): unknown;
}

/**
 * `stream` for text a person reads (history, status, a run report): every string written has its
 * control, bidi and invisible characters written out (`terminalText`), line breaks and tabs kept;
 * bytes pass as they are. JSON and CSV are written to the stream itself, exact.
 */
export function readableOutput(stream: OutputStream): OutputStream {
  const readable: OutputStream = {
    write: (chunk) =>
      stream.write(
        typeof chunk === "string" ? terminalText(chunk, { keepLineBreaks: true }) : chunk,
      ),
  };
  if (stream.isTTY !== undefined) readable.isTTY = stream.isTTY;
  if (stream.columns !== undefined) readable.columns = stream.columns;
  return readable;
}

export interface TerminalTraits {
  /** Short human log lines and a progress display, instead of JSON lines alone. */
  interactive: boolean;
  /** ANSI colours in those lines. */
  colors: boolean;
}

/**
 * A person reads `stream` when it is a terminal that can move its cursor: JSON lines otherwise
 * (journald, files, pipes, `TERM=dumb`). NO_COLOR (https://no-color.org) turns colours off only.
 */
export function terminalTraits(stream: OutputStream, env: NodeJS.ProcessEnv): TerminalTraits {
  const interactive = stream.isTTY === true && env.TERM !== "dumb";
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
  return { interactive, colors: interactive && !noColor };
}

const ERASE_DOWN = "\x1b[J";

/** `text` cut to `width` characters (code points), so a live line never wraps. */
export function fitLine(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  return `${chars.slice(0, Math.max(0, width - 1)).join("")}…`;
}

/**
 * A few lines at the bottom of a terminal redrawn in place (a sweep's progress), with log lines
 * printed above them: every write erases the live lines, prints, and draws them again, in one
 * write so nothing flickers or interleaves.
 */
export class LiveLines {
  readonly #stream: OutputStream;
  #lines: readonly string[] = [];
  /** Lines drawn now, below the cursor's line start: what the next write erases. */
  #drawn = 0;

  constructor(stream: OutputStream) {
    this.#stream = stream;
  }

  /** Text (whole lines, as log lines are) printed above the live lines. */
  print(text: string): void {
    this.#stream.write(`${this.#erase()}${text}${this.#draw()}`);
  }

  /** The live lines replaced by `lines`. */
  show(lines: readonly string[]): void {
    this.#lines = [...lines];
    this.#stream.write(`${this.#erase()}${this.#draw()}`);
  }

  /** The live lines removed; the cursor is left where they began. */
  clear(): void {
    this.#lines = [];
    const erase = this.#erase();
    if (erase !== "") this.#stream.write(erase);
  }

  #erase(): string {
    if (this.#drawn === 0) return "";
    const up = `\x1b[${this.#drawn}A`;
    this.#drawn = 0;
    return `${up}\r${ERASE_DOWN}`;
  }

  #draw(): string {
    if (this.#lines.length === 0) return "";
    // One column spare: a line as wide as the terminal moves some terminals' cursor down.
    const columns = this.#stream.columns ?? 0;
    const width = columns > 0 ? Math.max(20, columns - 1) : 79;
    this.#drawn = this.#lines.length;
    return this.#lines.map((line) => `${fitLine(line, width)}\n`).join("");
  }
}
