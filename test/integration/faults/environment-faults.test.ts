import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import {
  baseEnv,
  type CliResult,
  cliInProcess,
  n,
  runOnce,
  startDataJud,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";
import { cliCommand, runCliProcess } from "../../support/cli-process.js";

/*
 * What the operator's machine can do to the monitor: a hostile watchlist, a database path that
 * leads nowhere, directories it may not write, a full disk. Each is one line saying what to do and
 * the README's exit code (2: fix the configuration, 1: a runtime failure), never a stack trace.
 */

let datajud: FakeDataJud;

beforeAll(async () => {
  datajud = await startDataJud("environment-faults-key");
});

afterAll(async () => {
  await datajud.close();
});

function env(ws: Workspace, extra: Record<string, string> = {}): Record<string, string> {
  return baseEnv(ws, datajud, { MONITOR_LOG_LEVEL: "silent", ...extra });
}

function expectOneLine(run: CliResult, code: number, pattern: RegExp): void {
  expect(run.code, run.stderr).toBe(code);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stderr).not.toContain("unexpected error");
  expect(run.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(pattern)]);
}

const isRoot = process.getuid?.() === 0;

/**
 * The CLI where file permissions hold: root ignores them, so a root test runner starts the CLI
 * without the capabilities that let it (test/support/cli-process.ts); anyone else runs it in
 * this process.
 */
async function unprivileged(ws: Workspace, argv: string[]): Promise<CliResult> {
  if (!isRoot) return cliInProcess(argv, env(ws), ws.dir);
  return runCliProcess(argv, {
    env: env(ws),
    cwd: ws.dir,
    timeoutMs: 20_000,
    filePermissions: true,
  });
}

function stateDir(ws: Workspace): string {
  const state = dirname(ws.dbPath);
  mkdirSync(state, { recursive: true });
  return state;
}

describe("a hostile watchlist", () => {
  it("refuses a YAML alias bomb at its position: validate and run-once exit 2", async () => {
    const ws = workspace("env-alias-bomb-");
    const rows = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]'];
    for (let i = 1; i < 8; i++)
      rows.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(", ")}]`,
      );
    writeFileSync(
      ws.watchlistPath,
      `${rows.join("\n")}\ncases:\n  - number: "${n.tjdftDespejo}"\n`,
    );

    const validate = await cliInProcess(["validate"], env(ws), ws.dir);
    const run = await cliInProcess(["run-once"], env(ws), ws.dir);

    expect(validate.code).toBe(2);
    expect(validate.stdout + validate.stderr).toMatch(
      /watchlist\.yaml:2:\d+ YAML: the aliases \(\*name\) here expand to more than 1000 copies/,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/watchlist\.yaml:2:\d+ YAML: the aliases/);
    expect(validate.stderr + run.stderr).not.toMatch(/^\s+at /m);
  });
});

describe("a database the monitor cannot use", () => {
  it("MONITOR_DB a symbolic link to a missing file: run-once and status exit 2 naming both", async () => {
    const ws = workspace("env-dangling-");
    const link = join(ws.dir, "monitor.db");
    symlinkSync(join(ws.dir, "gone", "monitor.db"), link);

    const run = await cliInProcess(["run-once"], env(ws, { MONITOR_DB: link }), ws.dir);
    const status = await cliInProcess(["status"], env(ws, { MONITOR_DB: link }), ws.dir);

    for (const result of [run, status]) {
      expectOneLine(
        result,
        2,
        /: the database path .*monitor\.db is a symbolic link to .*gone\/monitor\.db, which does not exist: point the link/,
      );
    }
  });

  it("a read-only database directory: exit 2, write access is what to fix, the file untouched", async () => {
    const ws = workspace("env-readonly-dir-");
    await runOnce(ws, env(ws));
    const state = stateDir(ws);
    const before = readFileSync(ws.dbPath);
    chmodSync(state, 0o555);

    const run = await unprivileged(ws, ["run-once"]);
    chmodSync(state, 0o755);

    expectOneLine(
      run,
      2,
      /^datajud-monitor run-once: cannot write .*monitor\.db \(SQLITE_READONLY\w*\): this user needs write access to the file and to .*state, where SQLite keeps its -wal and -shm files/,
    );
    expect(readFileSync(ws.dbPath).equals(before)).toBe(true);
  });

  it("a new database in a read-only directory: exit 2, no file made", async () => {
    const ws = workspace("env-readonly-new-");
    const state = stateDir(ws);
    chmodSync(state, 0o555);

    const run = await unprivileged(ws, ["run-once"]);
    chmodSync(state, 0o755);

    expectOneLine(
      run,
      2,
      /^datajud-monitor run-once: cannot write .*monitor\.db \(EACCES\): this user needs write access/,
    );
    expect(existsSync(ws.dbPath)).toBe(false);
  });
});

/**
 * A real full disk without root: a 1 MiB tmpfs mounted in a user and mount namespace of its own
 * (`unshare --user --map-root-user --mount`), where an unprivileged user may mount one. Kernels
 * that forbid unprivileged user namespaces cannot run it.
 */
function canMountTmpfs(): boolean {
  const probe = spawnSync(
    "unshare",
    ["--user", "--map-root-user", "--mount", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
    { stdio: "ignore" },
  );
  return probe.status === 0;
}

function inSmallDisk(script: string, vars: Record<string, string>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn("unshare", ["--user", "--map-root-user", "--mount", "sh", "-euc", script], {
      env: { ...process.env, ...vars },
      stdio: "ignore",
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve(code));
  });
}

describe("a full disk", () => {
  it.runIf(canMountTmpfs())(
    "exit 1 saying to free space, the database intact, and the next run works once there is room",
    async () => {
      const ws = workspace("env-full-disk-");
      await runOnce(ws, env(ws));
      const disk = join(ws.dir, "disk");
      const out = join(ws.dir, "out");
      mkdirSync(disk);
      mkdirSync(out);
      copyFileSync(ws.dbPath, join(ws.dir, "seed.db"));
      const { command, args } = cliCommand();
      const cli = [command, ...args].map((a) => `'${a}'`).join(" ");
      const script = `
        mount -t tmpfs -o size=1m tmpfs "$DISK"
        cp "$SEED" "$DISK/monitor.db"
        dd if=/dev/zero of="$DISK/filler" bs=4096 2>/dev/null || true
        set +e
        ${cli} run-once >"$OUT/full.out" 2>"$OUT/full.err"; echo $? >"$OUT/full.code"
        rm "$DISK/filler"
        ${cli} run-once --json >"$OUT/room.out" 2>"$OUT/room.err"; echo $? >"$OUT/room.code"
        cp "$DISK/monitor.db" "$OUT/monitor.db"`;

      const exit = await inSmallDisk(script, {
        ...env(ws, { MONITOR_DB: join(disk, "monitor.db") }),
        DISK: disk,
        SEED: join(ws.dir, "seed.db"),
        OUT: out,
      });
      const read = (name: string): string => readFileSync(join(out, name), "utf8");
      const full: CliResult = {
        code: Number(read("full.code")),
        stdout: read("full.out"),
        stderr: read("full.err"),
      };
      const db = new Database(join(out, "monitor.db"), { readonly: true });
      const integrity = db.pragma("integrity_check", { simple: true });
      const cases = db
        .prepare("SELECT COUNT(*) AS n FROM cases WHERE first_seen_at IS NOT NULL")
        .get();
      db.close();

      expect(exit).toBe(0);
      expectOneLine(
        full,
        1,
        /^datajud-monitor run-once: SQLite could not read or write .*monitor\.db \(SQLITE_IOERR\w*\): the disk is probably full, or failing; what was stored before is intact: free some space there/,
      );
      expect(integrity).toBe("ok");
      expect(cases).toEqual({ n: 3 });
      expect(Number(read("room.code"))).toBe(0);
      expect(JSON.parse(read("room.out")).checked).toBe(3);
    },
  );
});
