import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { loadConfig } from "../config/load-config.js";
import { readUserFile } from "../user-file.js";
import { addCaseToWatchlist } from "../watchlist/add-case.js";
import { WATCHLIST_MAX_BYTES } from "../watchlist/parse-watchlist.js";
import { type Command, EXIT, programOf, systemOf } from "./command.js";

/**
 * Writes `text` to `path` atomically: a temporary file beside it (same directory, same mode),
 * flushed, then renamed over it. A crash leaves the old file or the new one, never half of one;
 * a daemon watching the file sees one change.
 */
function replaceFile(path: string, text: string, pid: number): void {
  const mode = statSync(path).mode & 0o7777;
  const tmp = join(dirname(path), `.${basename(path)}.${pid}.tmp`);
  const fd = openSync(tmp, "wx", mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

export const watchCommand: Command = {
  name: "watch",
  summary: "Add a case to the watchlist, keeping its comments and layout",
  usage: "datajud-monitor watch CNJ [--label TEXT] [--watcher EMAIL]...",
  details: [
    "Adds the case under cases: (quoted, with its label and watchers), keeping every comment and",
    "blank line of the file. The watchlist must be valid before, and is checked again with the",
    "case before it is written (atomically: a temporary file renamed over it). The daemon reads",
    "the new file at once. The party radar's alerts (docs/radar.md) give this command.",
    "Exit codes: 0 added (or already watched), 2 invalid number, watchlist or usage.",
  ],
  options: {
    label: { type: "string" },
    watcher: { type: "string", multiple: true },
  },
  allowPositionals: true,
  async run(args, io) {
    const program = programOf(io);
    const [number, ...rest] = args.positionals;
    if (number === undefined || rest.length > 0) {
      io.stderr.write(`${program} watch: give one case number: ${this.usage}\n`);
      return EXIT.usage;
    }
    const config = loadConfig({ env: io.env, cwd: io.cwd });
    if (!config.ok) {
      for (const message of config.errors) io.stderr.write(`${message}\n`);
      return EXIT.usage;
    }
    const path = config.config.paths.watchlist;
    const read = readUserFile(path, WATCHLIST_MAX_BYTES);
    if (!read.ok) {
      const why = read.problem === "missing" ? "it does not exist" : read.detail;
      io.stderr.write(`${program} watch: cannot read ${path}: ${why}\n`);
      return EXIT.usage;
    }
    const label = typeof args.values.label === "string" ? args.values.label : undefined;
    const watchers = Array.isArray(args.values.watcher)
      ? args.values.watcher.filter((w): w is string => typeof w === "string")
      : [];
    const result = addCaseToWatchlist(
      read.bytes.toString("utf8"),
      path,
      { number, label, notify: watchers },
      { endpoints: config.config.notify.endpoints.map((e) => e.name) },
    );
    if (!result.ok) {
      for (const error of result.errors) io.stderr.write(`${error}\n`);
      io.stderr.write(`${program} watch: ${path} was not changed\n`);
      return EXIT.usage;
    }
    if (result.text === null) {
      io.stdout.write(
        `${result.formatted} is already in ${path} (line ${result.line}); nothing to do\n`,
      );
      return EXIT.ok;
    }
    replaceFile(path, result.text, systemOf(io).pid);
    io.stdout.write(`${result.formatted} added to ${path} (line ${result.line})\n`);
    return EXIT.ok;
  },
};
