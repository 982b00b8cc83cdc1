import type { CliIo } from "../../../src/cli/command.js";

export interface CapturedIo extends CliIo {
  out(): string;
  err(): string;
}

/** A CliIo whose output the test reads back; nothing reaches the real stdout/stderr. */
export function captureIo(env: NodeJS.ProcessEnv, cwd: string, argv: string[] = []): CapturedIo {
  let out = "";
  let err = "";
  return {
    argv,
    env,
    cwd,
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    signal: new AbortController().signal,
    out: () => out,
    err: () => err,
  };
}
