import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import Database from "better-sqlite3";
import { MonitorError } from "../errors.js";
import type { Db } from "./database.js";

export type BackupErrorCode =
  /** The target exists and `force` was not given. */
  | "exists"
  /** The target's directory is missing, or the target is a directory. */
  | "bad_target"
  /** The copy failed `PRAGMA integrity_check`; nothing was put at the target. */
  | "integrity";

export class BackupError extends MonitorError<BackupErrorCode> {
  override readonly name = "BackupError";
}

export interface BackupOptions {
  /** Replace an existing file at the target. */
  force?: boolean;
}

export interface BackupResult {
  path: string;
  bytes: number;
}

function fsyncPath(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function integrityProblems(path: string): string[] {
  const copy = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return copy
      .prepare<[], { integrity_check: string }>("PRAGMA integrity_check")
      .all()
      .map((row) => row.integrity_check)
      .filter((line) => line !== "ok");
  } finally {
    copy.close();
  }
}

/**
 * An online backup: `VACUUM INTO` a temporary file beside the target reads one consistent
 * snapshot while the daemon keeps writing, the copy must pass `integrity_check`, and only then
 * is it renamed over the target, so the target is never a half-written or damaged file.
 */
export function backupDatabase(
  source: Db,
  target: string,
  options: BackupOptions = {},
): BackupResult {
  const path = resolve(target);
  const dir = dirname(path);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new BackupError("bad_target", `${dir} does not exist; create it first`);
  }
  if (existsSync(path)) {
    if (statSync(path).isDirectory()) {
      throw new BackupError("bad_target", `${path} is a directory; give a file name`);
    }
    if (options.force !== true) {
      throw new BackupError(
        "exists",
        `${path} already exists; choose another name, or pass --force to replace it`,
      );
    }
  }
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    source.prepare("VACUUM INTO ?").run(temp);
    // The copy holds every watcher's address: readable by the monitor's user only.
    chmodSync(temp, 0o600);
    const problems = integrityProblems(temp);
    if (problems.length > 0) {
      throw new BackupError(
        "integrity",
        `the copy failed integrity_check (${problems.slice(0, 3).join("; ")}); ${path} was not written. Run \`monitor doctor\`: the database itself may be damaged`,
      );
    }
    fsyncPath(temp);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  try {
    fsyncPath(dir);
  } catch {
    // Not every platform can fsync a directory; the rename itself has happened.
  }
  return { path, bytes: statSync(path).size };
}
