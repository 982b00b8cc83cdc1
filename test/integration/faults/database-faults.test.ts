import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, defaultMigrationsDir, openDatabase } from "../../../src/store/database.js";
import { acquireLease, releaseLease } from "../../../src/store/lease.js";
import { latestMigrationVersion } from "../../../src/store/migrate.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import {
  baseEnv,
  cliInProcess,
  n,
  query,
  runOnce,
  startDataJud,
  workspace,
} from "../../support/cli-harness.js";
import { makeTempDir } from "../../support/temp-dir.js";

let datajud: FakeDataJud;

beforeAll(async () => {
  datajud = await startDataJud("database-faults-key");
});

afterAll(async () => {
  await datajud.close();
});

describe("run-once and a database it cannot use", () => {
  it("exits 1 naming the holder while another process holds the sweep lease, and writes no check", async () => {
    const ws = workspace("faults-db-lease-");
    await runOnce(ws, baseEnv(ws, datajud));
    const other = openDatabase(ws.dbPath);
    acquireLease(other, { holder: "4242@other-host:cafe0001", now: Date.now(), ttlMs: 60_000 });

    const run = await cliInProcess(["run-once", "--json"], baseEnv(ws, datajud), ws.dir);
    releaseLease(other, "4242@other-host:cafe0001");
    closeDatabase(other);

    expect(run.code).toBe(1);
    expect(run.stderr).toContain("4242@other-host:cafe0001");
    expect(query(ws, "SELECT COUNT(*) AS n FROM checks")).toEqual([{ n: 3 }]);
  });

  it("migrates a database the previous version wrote (schema 1) in place, keeping its history", async () => {
    const ws = workspace("faults-db-older-");
    mkdirSync(dirname(ws.dbPath), { recursive: true });
    const firstOnly = makeTempDir("migrations-001-");
    copyFileSync(
      join(defaultMigrationsDir(), "001_initial.sql"),
      join(firstOnly, "001_initial.sql"),
    );
    const old = openDatabase(ws.dbPath, { migrationsDir: firstOnly });
    const at = "2026-01-05T10:00:00.000Z";
    old.exec(`
      INSERT INTO cases (id, number, digits, court, watchers, created_at)
        VALUES (1, '${n.tjdftDespejo}', '${n.tjdftDespejo.replace(/\D/g, "")}', 'tjdft',
          '["ana@example.com"]', '${at}');
      INSERT INTO runs (id, started_at, "trigger", status) VALUES (1, '${at}', 'manual', 'finished');
      INSERT INTO changes (id, case_id, run_id, detected_at, kind, details, new_movements)
        VALUES (1, 1, 1, '${at}', '["new_movements"]', '{}', 1);
      INSERT INTO summaries (change_id, case_id, created_at, generated_by, summary)
        VALUES (1, 1, '${at}', 'rules', '{"status":"antes da atualização"}');`);
    const before = old.pragma("user_version", { simple: true });
    closeDatabase(old);

    const run = await runOnce(ws, baseEnv(ws, datajud));
    const history = await cliInProcess(
      ["history", n.tjdftDespejo, "--json"],
      baseEnv(ws, datajud),
      ws.dir,
    );

    expect(before).toBe(1);
    expect(run.code).toBe(0);
    expect(query(ws, "PRAGMA user_version")).toEqual([
      { user_version: latestMigrationVersion(defaultMigrationsDir()) },
    ]);
    expect(query(ws, "SELECT disposition, summary FROM summaries")).toEqual([
      { disposition: "alert", summary: '{"status":"antes da atualização"}' },
    ]);
    expect(JSON.parse(history.stdout).cases[0].changes).toHaveLength(1);
  });

  it("refuses a newer schema with exit 2 and the upgrade message, leaving it as it was", async () => {
    const ws = workspace("faults-db-newer-");
    await runOnce(ws, baseEnv(ws, datajud));
    const db = new Database(ws.dbPath);
    db.pragma("user_version = 999");
    db.close();

    const run = await cliInProcess(["run-once", "--json"], baseEnv(ws, datajud), ws.dir);

    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("schema version 999");
    expect(run.stderr).toContain("upgrade datajud-monitor");
    const after = new Database(ws.dbPath, { readonly: true });
    expect(after.pragma("user_version", { simple: true })).toBe(999);
    after.close();
  });

  it("refuses a file of random bytes with exit 2 and leaves it byte-identical", async () => {
    const ws = workspace("faults-db-corrupt-");
    mkdirSync(dirname(ws.dbPath), { recursive: true });
    const garbage = randomBytes(64 * 1024);
    writeFileSync(ws.dbPath, garbage);
    const truncated = workspace("faults-db-truncated-");
    await runOnce(truncated, baseEnv(truncated, datajud));
    // A real database cut in half: the header is right, the pages are not.
    const whole = readFileSync(truncated.dbPath);
    const half = Buffer.concat([whole.subarray(0, 100), randomBytes(whole.length - 100)]);
    writeFileSync(truncated.dbPath, half);

    const [run, runTruncated] = await Promise.all([
      cliInProcess(["run-once", "--json"], baseEnv(ws, datajud), ws.dir),
      cliInProcess(["run-once", "--json"], baseEnv(truncated, datajud), truncated.dir),
    ]);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain(ws.dbPath);
    expect(run.stderr).toMatch(/not a(n SQLite)? database|corrupt/i);
    expect(readFileSync(ws.dbPath).equals(garbage)).toBe(true);
    expect(runTruncated.code).toBe(2);
    expect(readFileSync(truncated.dbPath).equals(half)).toBe(true);
  });

  it("says in one line, never a stack, that MONITOR_DB is a directory or that its pages are damaged", async () => {
    const ws = workspace("faults-db-directory-");
    mkdirSync(ws.dbPath, { recursive: true });
    const damaged = workspace("faults-db-damaged-");
    await runOnce(damaged, baseEnv(damaged, datajud));
    // Pages overwritten behind an intact header and schema: the cases table's root page.
    const [cases] = query<{ root: number; page: number }>(
      damaged,
      "SELECT rootpage AS root, (SELECT page_size FROM pragma_page_size) AS page FROM sqlite_schema WHERE name = 'cases'",
    );
    const bytes = readFileSync(damaged.dbPath);
    const { root, page } = cases ?? { root: 0, page: 0 };
    bytes.fill(0xa5, (root - 1) * page, root * page);
    writeFileSync(damaged.dbPath, bytes);

    const directory = await cliInProcess(["run-once", "--json"], baseEnv(ws, datajud), ws.dir);
    const status = await cliInProcess(["status"], baseEnv(damaged, datajud), damaged.dir);

    expect(directory.code).toBe(2);
    expect(directory.stderr).toBe(
      `datajud-monitor run-once: the database path ${ws.dbPath} is a directory, not a database file: set MONITOR_DB to a file (such as ${join(ws.dbPath, "monitor.db")})\n`,
    );
    expect(status.code).toBe(2);
    expect(status.stderr.trim().split("\n")).toHaveLength(1);
    expect(status.stderr).toMatch(/is damaged \(SQLITE_CORRUPT.*PRAGMA integrity_check.*backup/);
  });
});
