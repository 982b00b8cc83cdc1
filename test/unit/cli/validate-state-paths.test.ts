import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/run-cli.js";
import { THREE_CASES } from "../../support/cli-harness.js";
import { captureIo } from "../../support/cli-io.js";
import { makeTempDir } from "../../support/temp-dir.js";

/*
 * The daemon creates its database's directory and the outbox at start and stops when it cannot:
 * `validate` passing must mean it can, whoever validates.
 */

async function validate(
  dir: string,
  env: Record<string, string>,
): Promise<{ code: number; out: string; err: string }> {
  const watchlist = join(dir, "watchlist.yaml");
  writeFileSync(
    watchlist,
    `defaults:\n  notify: [ana@escritorio.adv.br]\ncases:\n  - number: "${THREE_CASES[0]}"\n`,
  );
  const io = captureIo(
    { PATH: process.env.PATH ?? "", MONITOR_WATCHLIST: watchlist, ...env },
    dir,
    ["validate"],
  );
  const code = await runCli(io);
  return { code, out: io.out(), err: io.err() };
}

describe("monitor validate and the state paths", () => {
  it("passes when the database's directory can be created", async () => {
    const dir = makeTempDir("validate-paths-ok-");
    const run = await validate(dir, { MONITOR_DB: join(dir, "state", "deep", "monitor.db") });
    expect(run.err).not.toContain("paths.");
    expect(run.out).not.toContain("paths.");
    expect(run.code).toBe(0);
  });

  it("refuses, at the config file's line, a database under a file: the daemon could not create the directory", async () => {
    const dir = makeTempDir("validate-paths-file-");
    writeFileSync(join(dir, "afile"), "x");
    const config = join(dir, "monitor.yaml");
    writeFileSync(config, `paths:\n  db: ${join(dir, "afile", "sub", "monitor.db")}\n`);
    const run = await validate(dir, { MONITOR_CONFIG: config });
    expect(run.code).toBe(2);
    const lines = run.err.trim().split("\n");
    expect(lines[0]).toBe(
      `${config}:2:7 paths.db: ${join(dir, "afile")} is a file, not a directory, so ${join(dir, "afile", "sub")} cannot be created there; the daemon would stop at its start. Choose another path or move that file`,
    );
    expect(lines.at(-1)).toBe("config: 2 error(s)");
  });

  it("refuses a database path that is a directory, naming the variable that set it", async () => {
    const dir = makeTempDir("validate-paths-dir-");
    mkdirSync(join(dir, "db"));
    const run = await validate(dir, { MONITOR_DB: join(dir, "db") });
    expect(run.code).toBe(2);
    expect(run.err).toContain(
      `MONITOR_DB paths.db: ${join(dir, "db")} is a directory, not a database file; name a file, like ${join(dir, "db")}/monitor.db`,
    );
  });

  it.skipIf(process.getuid?.() === 0)(
    "only notes a directory this user cannot write: the daemon's own user may",
    async () => {
      const dir = makeTempDir("validate-paths-ro-");
      const locked = join(dir, "locked");
      mkdirSync(locked);
      chmodSync(locked, 0o500);
      try {
        const run = await validate(dir, { MONITOR_DB: join(locked, "monitor.db") });
        expect(run.code).toBe(0);
        expect(run.out).toContain(
          `note: MONITOR_DB paths.db: ${locked} is not writable by this user; the daemon's user must be able to`,
        );
      } finally {
        chmodSync(locked, 0o700);
      }
    },
  );
});
