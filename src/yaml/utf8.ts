import type { PositionedError } from "./positioned-error.js";

/** Offset of the first byte that starts an invalid UTF-8 sequence, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    let code = b & (0x3f >> need);
    for (let k = 1; k <= need; k += 1) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      code = (code << 6) | (c & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

export interface DecodedText {
  text: string;
  error: PositionedError | null;
}

/**
 * Files saved by Windows editors in Windows-1252 turn "ç" into one byte that is not UTF-8.
 * The first bad byte is reported where it is; the rest is decoded leniently so the other errors
 * in the file are still found.
 */
export function decodeUtf8(bytes: Uint8Array, file: string): DecodedText {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), error: null };
  } catch {
    const bad = Math.max(0, firstInvalidUtf8(bytes));
    const lineStart = bytes.lastIndexOf(0x0a, bad - 1) + 1;
    const line = bytes.subarray(0, lineStart).filter((b) => b === 0x0a).length + 1;
    const before = new TextDecoder("utf-8").decode(bytes.subarray(lineStart, bad));
    const byte = (bytes[bad] ?? 0).toString(16).toUpperCase().padStart(2, "0");
    return {
      text: new TextDecoder("utf-8").decode(bytes),
      error: {
        file,
        line,
        col: before.length + 1,
        message: `byte 0x${byte} is not UTF-8; save the file as UTF-8 (it was probably saved as Latin-1/Windows-1252)`,
      },
    };
  }
}
