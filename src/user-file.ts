import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

/**
 * Reading a file a person named (the watchlist, the config, a `*_FILE` secret, a systemd
 * credential): a regular file only, never more than a stated number of bytes. A path may name
 * anything: `/dev/zero` never ends (read whole, it grew a process to 9.7 GB), a FIFO blocks the
 * reader until some writer comes, a directory is no file. Opened without blocking, checked with
 * fstat on the same descriptor (no race with a rename), read until the cap and no further.
 */
export type UserFileRead =
  | { ok: true; bytes: Buffer }
  | { ok: false; problem: "missing" }
  | {
      ok: false;
      problem: "not_a_file" | "too_large" | "unreadable";
      /** What is wrong, in a few words: "it is a directory, not a file", "it is 5.2 MiB; at most 4 MiB is read". */
      detail: string;
    };

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isCharacterDevice()) return "a device (such as /dev/zero)";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

/** "4 MiB", "64 KiB": how a cap is said. */
export function sizeText(bytes: number): string {
  if (bytes >= 2 ** 20) return `${Math.round((bytes / 2 ** 20) * 10) / 10} MiB`;
  if (bytes >= 2 ** 10) return `${Math.round((bytes / 2 ** 10) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

function unreadable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a directory";
  return code ?? (error instanceof Error ? error.message : String(error));
}

/** The file's bytes, at most `maxBytes`; a missing file, anything that is no regular file or a longer one is refused. */
export function readUserFile(path: string, maxBytes: number): UserFileRead {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, problem: "missing" };
    return { ok: false, problem: "unreadable", detail: unreadable(error) };
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      return { ok: false, problem: "not_a_file", detail: `it is ${kindOf(stats)}, not a file` };
    }
    const tooLarge = (size: string): UserFileRead => ({
      ok: false,
      problem: "too_large",
      detail: `it is ${size}; at most ${sizeText(maxBytes)} is read`,
    });
    if (stats.size > maxBytes) return tooLarge(sizeText(stats.size));
    // A regular file may still grow while it is read (or say size 0, as /proc does): the cap
    // holds on what is read, not on what fstat said.
    const chunks: Buffer[] = [];
    let length = 0;
    while (length <= maxBytes) {
      const chunk = Buffer.alloc(Math.min(64 * 1024, maxBytes + 1 - length));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) return { ok: true, bytes: Buffer.concat(chunks, length) };
      chunks.push(chunk.subarray(0, read));
      length += read;
    }
    return tooLarge(`larger than ${sizeText(maxBytes)}`);
  } catch (error) {
    return { ok: false, problem: "unreadable", detail: unreadable(error) };
  } finally {
    closeSync(fd);
  }
}
