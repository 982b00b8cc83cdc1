import { copyFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { movementHint } from "../../../src/datajud/tpu-hints.js";
import { closeDatabase, defaultMigrationsDir, openDatabase } from "../../../src/store/database.js";
import { instanceRecords } from "../../../src/store/instances.js";
import {
  latestMigrationVersion,
  listMigrations,
  migrate,
  schemaVersion,
} from "../../../src/store/migrate.js";
import { listMovementEvents, listMovementVersions } from "../../../src/store/movements.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { caseRecord, movement } from "./store-fixtures.js";

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
      kind: "migration_failed",
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

    expect(error).toMatchObject({ kind: "schema_too_new" });
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

    expect(error).toMatchObject({ kind: "migration_failed" });
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

describe("012_movements_stored_once", () => {
  it("takes the movement list out of stored records and the hints out of movements, readable as before", () => {
    const before = migrationsDir({});
    for (const m of listMigrations(defaultMigrationsDir()).filter((m) => m.version < 12)) {
      copyFileSync(m.file, join(before, basename(m.file)));
    }
    const db = new Database(":memory:");
    migrate(db, before);
    // As version 11 wrote them: the whole record, and every movement copy with its hint.
    const at = "2026-03-01T10:00:00.000Z";
    const hinted = { ...movement("m1", "2026-02-01T12:00:00"), hint: movementHint(123) };
    const record = caseRecord({ movements: [hinted], latestMovement: hinted });
    db.prepare(
      `INSERT INTO cases (id, number, digits, court, created_at) VALUES (1, ?, ?, 'tjdft', ?)`,
    ).run(record.cnjNumber, record.cnjNumber.replace(/\D/g, ""), at);
    db.prepare(
      `INSERT INTO instances (id, case_id, instance, record_id, record, first_seen_at, updated_at)
       VALUES (1, 1, 'G1', ?, ?, ?, ?)`,
    ).run(record.id, JSON.stringify(record), at, at);
    db.prepare(
      `INSERT INTO instance_versions (instance_id, version, record, recorded_at)
       VALUES (1, 1, ?, ?)`,
    ).run(JSON.stringify({ ...record, movements: [] }), at);
    db.prepare(
      `INSERT INTO movements (id, case_id, instance_id, movement_id, identity, code, name,
         date_time, data, first_seen_at)
       VALUES (1, 1, 1, 'm1', ?, 123, ?, ?, ?, ?)`,
    ).run(hinted.identity, hinted.name, hinted.dateTime, JSON.stringify(hinted), at);
    db.prepare(
      `INSERT INTO movement_versions (movement_row_id, case_id, version, kind, data, recorded_at)
       VALUES (1, 1, 1, 'first', ?, ?)`,
    ).run(JSON.stringify(hinted), at);
    db.prepare(
      `INSERT INTO movement_events (movement_row_id, case_id, at, kind, before)
       VALUES (1, 1, ?, 'amended', ?)`,
    ).run(at, JSON.stringify(hinted));

    migrate(db, defaultMigrationsDir());

    const stored = db
      .prepare<[], { record: string }>(
        "SELECT record FROM instances UNION ALL SELECT record FROM instance_versions",
      )
      .all()
      .map((r) => JSON.parse(r.record) as Record<string, unknown>);
    expect(stored.map((r) => [r.movements, r.latestMovement, r.class])).toEqual([
      [[], null, record.class],
      [[], null, record.class],
    ]);
    const copies = db
      .prepare<[], { data: string }>(
        `SELECT data FROM movements UNION ALL SELECT data FROM movement_versions
         UNION ALL SELECT before FROM movement_events`,
      )
      .all();
    expect(copies).toHaveLength(3);
    for (const { data } of copies) expect(JSON.parse(data)).not.toHaveProperty("hint");
    // Read back as before: the whole record, each movement with its hint.
    expect(instanceRecords(db, 1)).toEqual([record]);
    expect(listMovementVersions(db, 1).map((v) => v.data)).toEqual([hinted]);
    expect(listMovementEvents(db, 1).map((e) => e.before)).toEqual([hinted]);
    db.close();
  });
});

describe("015_source_freshness", () => {
  it("reads dataenvio from stored items and dates each record's move by its first version with that update", () => {
    const before = migrationsDir({});
    for (const m of listMigrations(defaultMigrationsDir()).filter((m) => m.version < 15)) {
      copyFileSync(m.file, join(before, basename(m.file)));
    }
    const db = new Database(":memory:");
    migrate(db, before);
    const first = "2026-03-01T10:00:00.000Z";
    const second = "2026-03-05T10:00:00.000Z";
    const third = "2026-03-09T10:00:00.000Z";
    const old = caseRecord({ lastUpdatedAt: "2026-02-27T18:00:00" });
    const moved = { ...old, lastUpdatedAt: "2026-03-04T09:00:00" };
    db.prepare(
      `INSERT INTO cases (id, number, digits, court, created_at) VALUES (1, ?, ?, 'tjdft', ?)`,
    ).run(old.cnjNumber, old.cnjNumber.replace(/\D/g, ""), first);
    // Version 2 brought the update; version 3 only another field: the move is version 2's.
    db.prepare(
      `INSERT INTO instances (id, case_id, instance, record_id, record, version, first_seen_at, updated_at)
       VALUES (1, 1, 'G1', ?, ?, 3, ?, ?)`,
    ).run(old.id, JSON.stringify({ ...moved, secrecyLevel: 1 }), first, third);
    const version = db.prepare(
      "INSERT INTO instance_versions (instance_id, version, record, recorded_at) VALUES (1, ?, ?, ?)",
    );
    version.run(1, JSON.stringify(old), first);
    version.run(2, JSON.stringify(moved), second);
    version.run(3, JSON.stringify({ ...moved, secrecyLevel: 1 }), third);
    const publication = db.prepare(
      `INSERT INTO publications (djen_id, court, available_on, publication, text, raw, first_seen_at)
       VALUES (?, 'TJDFT', '2026-03-03', '{}', '', ?, ?)`,
    );
    publication.run("1", JSON.stringify({ dataenvio: "2026-03-02 18:04:11" }), first);
    publication.run("2", JSON.stringify({ dataEnvio: "2026-03-02" }), first);
    publication.run("3", JSON.stringify({ dataenvio: "02/03/2026" }), first);
    publication.run("4", JSON.stringify({}), first);

    migrate(db, defaultMigrationsDir());

    expect(db.prepare("SELECT moved_at FROM instances").pluck().get()).toBe(second);
    expect(
      db.prepare("SELECT djen_id, sent_on FROM publications ORDER BY djen_id").raw().all(),
    ).toEqual([
      ["1", "2026-03-02"],
      ["2", "2026-03-02"],
      // Not an ISO date: left unknown rather than guessed.
      ["3", null],
      ["4", null],
    ]);
    db.close();
  });
});
