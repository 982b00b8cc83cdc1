import { accessSync, constants, statSync } from "node:fs";
import { dirname } from "node:path";
import type { MonitorConfig } from "../config/load-config.js";
import { positionOf } from "../config/setting-position.js";

/*
 * The daemon creates the database's directory and the outbox at its start (mode 0700) and stops
 * when it cannot. What makes that impossible whoever runs it (a file where a directory must be,
 * a database path that is a directory) is an error for `validate`; what only this user cannot do
 * is a note, since an operator often validates as themselves a unit that runs as its own user.
 */

type Kind = "file" | "directory" | "other" | null;

function kindOf(path: string): Kind {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? "directory" : stat.isFile() ? "file" : "other";
  } catch {
    return null;
  }
}

/** Where the setting was given: file:line:col, or the variable that set it. */
function atOf(sources: Readonly<Record<string, string>>, setting: string): string {
  const source = sources[setting];
  return (
    positionOf(sources, setting) ||
    (source === undefined || source.startsWith("default") ? "" : `${source} `)
  );
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The nearest path at or above `dir` that exists, and what it is. */
function nearestExisting(dir: string): { path: string; kind: Exclude<Kind, null> } {
  let current = dir;
  for (;;) {
    const kind = kindOf(current);
    if (kind !== null) return { path: current, kind };
    const parent = dirname(current);
    if (parent === current) return { path: current, kind: "directory" };
    current = parent;
  }
}

export interface StatePathReport {
  errors: string[];
  notes: string[];
}

function checkDirectory(
  setting: string,
  dir: string,
  sources: Readonly<Record<string, string>>,
  report: StatePathReport,
): void {
  const at = atOf(sources, setting);
  const found = nearestExisting(dir);
  if (found.kind !== "directory") {
    report.errors.push(
      `${at}${setting}: ${found.path} is a ${found.kind === "file" ? "file" : "special file"}, not a directory, so ${dir} cannot be created there; the daemon would stop at its start. Choose another path or move that file`,
    );
    return;
  }
  if (!writable(found.path)) {
    const what =
      found.path === dir ? `${dir} is not writable` : `${dir} cannot be created in ${found.path}`;
    report.notes.push(
      `${at}${setting}: ${what} by this user; the daemon's user must be able to (under systemd, StateDirectory= does it)`,
    );
  }
}

/** What stands in the way of the daemon creating its database and outbox, said before it starts. */
export function statePathProblems(
  paths: MonitorConfig["paths"],
  sources: Readonly<Record<string, string>>,
): StatePathReport {
  const report: StatePathReport = { errors: [], notes: [] };
  const dbKind = kindOf(paths.db);
  if (dbKind === "directory" || dbKind === "other") {
    report.errors.push(
      `${atOf(sources, "paths.db")}paths.db: ${paths.db} is a ${dbKind === "directory" ? "directory" : "special file"}, not a database file; name a file, like ${paths.db.replace(/\/+$/u, "")}/monitor.db`,
    );
  } else {
    checkDirectory("paths.db", dirname(paths.db), sources, report);
    if (dbKind === "file" && !writable(paths.db))
      report.notes.push(
        `${atOf(sources, "paths.db")}paths.db: ${paths.db} is not writable by this user; the daemon's user must be able to write it`,
      );
  }
  checkDirectory("paths.outboxDir", paths.outboxDir, sources, report);
  return report;
}
