import type { CliIo } from "../../src/cli/command.js";
import type { System } from "../../src/system.js";
import { FakeClock, fakeSystem } from "../fakes/fake-clock.js";

export interface CapturedIo extends CliIo {
  system: System & { clock: FakeClock };
  out(): string;
  /** stdout as bytes (an .xlsx workbook is binary). */
  outBytes(): Buffer;
  err(): string;
}

/** One clock per working directory, so the runs of one workspace follow each other in time. */
const clocks = new Map<string, FakeClock>();

/**
 * The clock of the commands run in `cwd`: never behind the real time, and ahead of it by the
 * retries and backoff the earlier runs there skipped, as if they had waited for real.
 */
export function clockFor(cwd: string): FakeClock {
  const clock = clocks.get(cwd) ?? new FakeClock({ now: Date.now(), autoAdvance: true });
  clocks.set(cwd, clock);
  clock.set(Math.max(clock.now(), Date.now()));
  return clock;
}

/**
 * A CliIo whose output (logs included) the test reads back; nothing reaches the real
 * stdout/stderr. It runs on a fake clock that skips every wait: `cwd`'s (clockFor), or the one
 * given, for a test that must know what day the command sees.
 */
export function captureIo(
  env: NodeJS.ProcessEnv,
  cwd: string,
  argv: string[] = [],
  clock: FakeClock = clockFor(cwd),
): CapturedIo {
  const out: Buffer[] = [];
  let err = "";
  return {
    argv,
    env,
    cwd,
    stdout: { write: (chunk: string | Uint8Array) => out.push(Buffer.from(chunk)) },
    stderr: { write: (s: string | Uint8Array) => (err += String(s)) },
    signal: new AbortController().signal,
    system: fakeSystem(clock),
    out: () => Buffer.concat(out).toString("utf8"),
    outBytes: () => Buffer.concat(out),
    err: () => err,
  };
}
