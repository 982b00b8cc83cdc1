import { terminalText } from "../text.js";

/** One problem in a user-edited file, at the place an editor can jump to. */
export interface PositionedError {
  file: string;
  /** 1-based */
  line: number;
  /** 1-based, in UTF-16 code units like the editors count */
  col: number;
  message: string;
}

/**
 * `file:line:col message`, the shape compilers use, so editors and CI link it; one line, with
 * what a terminal would act on or hide written out (a message may quote the file).
 */
export function formatPositionedError(e: PositionedError): string {
  return terminalText(`${e.file}:${e.line}:${e.col} ${e.message}`);
}

export function comparePositionedErrors(a: PositionedError, b: PositionedError): number {
  return a.line - b.line || a.col - b.col;
}
