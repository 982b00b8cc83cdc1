import { type ParseArgsConfig, parseArgs } from "node:util";
import { realSystem, type System } from "../system.js";

export interface CliIo {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
  /** Aborted on SIGTERM/SIGINT by the entry point. */
  signal: AbortSignal;
  /** Clock, random source, host name and pid; tests pass a fake clock. @default realSystem */
  system?: System;
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

/** Exit codes of the contract in DESIGN.md. */
export const EXIT = { ok: 0, failures: 1, usage: 2 } as const;

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export function parseCommandArgs(command: Command, argv: readonly string[]): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { ...command.options, help: { type: "boolean", short: "h" } },
      allowPositionals: command.allowPositionals ?? false,
      strict: true,
    });
    return { values: values as ParsedArgs["values"], positionals };
  } catch (error) {
    throw new UsageError(
      error instanceof Error ? error.message.replace(/\s+/g, " ") : String(error),
    );
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
