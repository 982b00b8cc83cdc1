import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readUserFile } from "../../src/user-file.js";
import { makeTempDir } from "../support/temp-dir.js";

function fifo(dir: string): string {
  const path = join(dir, "fifo");
  execFileSync("mkfifo", [path]);
  return path;
}

describe("readUserFile: a file a person named, bounded", () => {
  it("reads a regular file whole up to the cap, and says a missing one is missing", () => {
    const dir = makeTempDir("user-file-");
    const path = join(dir, "watchlist.yaml");
    writeFileSync(path, "cases: []\n");

    const read = readUserFile(path, 10);
    const missing = readUserFile(join(dir, "none.yaml"), 10);

    expect(read).toEqual({ ok: true, bytes: Buffer.from("cases: []\n") });
    expect(missing).toEqual({ ok: false, problem: "missing" });
  });

  it("stops at the cap: one byte over is refused with the file's size", () => {
    const dir = makeTempDir("user-file-");
    const path = join(dir, "big.yaml");
    writeFileSync(path, Buffer.alloc(3 * 2 ** 20 + 1));

    const read = readUserFile(path, 3 * 2 ** 20);

    expect(read).toEqual({
      ok: false,
      problem: "too_large",
      detail: "it is 3 MiB; at most 3 MiB is read",
    });
  });

  it("refuses /dev/zero, a FIFO (without waiting for a writer), a directory, and a link to one", () => {
    const dir = makeTempDir("user-file-");
    const pipe = fifo(dir);
    const folder = join(dir, "folder");
    mkdirSync(folder);
    symlinkSync("/dev/zero", join(dir, "zero-link"));

    const problems = ["/dev/zero", pipe, folder, join(dir, "zero-link")].map((path) =>
      readUserFile(path, 4 * 2 ** 20),
    );

    expect(problems).toEqual([
      {
        ok: false,
        problem: "not_a_file",
        detail: "it is a device (such as /dev/zero), not a file",
      },
      { ok: false, problem: "not_a_file", detail: "it is a named pipe (FIFO), not a file" },
      { ok: false, problem: "not_a_file", detail: "it is a directory, not a file" },
      {
        ok: false,
        problem: "not_a_file",
        detail: "it is a device (such as /dev/zero), not a file",
      },
    ]);
  });
});
