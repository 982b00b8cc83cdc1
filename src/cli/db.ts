import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { BackupError, backupDatabase } from "../store/backup.js";
import { closeDatabase, isSqliteError, openAsIs } from "../store/database.js";
import { type Command, EXIT, programOf, UsageError } from "./command.js";
import { loadRuntime } from "./runtime.js";

export const dbCommand: Command = {
  name: "db",
  summary: "Database maintenance: an online backup of the monitor's SQLite file",
  usage: "datajud-monitor db backup PATH [--force]",
  details: [
    "backup PATH   copy the database (MONITOR_DB) to PATH while the daemon may keep running;",
    "              the copy is checked with integrity_check before it is put at PATH",
    "--force       replace PATH if it exists",
    "",
    "Exit codes: 0 written, 1 the backup failed, 2 bad usage or no database.",
  ],
  options: { force: { type: "boolean", default: false } },
  allowPositionals: true,
  async run(args, io) {
    const [action, target, ...extra] = args.positionals;
    if (action !== "backup") {
      throw new UsageError(
        action === undefined ? "say what to do: backup PATH" : `unknown action "${action}"`,
      );
    }
    if (target === undefined || target === "") throw new UsageError("backup needs a PATH");
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const runtime = loadRuntime(io, "db");
    if (!runtime) return EXIT.usage;
    const source = runtime.config.paths.db;
    if (!existsSync(source)) {
      io.stderr.write(
        `${programOf(io)} db: no database at ${source}; check MONITOR_DB (or run a first sweep)\n`,
      );
      return EXIT.usage;
    }
    const path = isAbsolute(target) ? target : resolve(io.cwd, target);
    // Read-only: a backup must not migrate or otherwise touch the live file.
    const db = openAsIs(source);
    try {
      const result = backupDatabase(db, path, { force: args.values.force === true });
      io.stdout.write(
        `backed up ${source} to ${result.path} (${result.bytes} bytes, integrity_check ok)\n`,
      );
      return EXIT.ok;
    } catch (error) {
      if (!(error instanceof BackupError) && !isSqliteError(error)) throw error;
      io.stderr.write(`${programOf(io)} db backup: ${error.message}\n`);
      return EXIT.failures;
    } finally {
      closeDatabase(db);
    }
  },
};
