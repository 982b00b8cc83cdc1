import { type ParseArgsConfig, parseArgs } from "node:util";
import { realSystem, type System } from "../system.js";
import { suggestName } from "../text.js";
import { PROGRAM } from "./program-name.js";
import type { OutputStream } from "./terminal.js";

export interface CliIo {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout: OutputStream;
  /** Logs (and a sweep's progress, when it is a terminal). */
  stderr: OutputStream;
  /** Aborted on SIGTERM/SIGINT by the entry point. */
  signal: AbortSignal;
  /** Clock, random source, host name and pid; tests pass a fake clock. @default realSystem */
  system?: System;
  /** The name the user typed (programName), for messages. @default PROGRAM */
  program?: string;
}

/** The system a command runs on: the test's fake one, else the real one. */
export function systemOf(io: CliIo): System {
  return io.system ?? realSystem;
}

export type Options = NonNullable<ParseArgsConfig["options"]>;

export interface Command {
  name: string;
  summary: string;
  /** e.g. "monitor run-once [--case CNJ]... [--force]" */
  usage: string;
  /** Lines shown under the usage by --help. */
  details: readonly string[];
  options: Options;
  allowPositionals?: boolean;
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | Array<string | boolean> | undefined>;
  positionals: string[];
}

/**
 * Exit codes of the contract in DESIGN.md. `attention` (3, restic's "done, but look"): `status`
 * found something a person must act on; `run-once` checked every case but alerts could not be
 * delivered.
 */
export const EXIT = { ok: 0, failures: 1, usage: 2, attention: 3 } as const;

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export { PROGRAM, programName } from "./program-name.js";

/** What a command's messages start with: the name the user typed. */
export function programOf(io: Pick<CliIo, "program">): string {
  return io.program ?? PROGRAM;
}

function flagOf(name: string): string {
  return name.length === 1 ? `-${name}` : `--${name}`;
}

/** "unknown option --dryrun; did you mean --dry-run?", in our words, never Node's parser text. */
function unknownOption(rawName: string, options: Options): string {
  const known = Object.keys(options);
  const bare = rawName.replace(/^-+/u, "").split("=")[0] ?? "";
  const suggestion = suggestName(bare, known);
  const tail =
    suggestion === undefined
      ? known.length === 1
        ? "; this command takes only --help"
        : ""
      : `; did you mean ${flagOf(suggestion)}?`;
  return `unknown option ${rawName}${tail}`;
}

type ArgToken = NonNullable<ReturnType<typeof parseArgs>["tokens"]>[number];

function tokenProblem(token: ArgToken, command: Command, options: Options): string | null {
  if (token.kind === "positional") {
    return command.allowPositionals === true
      ? null
      : `unexpected argument "${token.value}": this command takes no arguments besides its options`;
  }
  if (token.kind !== "option") return null;
  const option = options[token.name];
  if (option === undefined) return unknownOption(token.rawName, options);
  const flag = flagOf(token.name);
  if (option.type === "boolean" && token.inlineValue === true) {
    return `${flag} takes no value; write it alone`;
  }
  const taken = token.value;
  if (
    option.type === "string" &&
    (taken === undefined || (!token.inlineValue && taken.startsWith("-")))
  ) {
    return `${flag} needs a value, as in ${flag} VALUE${taken === undefined ? "" : ` (${taken} is an option)`}`;
  }
  return null;
}

export function parseCommandArgs(command: Command, argv: readonly string[]): ParsedArgs {
  const options: Options = { ...command.options, help: { type: "boolean", short: "h" } };
  // Read loosely first, so each problem is said in our words with the closest flag.
  const { tokens } = parseArgs({
    args: [...argv],
    options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  for (const token of tokens) {
    const problem = tokenProblem(token, command, options);
    if (problem !== null) throw new UsageError(problem);
  }
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options,
      allowPositionals: command.allowPositionals ?? false,
      strict: true,
    });
    return { values: values as ParsedArgs["values"], positionals };
  } catch {
    throw new UsageError(`these arguments do not fit: ${argv.join(" ")}`);
  }
}

export function helpText(command: Command): string {
  const lines = [`usage: ${command.usage}`, "", command.summary];
  if (command.details.length > 0) lines.push("", ...command.details);
  return `${lines.join("\n")}\n`;
}

export function stringList(value: ParsedArgs["values"][string]): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v): v is string => typeof v === "string");
}
