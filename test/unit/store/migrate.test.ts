import { copyFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { closeDatabase, defaultMigrationsDir, openDatabase } from "../../../src/store/database.js";
import {
  latestMigrationVersion,
  listMigrations,
  migrate,
  schemaVersion,
} from "../../../src/store/migrate.js";
import { makeTempDir } from "../../support/temp-dir.js";

function tempDir(prefix: string): string {
  return makeTempDir(prefix);
}

function migrationsDir(files: Record<string, string>): string {
  const dir = tempDir("store-migrations-");
  for (const [name, sql] of Object.entries(files)) writeFileSync(join(dir, name), sql);
  return dir;
}

function tables(db: Database.Database): string[] {
  return db
    .prepare<[], string>(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .pluck()
    .all();
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

const ONE = "CREATE TABLE a (id INTEGER PRIMARY KEY, x TEXT);";
const TWO = "ALTER TABLE a ADD COLUMN y TEXT; CREATE TABLE b (id INTEGER PRIMARY KEY);";

describe("migrate", () => {
  it("applies every migration in order to an empty database", () => {
    const db = new Database(":memory:");
    const dir = migrationsDir({ "001_a.sql": ONE, "002_b.sql": TWO, "README.md": "ignored" });

    const result = migrate(db, dir);

    expect(result).toEqual({ from: 0, to: 2 });
    expect(schemaVersion(db)).toBe(2);
    expect(tables(db)).toEqual(["a", "b"]);
    db.close();
  });

  it("upgrades an older database and keeps its rows and unrelated tables", () => {
    const path = join(tempDir("store-old-"), "monitor.db");
    const v0 = new Database(path);
    v0.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('kept');");
    v0.close();
    const first = migrationsDir({ "001_a.sql": ONE });
    const second = migrationsDir({ "001_a.sql": ONE, "002_b.sql": TWO });

    const db = new Database(path);
    const toOne = migrate(db, first);
    db.prepare("INSERT INTO a (x) VALUES ('row')").run();
    const toTwo = migrate(db, second);
    const again = migrate(db, second);

    expect(toOne).toEqual({ from: 0, to: 1 });
    expect(toTwo).toEqual({ from: 1, to: 2 });
    expect(again).toEqual({ from: 2, to: 2 });
    expect(db.prepare("SELECT x, y FROM a").all()).toEqual([{ x: "row", y: null }]);
    expect(db.prepare("SELECT text FROM notes").all()).toEqual([{ text: "kept" }]);
    db.close();
  });

  it("leaves the previous version intact when a migration fails", () => {
    const db = new Database(":memory:");
    const dir = migrationsDir({
      "001_a.sql": ONE,
      "002_bad.sql": "CREATE TABLE c (id INTEGER); THIS IS NOT SQL;",
    });

    const error = thrown(() => migrate(db, dir));

    expect(error).toMatchObject({
      code: "migration_failed",
      message: expect.stringContaining("002_bad.sql"),
    });
    expect(schemaVersion(db)).toBe(1);
    expect(tables(db)).toEqual(["a"]);
    db.close();
  });

  it("refuses a database newer than the code, naming both versions", () => {
    const path = join(tempDir("store-new-"), "monitor.db");
    const future = new Database(path);
    future.pragma("user_version = 99");
    future.close();

    const error = thrown(() => openDatabase(path));

    expect(error).toMatchObject({ code: "schema_too_new" });
    expect(error).toMatchObject({
      message: `database ${path} has schema version 99 but this monitor knows up to ${latestMigrationVersion(defaultMigrationsDir())}: upgrade datajud-monitor (or point MONITOR_DB at another file)`,
    });
    const after = new Database(path, { readonly: true });
    expect(after.pragma("user_version", { simple: true })).toBe(99);
    after.close();
  });

  it("rejects a migrations directory with a gap", () => {
    const dir = migrationsDir({ "001_a.sql": ONE, "003_c.sql": TWO });

    expect(() => listMigrations(dir)).toThrow(/without gaps/);
  });

  it("restores foreign key enforcement after migrating", () => {
    const db = new Database(":memory:");
    db.pragma("foreign_keys = ON");

    migrate(db, migrationsDir({ "001_a.sql": ONE }));

    expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
    db.close();
  });

  it("refuses a migration that would leave broken foreign key references", () => {
    const db = new Database(":memory:");
    db.pragma("foreign_keys = ON");
    const dir = migrationsDir({
      "001_a.sql":
        "CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE c (p_id INTEGER REFERENCES p (id));",
      "002_orphan.sql": "INSERT INTO c (p_id) VALUES (42);",
    });

    const error = thrown(() => migrate(db, dir));

    expect(error).toMatchObject({ code: "migration_failed" });
    expect(schemaVersion(db)).toBe(1);
    expect(db.prepare("SELECT count(*) AS n FROM c").get()).toEqual({ n: 0 });
    db.close();
  });

  it("is used by openDatabase when given a migrations directory", () => {
    const first = migrationsDir({ "001_a.sql": ONE });
    const second = migrationsDir({ "001_a.sql": ONE, "002_b.sql": TWO });
    const path = join(tempDir("store-custom-"), "monitor.db");

    closeDatabase(openDatabase(path, { migrationsDir: first }));
    const db = openDatabase(path, { migrationsDir: second });
    const version = schemaVersion(db);
    closeDatabase(db);

    expect(version).toBe(2);
  });
});

describe("008_outbox_channel", () => {
  it("addresses old rows to e-mail and turns a status report's key to end with its address", () => {
    const before = migrationsDir({});
    for (const m of listMigrations(defaultMigrationsDir()).filter((m) => m.version < 8)) {
      copyFileSync(m.file, join(before, basename(m.file)));
    }
    const db = new Database(":memory:");
    migrate(db, before);
    const insert = db.prepare<[string, string, string]>(
      `INSERT INTO outbox (recipient, kind, dedupe_key, payload, created_at)
       VALUES (?, ?, ?, '{}', '2026-03-01T10:00:00.000Z')`,
    );
    insert.run("Ana@Example.com", "report", "report:ana@example.com:2026-03-02T10:00:00.000Z");
    insert.run(
      "rui@example.com",
      "alert",
      "alert:1:2026-03-01T10:00:00.000Z:x.tjdft:rui@example.com",
    );

    migrate(db, defaultMigrationsDir());

    expect(
      db.prepare("SELECT channel, recipient, dedupe_key AS key FROM outbox ORDER BY id").all(),
    ).toEqual([
      {
        channel: "email",
        recipient: "Ana@Example.com",
        key: "report:2026-03-02T10:00:00.000Z:ana@example.com",
      },
      {
        channel: "email",
        recipient: "rui@example.com",
        key: "alert:1:2026-03-01T10:00:00.000Z:x.tjdft:rui@example.com",
      },
    ]);
    db.close();
  });
});
