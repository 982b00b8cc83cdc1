import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BackupError, backupDatabase } from "../../../src/store/backup.js";
import { syncWatchedCases } from "../../../src/store/cases.js";
import { closeDatabase, type Db, openDatabase } from "../../../src/store/database.js";

let dir: string;
let live: Db;

function watch(db: Db, count: number): void {
  syncWatchedCases(
    db,
    Array.from({ length: count }, (_, i) => ({
      number: `000000${i}-00.2024.8.07.0001`,
      digits: `000000${i}0020248070001`,
      court: "tjdft",
      label: null,
      watchers: ["ana@example.com"],
    })),
    "2025-11-01T00:00:00.000Z",
  );
}

function caseCount(path: string): number {
  const copy = new Database(path, { readonly: true });
  try {
    return copy.prepare<[], { n: number }>("SELECT count(*) AS n FROM cases").get()?.n ?? -1;
  } finally {
    copy.close();
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "monitor-backup-"));
  live = openDatabase(join(dir, "monitor.db"));
  watch(live, 3);
});

afterEach(() => {
  closeDatabase(live);
  rmSync(dir, { recursive: true, force: true });
});

describe("backupDatabase", () => {
  it("copies what another connection committed but has not checkpointed, while it stays open", () => {
    const reader = new Database(join(dir, "monitor.db"), { readonly: true });
    const target = join(dir, "copy.db");

    const result = backupDatabase(reader, target);
    reader.close();

    expect(result.path).toBe(target);
    expect(result.bytes).toBe(statSync(target).size);
    expect(caseCount(target)).toBe(3);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("refuses to overwrite an existing file unless forced, and then replaces it whole", () => {
    const target = join(dir, "copy.db");
    writeFileSync(target, "an older backup");

    let refused: unknown;
    try {
      backupDatabase(live, target);
    } catch (error) {
      refused = error;
    }
    watch(live, 5);
    const forced = backupDatabase(live, target, { force: true });

    expect(refused).toBeInstanceOf(BackupError);
    expect((refused as BackupError).kind).toBe("exists");
    expect((refused as BackupError).message).toContain("--force");
    expect(forced.path).toBe(target);
    expect(caseCount(target)).toBe(5);
  });

  it("refuses a missing directory or a directory as the target, leaving nothing behind", () => {
    const missing = join(dir, "no-such-dir", "copy.db");

    expect(() => backupDatabase(live, missing)).toThrow(/does not exist; create it first/);
    expect(() => backupDatabase(live, dir, { force: true })).toThrow(/is a directory/);
    expect(existsSync(join(dir, "no-such-dir"))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("removes the temporary file when the copy itself fails", () => {
    const target = join(dir, "copy.db");
    writeFileSync(join(dir, "garbage.db"), "not an SQLite file ".repeat(50));
    const garbage = new Database(join(dir, "garbage.db"), { readonly: true });

    expect(() => backupDatabase(garbage, target)).toThrow(/not a database/);
    garbage.close();
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});
