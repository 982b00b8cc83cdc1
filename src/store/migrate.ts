import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { MonitorError } from "../errors.js";

export type StoreErrorCode =
  /** The file exists but is not an SQLite database, or its pages are damaged. */
  | "not_a_database"
  /** The linked SQLite has a known corruption bug. */
  | "sqlite_too_old"
  /** Written by a newer monitor than this one. */
  | "schema_too_new"
  /** Needs migrating, but was opened read-only. */
  | "schema_too_old"
  /** A read-only open of a file that does not exist. */
  | "missing_database"
  /** The migrations directory itself is broken (gap, duplicate, unreadable). */
  | "bad_migrations"
  /** A migration's SQL failed; the database was left at the previous version. */
  | "migration_failed"
  /** The path cannot hold a database: a symbolic link to nothing. */
  | "bad_path"
  /** This user may not create or write the file, or the directory its -wal and -shm go in. */
  | "not_writable"
  /** Another connection held the write lock past the busy timeout. */
  | "busy"
  /** SQLite found damaged pages while reading or writing (the header and schema were fine). */
  | "damaged"
  /** The disk is full: nothing more could be written (what was stored before is intact). */
  | "disk_full"
  /** SQLite's I/O failed (a disk with no room left even for the -shm file, or a failing one). */
  | "disk_error";

/**
 * `retryable`: the failure passes (a disk that filled up, a lock; exit 1, run again), where any
 * other leaves the database unusable as configured.
 */
export class StoreError extends MonitorError<StoreErrorCode> {
  override readonly name = "StoreError";
  readonly path: string;

  constructor(
    kind: StoreErrorCode,
    path: string,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(kind, message, {
      ...options,
      retryable: ["disk_full", "disk_error", "busy"].includes(kind),
    });
    this.path = path;
  }
}

export interface Migration {
  version: number;
  name: string;
  file: string;
}

const MIGRATION_FILE = /^(\d+)_([A-Za-z0-9_-]+)\.sql$/;

/** The migrations in `dir`, oldest first; they must be numbered 1, 2, 3... without gaps. */
export function listMigrations(dir: string): Migration[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch (error) {
    throw new StoreError("bad_migrations", dir, `cannot read the migrations directory ${dir}`, {
      cause: error,
    });
  }
  const migrations: Migration[] = [];
  for (const entry of entries) {
    const match = MIGRATION_FILE.exec(entry);
    if (!match?.[1] || !match[2]) continue;
    migrations.push({ version: Number(match[1]), name: match[2], file: join(dir, entry) });
  }
  migrations.sort((a, b) => a.version - b.version);
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new StoreError(
        "bad_migrations",
        dir,
        `migrations in ${dir} must be numbered 1, 2, 3... without gaps or duplicates; found ${migration.file} where version ${index + 1} was expected`,
      );
    }
  });
  return migrations;
}

export function latestMigrationVersion(dir: string): number {
  return listMigrations(dir).at(-1)?.version ?? 0;
}

export function schemaVersion(db: Database.Database): number {
  const version = db.pragma("user_version", { simple: true });
  return typeof version === "number" ? version : 0;
}

export function schemaTooNewError(path: string, found: number, known: number): StoreError {
  return new StoreError(
    "schema_too_new",
    path,
    `database ${path} has schema version ${found} but this monitor knows up to ${known}: upgrade datajud-monitor (or point MONITOR_DB at another file)`,
  );
}

/**
 * Brings the database up to the newest migration in `dir`. Each file runs in its own
 * BEGIN IMMEDIATE transaction together with its `user_version` bump, so a failed migration
 * leaves the previous version intact and two processes starting at once apply each file once.
 */
export function migrate(db: Database.Database, dir: string): { from: number; to: number } {
  const migrations = listMigrations(dir);
  const known = migrations.at(-1)?.version ?? 0;
  const from = schemaVersion(db);
  if (from > known) throw schemaTooNewError(db.name, from, known);

  const pending = migrations.filter((m) => m.version > from);
  if (pending.length === 0) return { from, to: from };

  // Table rebuilds in later migrations need foreign keys off, and that pragma is a no-op inside
  // a transaction; integrity is re-checked with foreign_key_check before each commit instead.
  const foreignKeys = db.pragma("foreign_keys", { simple: true }) === 1;
  if (foreignKeys) db.pragma("foreign_keys = OFF");
  try {
    for (const migration of pending) {
      const sql = readFileSync(migration.file, "utf8");
      db.transaction(() => {
        // Another process may have applied it while we waited for the write lock.
        if (schemaVersion(db) >= migration.version) return;
        try {
          db.exec(sql);
        } catch (error) {
          throw new StoreError(
            "migration_failed",
            db.name,
            `migration ${migration.file} failed on ${db.name} (left at schema version ${migration.version - 1}): ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          );
        }
        const violations = db.prepare("PRAGMA foreign_key_check").all();
        if (violations.length > 0) {
          throw new StoreError(
            "migration_failed",
            db.name,
            `migration ${migration.file} would leave ${violations.length} broken foreign key reference(s) in ${db.name}; nothing was changed`,
          );
        }
        db.pragma(`user_version = ${migration.version}`);
      }).immediate();
    }
  } finally {
    if (foreignKeys) db.pragma("foreign_keys = ON");
  }
  return { from, to: schemaVersion(db) };
}
