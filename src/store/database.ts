import {
  chmodSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  readSync,
  statSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import {
  latestMigrationVersion,
  migrate,
  StoreError,
  schemaTooNewError,
  schemaVersion,
} from "./migrate.js";

export { StoreError, type StoreErrorCode } from "./migrate.js";

export type Db = Database.Database;

/**
 * Older SQLite can corrupt a WAL database when two connections write or checkpoint at the same
 * moment (the daemon and a CLI command do exactly that), fixed in 3.51.3.
 */
export const MIN_SQLITE_VERSION = "3.51.3";

const BUSY_TIMEOUT_MS = 5000;
const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");

function versionParts(version: string): number[] {
  return version.split(".").map((part) => Number.parseInt(part, 10) || 0);
}

export function isSupportedSqliteVersion(version: string, minimum = MIN_SQLITE_VERSION): boolean {
  const have = versionParts(version);
  const need = versionParts(minimum);
  for (let i = 0; i < Math.max(have.length, need.length); i++) {
    const a = have[i] ?? 0;
    const b = need[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

let cachedMigrationsDir: string | undefined;

/** `<package root>/migrations`, found from this file both under src/ (tsx) and dist/src/. */
export function defaultMigrationsDir(): string {
  if (cachedMigrationsDir !== undefined) return cachedMigrationsDir;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, "package.json"))) {
      cachedMigrationsDir = join(dir, "migrations");
      return cachedMigrationsDir;
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new StoreError(
        "bad_migrations",
        fileURLToPath(import.meta.url),
        "cannot find the datajud-monitor package root (no package.json above the store module)",
      );
    }
    dir = parent;
  }
}

function notADatabase(path: string, detail: string, cause?: unknown): StoreError {
  return new StoreError(
    "not_a_database",
    path,
    `${path} is not a usable SQLite database (${detail}); it was not modified: restore it from a backup or move it away`,
    cause === undefined ? {} : { cause },
  );
}

/**
 * Whether a database file is at `path`. A symbolic link to nothing is neither "no database yet"
 * nor a place to create one: it is refused with what to do.
 */
export function databaseExists(path: string): boolean {
  if (existsSync(path)) return true;
  let link: string | null = null;
  try {
    if (lstatSync(path).isSymbolicLink()) link = readlinkSync(path);
  } catch {
    return false;
  }
  if (link === null) return false;
  throw new StoreError(
    "bad_path",
    path,
    `the database path ${path} is a symbolic link to ${resolve(dirname(path), link)}, which does not exist: point the link at the database file, or set MONITOR_DB to the file itself`,
  );
}

function errnoOf(error: unknown): string {
  if (error instanceof Database.SqliteError) return error.code;
  return error instanceof Error && "code" in error && typeof error.code === "string"
    ? error.code
    : "";
}

function failureKind(
  code: string,
): "disk_full" | "disk_error" | "not_writable" | "busy" | "damaged" | null {
  if (code === "SQLITE_FULL" || code === "ENOSPC" || code === "EDQUOT") return "disk_full";
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return "busy";
  if (code.startsWith("SQLITE_CORRUPT") || code.startsWith("SQLITE_NOTADB")) return "damaged";
  // A disk with no room left at all fails earlier, sizing the -shm file (SQLITE_IOERR_SHMSIZE).
  if (code.startsWith("SQLITE_IOERR") || code === "EIO") return "disk_error";
  if (
    code.startsWith("SQLITE_READONLY") ||
    code.startsWith("SQLITE_CANTOPEN") ||
    ["EACCES", "EPERM", "EROFS"].includes(code)
  ) {
    return "not_writable";
  }
  return null;
}

/**
 * What the operating system or SQLite said about the database file, as a StoreError a person can
 * act on (`path` null: the failure came from a statement, which does not know its file); else null.
 */
function unusableStore(path: string | null, error: unknown): StoreError | null {
  const code = errnoOf(error);
  const kind = failureKind(code);
  if (kind === null) return null;
  const file = path ?? "the database (MONITOR_DB)";
  const dir = path === null ? "its directory" : dirname(path);
  const messages: Record<NonNullable<typeof kind>, string> = {
    disk_full: `the disk holding ${file} is full; what was stored before is intact: free some space there and run the command again`,
    disk_error: `SQLite could not read or write ${file} (${code}): the disk is probably full, or failing; what was stored before is intact: free some space there (or check the disk) and run the command again`,
    not_writable: `cannot write ${file} (${code}): this user needs write access to the file and to ${dir}, where SQLite keeps its -wal and -shm files; fix the permissions or set MONITOR_DB to a writable place`,
    busy: `${file} is locked by another process writing to it (${code} after waiting ${BUSY_TIMEOUT_MS / 1000} s): another datajud-monitor command, the daemon or an sqlite3 shell holds a write transaction; let it finish (or close that shell) and run the command again`,
    damaged: `${file} is damaged (${code}: ${error instanceof Error ? error.message : String(error)}): see where with \`sqlite3 ${path ?? "<MONITOR_DB>"} "PRAGMA integrity_check"\` (or \`datajud-monitor doctor\`), then restore it from a backup (\`datajud-monitor db backup\` makes them)`,
  };
  return new StoreError(kind, path ?? "", messages[kind], { cause: error });
}

/**
 * A database failure a person can act on (full disk, no write access, a bad path, a file that is
 * not ours, damaged pages, a lock another writer held too long), with the message to show; null
 * for anything else. Its `retryable` tells what passes from a database unusable as configured.
 */
export function storeFailure(error: unknown): StoreError | null {
  if (error instanceof StoreError) return error;
  return error instanceof Database.SqliteError ? unusableStore(null, error) : null;
}

function isDamageError(error: unknown): boolean {
  if (!(error instanceof Database.SqliteError)) return false;
  return error.code.startsWith("SQLITE_NOTADB") || error.code.startsWith("SQLITE_CORRUPT");
}

/** What a database path names when it is no file: a directory, a FIFO, a device. */
function notAFileKind(path: string): string | null {
  const stats = statSync(path);
  if (stats.isFile()) return null;
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  return stats.isCharacterDevice() || stats.isBlockDevice() ? "a device" : "not a regular file";
}

/** Checked by hand before SQLite sees the file, so nothing (not even WAL setup) can write to it. */
function assertLooksLikeSqlite(path: string): void {
  const kind = notAFileKind(path);
  if (kind !== null) {
    throw new StoreError(
      "bad_path",
      path,
      `the database path ${path} is ${kind}, not a database file: set MONITOR_DB to a file${kind === "a directory" ? ` (such as ${join(path, "monitor.db")})` : ""}`,
    );
  }
  const size = statSync(path).size;
  if (size === 0) return;
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(path, "r");
  let read: number;
  try {
    read = readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  if (read < header.length || !header.equals(SQLITE_HEADER)) {
    throw notADatabase(path, "its header is not SQLite's");
  }
}

function createPrivateFile(path: string): void {
  const dir = dirname(path);
  if (mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined) chmodSync(dir, 0o700);
  if (existsSync(path)) return;
  try {
    closeSync(openSync(path, "wx", 0o600));
    // The umask may have removed bits we need; SQLite copies this mode to -wal and -shm.
    chmodSync(path, 0o600);
  } catch (error) {
    // Another process created it between the check and the open.
    if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error;
  }
}

function assertSqliteVersion(db: Db, path: string): void {
  const row = db.prepare<[], { version: string }>("SELECT sqlite_version() AS version").get();
  const version = row?.version ?? "0";
  if (!isSupportedSqliteVersion(version)) {
    throw new StoreError(
      "sqlite_too_old",
      path,
      `SQLite ${version} is too old (needs ${MIN_SQLITE_VERSION} or newer: older versions can corrupt a WAL database when two processes write at once); reinstall better-sqlite3 12.11.1 or newer`,
    );
  }
}

export interface OpenDatabaseOptions {
  migrationsDir?: string;
  /** Opens an existing, already migrated file without writing anything to it. */
  readonly?: boolean;
}

/**
 * Opens (creating if needed, mode 0600 in a 0700 directory) and migrates the monitor's database.
 * A file that is not a database is refused untouched rather than replaced.
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Db {
  const memory = path === ":memory:";
  const fullPath = memory ? path : resolve(path);
  const readonly = options.readonly === true;
  if (!memory) {
    if (readonly && !databaseExists(fullPath)) {
      throw new StoreError(
        "missing_database",
        fullPath,
        `database ${fullPath} does not exist yet: run \`monitor run-once\` to create it`,
      );
    }
    if (!readonly) {
      databaseExists(fullPath);
      try {
        createPrivateFile(fullPath);
      } catch (error) {
        throw unusableStore(fullPath, error) ?? error;
      }
    }
    assertLooksLikeSqlite(fullPath);
  }

  let db: Db;
  try {
    db = new Database(fullPath, { readonly, fileMustExist: !memory, timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw unusableStore(fullPath, error) ?? error;
  }
  try {
    assertSqliteVersion(db, fullPath);
    // Reads page 1 and the schema before any pragma below may write to the file.
    db.prepare("SELECT count(*) FROM sqlite_schema").get();
    const migrationsDir = options.migrationsDir ?? defaultMigrationsDir();
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (readonly) {
      const found = schemaVersion(db);
      const known = latestMigrationVersion(migrationsDir);
      if (found > known) throw schemaTooNewError(fullPath, found, known);
      if (found < known) {
        throw new StoreError(
          "schema_too_old",
          fullPath,
          `database ${fullPath} has schema version ${found} but this monitor needs ${known}: run \`monitor run-once\` once to upgrade it`,
        );
      }
    } else {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      migrate(db, migrationsDir);
    }
    db.pragma("foreign_keys = ON");
    return db;
  } catch (error) {
    db.close();
    if (isDamageError(error)) {
      throw notADatabase(fullPath, error instanceof Error ? error.message : String(error), error);
    }
    throw (error instanceof StoreError ? null : unusableStore(fullPath, error)) ?? error;
  }
}

/**
 * The file as it is, read-only: nothing checked, migrated or written (a backup copies whatever
 * schema is there; a look at a file that may not be ours must not change it).
 */
export function openAsIs(path: string): Db {
  return new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
}

/** An error SQLite itself raised (a damaged file, a busy or read-only database, ...). */
export function isSqliteError(error: unknown): error is Error {
  return error instanceof Database.SqliteError;
}

export interface DatabaseInspection {
  sqliteVersion: string;
  schemaVersion: number;
  /** `PRAGMA quick_check`'s lines: ["ok"] for a sound file. */
  quickCheck: string[];
}

/** What `monitor doctor` reports of a database file, read without writing to it. */
export function inspectDatabase(path: string): DatabaseInspection {
  const db = openAsIs(path);
  try {
    const sqliteVersion =
      db.prepare<[], { v: string }>("SELECT sqlite_version() AS v").get()?.v ?? "unknown";
    const found = schemaVersion(db);
    const quickCheck = db
      .prepare<[], { quick_check: string }>("PRAGMA quick_check")
      .all()
      .map((row) => row.quick_check);
    return { sqliteVersion, schemaVersion: found, quickCheck };
  } finally {
    db.close();
  }
}

/** Refreshes the query planner's statistics (after a large delete). */
export function optimize(db: Db): void {
  db.pragma("optimize");
}

/** Why the database does not answer a trivial query, or null when it does (for /readyz). */
export function databaseProblem(db: Db): string | null {
  if (!db.open) return "the database is closed";
  try {
    db.prepare("SELECT 1").get();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Leaves the file compact for the next process: planner statistics, then an empty WAL. Both are
 * housekeeping: a close in a `finally` must never replace the error that brought it there (another
 * writer's lock, a damaged page, a full disk), so their failure is dropped and the next close
 * does them.
 */
export function closeDatabase(db: Db): void {
  if (!db.open) return;
  try {
    if (!db.readonly) {
      db.pragma("optimize");
      db.pragma("wal_checkpoint(TRUNCATE)");
    }
  } catch {
    // see above: the connection is closed all the same
  } finally {
    db.close();
  }
}

const writeGuards = new WeakMap<Db, () => void>();

/**
 * While set, every `immediate` transaction on `db` first calls `guard`, inside the transaction
 * once its write lock is taken (so what the guard reads cannot change before the write): it
 * throws to refuse the write. A sweep's lease uses it, so a sweep that lost its lease (stopped
 * past it, another run took over) writes nothing more. null removes it.
 */
export function guardWrites(db: Db, guard: (() => void) | null): void {
  if (guard === null) writeGuards.delete(db);
  else writeGuards.set(db, guard);
}

/** Runs `fn` in a BEGIN IMMEDIATE transaction: the write lock is taken up front, so no SQLITE_BUSY mid-way. */
export function immediate<T>(db: Db, fn: () => T): T {
  return db
    .transaction(() => {
      writeGuards.get(db)?.();
      return fn();
    })
    .immediate();
}

const statements = new WeakMap<Db, Map<string, Database.Statement>>();

/**
 * The connection's prepared statement for `sql`, prepared once. For the statements a sweep runs
 * once per case: preparing costs more than running them. Only for statements used as they come
 * (no pluck, raw or expand: those modes would stick to the shared statement).
 */
export function statement<P extends unknown[] | object = unknown[], R = unknown>(
  db: Db,
  sql: string,
): Database.Statement<P, R> {
  let cache = statements.get(db);
  if (cache === undefined) {
    cache = new Map();
    statements.set(db, cache);
  }
  let prepared = cache.get(sql);
  if (prepared === undefined) {
    prepared = db.prepare(sql);
    cache.set(sql, prepared);
  }
  return prepared as unknown as Database.Statement<P, R>;
}
