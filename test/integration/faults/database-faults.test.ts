import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase } from "../../../src/store/database.js";
import { acquireLease, releaseLease } from "../../../src/store/lease.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import { baseEnv, cliInProcess, query, runOnce, startDataJud, workspace } from "./harness.js";

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
});
