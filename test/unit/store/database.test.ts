import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import {
  closeDatabase,
  defaultMigrationsDir,
  immediate,
  isSupportedSqliteVersion,
  openDatabase,
  StoreError,
  storeFailure,
} from "../../../src/store/database.js";
import { latestMigrationVersion } from "../../../src/store/migrate.js";
import { makeTempDir } from "../../support/temp-dir.js";

function tempDir(): string {
  return makeTempDir("store-db-");
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("openDatabase", () => {
  it("creates a private directory and file and migrates to the newest schema", () => {
    const path = join(tempDir(), "state", "monitor.db");

    const db = openDatabase(path);
    const version = db.pragma("user_version", { simple: true });
    closeDatabase(db);

    expect(statSync(join(path, "..")).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(version).toBe(latestMigrationVersion(defaultMigrationsDir()));
    expect(version).toBeGreaterThanOrEqual(1);
  });

  it("sets WAL, busy timeout, foreign keys and synchronous=NORMAL", () => {
    const db = openDatabase(join(tempDir(), "monitor.db"));

    const pragmas = {
      journal: db.pragma("journal_mode", { simple: true }),
      busy: db.pragma("busy_timeout", { simple: true }),
      foreignKeys: db.pragma("foreign_keys", { simple: true }),
      synchronous: db.pragma("synchronous", { simple: true }),
    };
    closeDatabase(db);

    expect(pragmas).toEqual({ journal: "wal", busy: 5000, foreignKeys: 1, synchronous: 1 });
  });

  it("finds the package's migrations directory from the source tree", () => {
    const dir = defaultMigrationsDir();

    expect(dir.endsWith("migrations")).toBe(true);
    expect(statSync(join(dir, "001_initial.sql")).isFile()).toBe(true);
  });

  it("refuses a file that is not a database and leaves it byte-identical", () => {
    const dir = tempDir();
    const path = join(dir, "monitor.db");
    const garbage = Buffer.from("this is not sqlite at all\n".repeat(200));
    writeFileSync(path, garbage);

    const error = thrown(() => openDatabase(path));

    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ kind: "not_a_database", path });
    expect(error).toMatchObject({ message: expect.stringContaining(path) });
    expect(error).toMatchObject({ message: expect.stringContaining("it was not modified") });
    expect(error).toMatchObject({
      message: expect.stringContaining("restore it from a backup or move it away"),
    });
    expect(readFileSync(path).equals(garbage)).toBe(true);
    expect(() => statSync(`${path}-wal`)).toThrow();
  });

  it("refuses a file with SQLite's header but damaged pages", () => {
    const path = join(tempDir(), "monitor.db");
    const seed = new Database(path);
    seed.exec("CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('a');");
    seed.close();
    const bytes = readFileSync(path);
    bytes.fill(0xff, 100, bytes.length);
    writeFileSync(path, bytes);

    const error = thrown(() => openDatabase(path));

    expect(error).toMatchObject({ kind: "not_a_database" });
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it("opens an empty existing file as a new database", () => {
    const path = join(tempDir(), "monitor.db");
    writeFileSync(path, "");

    const db = openDatabase(path);
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name = 'cases'")
      .all();
    closeDatabase(db);

    expect(tables).toHaveLength(1);
  });

  it("opens read-only without writing, and refuses a missing file", () => {
    const path = join(tempDir(), "monitor.db");
    closeDatabase(openDatabase(path));
    const before = readFileSync(path);

    const db = openDatabase(path, { readonly: true });
    const rows = db.prepare("SELECT count(*) AS n FROM cases").get();
    closeDatabase(db);
    const missing = thrown(() => openDatabase(join(tempDir(), "nope.db"), { readonly: true }));

    expect(rows).toEqual({ n: 0 });
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(missing).toMatchObject({ kind: "missing_database" });
  });

  it("refuses to open read-only a database that still needs migrating", () => {
    const dir = tempDir();
    const path = join(dir, "monitor.db");
    writeFileSync(path, "");

    const error = thrown(() => openDatabase(path, { readonly: true }));

    expect(error).toMatchObject({ kind: "schema_too_old" });
  });

  it("lets two connections on the same file see each other's commits", () => {
    const path = join(tempDir(), "monitor.db");
    const a = openDatabase(path);
    const b = openDatabase(path);

    immediate(a, () =>
      a.prepare("INSERT INTO runs (started_at, \"trigger\") VALUES ('t', 'manual')").run(),
    );
    const seen = b.prepare("SELECT count(*) AS n FROM runs").get();
    closeDatabase(a);
    closeDatabase(b);

    expect(seen).toEqual({ n: 1 });
  });

  it("rolls the whole immediate() block back when it throws", () => {
    const db = openDatabase(join(tempDir(), "monitor.db"));

    const error = thrown(() =>
      immediate(db, () => {
        db.prepare("INSERT INTO runs (started_at, \"trigger\") VALUES ('t', 'manual')").run();
        throw new Error("boom");
      }),
    );
    const count = db.prepare("SELECT count(*) AS n FROM runs").get();
    closeDatabase(db);

    expect(error).toMatchObject({ message: "boom" });
    expect(count).toEqual({ n: 0 });
  });

  it("leaves an empty WAL behind when closed", () => {
    const path = join(tempDir(), "monitor.db");
    const db = openDatabase(path);
    immediate(db, () =>
      db.prepare("INSERT INTO runs (started_at, \"trigger\") VALUES ('t', 'manual')").run(),
    );

    closeDatabase(db);

    const wal = `${path}-wal`;
    const size = (() => {
      try {
        return statSync(wal).size;
      } catch {
        return 0;
      }
    })();
    expect(size).toBe(0);
  });

  it("leaves the mode of an existing directory alone", () => {
    const dir = join(tempDir(), "existing");
    mkdirSync(dir, { mode: 0o755 });

    const db = openDatabase(join(dir, "monitor.db"));
    closeDatabase(db);

    expect(statSync(dir).mode & 0o777).toBe(0o755);
  });
});

describe("isSupportedSqliteVersion", () => {
  it("accepts 3.51.3 and newer and refuses older", () => {
    expect(isSupportedSqliteVersion("3.51.3")).toBe(true);
    expect(isSupportedSqliteVersion("3.53.2")).toBe(true);
    expect(isSupportedSqliteVersion("3.100.0")).toBe(true);
    expect(isSupportedSqliteVersion("3.51.2")).toBe(false);
    expect(isSupportedSqliteVersion("3.45.1")).toBe(false);
  });

  it("holds for the SQLite this package links", () => {
    const db = new Database(":memory:");
    const row = db.prepare<[], { v: string }>("SELECT sqlite_version() AS v").get();
    db.close();

    expect(isSupportedSqliteVersion(row?.v ?? "0")).toBe(true);
  });
});

describe("storeFailure", () => {
  it("reads a write SQLite refused for lack of room as a full disk, a runtime failure", () => {
    // SQLite's own page cap raises the SQLITE_FULL a full disk raises mid-sweep.
    const db = openDatabase(join(tempDir(), "monitor.db"));
    db.pragma(`max_page_count = ${db.pragma("page_count", { simple: true })}`);
    const error = thrown(() =>
      immediate(db, () => {
        for (let i = 0; i < 1000; i++) {
          db.prepare(
            "INSERT INTO runs (started_at, \"trigger\", report) VALUES (?, 'manual', ?)",
          ).run("2026-01-01T00:00:00.000Z", JSON.stringify({ filler: "x".repeat(4000) }));
        }
      }),
    );
    const runs = db.prepare("SELECT COUNT(*) AS n FROM runs").get();
    closeDatabase(db);

    const failure = storeFailure(error);

    expect(failure?.kind).toBe("disk_full");
    expect(failure?.retryable).toBe(true);
    expect(failure?.message).toContain("full; what was stored before is intact: free some space");
    expect(runs).toEqual({ n: 0 });
  });

  it("leaves other errors alone", () => {
    expect(storeFailure(new Error("boom"))).toBeNull();
    expect(storeFailure(new Database.SqliteError("constraint", "SQLITE_CONSTRAINT"))).toBeNull();
  });
});

describe("database failures a person meets, each one line", () => {
  it("says another writer holds the lock, a runtime failure, and a close in finally keeps that error", () => {
    const path = join(tempDir(), "monitor.db");
    const db = openDatabase(path);
    db.pragma("busy_timeout = 10");
    const other = new Database(path);
    other.exec("BEGIN IMMEDIATE");

    let caught: unknown = null;
    try {
      immediate(db, () => db.prepare("DELETE FROM runs").run());
    } catch (error) {
      caught = error;
    } finally {
      // Its checkpoint meets the same lock: it must not throw over the first error.
      closeDatabase(db);
    }
    other.exec("ROLLBACK");
    other.close();
    const failure = storeFailure(caught);

    expect(db.open).toBe(false);
    expect(failure?.kind).toBe("busy");
    expect(failure?.retryable).toBe(true);
    expect(failure?.message).toContain(
      "is locked by another process writing to it (SQLITE_BUSY after waiting 5 s)",
    );
  });

  it("refuses a directory, a FIFO or a device as the database, naming it", () => {
    const dir = tempDir();
    const folder = join(dir, "state");
    mkdirSync(folder);
    const pipe = join(dir, "fifo");
    execFileSync("mkfifo", [pipe]);

    const errors = [folder, pipe, "/dev/null"].map((path) => thrown(() => openDatabase(path)));

    expect(errors.map((e) => (e as StoreError).kind)).toEqual(["bad_path", "bad_path", "bad_path"]);
    expect((errors[0] as Error).message).toBe(
      `the database path ${folder} is a directory, not a database file: set MONITOR_DB to a file (such as ${join(folder, "monitor.db")})`,
    );
    expect((errors[1] as Error).message).toContain("is a named pipe (FIFO), not a database file");
    expect((errors[2] as Error).message).toContain("is a device, not a database file");
  });

  it("reads damaged pages met after opening as a damaged database: integrity_check, then a backup", () => {
    const path = join(tempDir(), "monitor.db");
    const db = openDatabase(path);
    const page = db.pragma("page_size", { simple: true }) as number;
    const root = db
      .prepare<[], { rootpage: number }>("SELECT rootpage FROM sqlite_schema WHERE name = 'cases'")
      .get()?.rootpage;
    closeDatabase(db);
    const bytes = readFileSync(path);
    bytes.fill(0xa5, ((root ?? 0) - 1) * page, (root ?? 0) * page);
    writeFileSync(path, bytes);

    const reopened = openDatabase(path);
    const error = thrown(() => reopened.prepare("SELECT * FROM cases").all());
    closeDatabase(reopened);
    const failure = storeFailure(error);

    expect(failure?.kind).toBe("damaged");
    expect(failure?.retryable).toBe(false);
    expect(failure?.message).toMatch(
      /^the database \(MONITOR_DB\) is damaged \(SQLITE_CORRUPT[^)]*\): see where with `sqlite3 <MONITOR_DB> "PRAGMA integrity_check"`.*restore it from a backup/,
    );
  });
});
