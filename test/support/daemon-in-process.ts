import type { CliIo } from "../../src/cli/command.js";
import { runCli } from "../../src/cli/run-cli.js";
import { realSystem, type System } from "../../src/system.js";

/** The pids of the in-process daemons still running (see `ownProcess`). */
const running = new Set<number>();
/** Above Linux's largest pid (2^22): no real process has one, so a stopped daemon's is dead. */
let nextPid = 2 ** 22 + 1;

/**
 * The real system, but a pid of the daemon's own that dies when it stops, as a process's does:
 * a claim or lease the daemon left behind is then a dead process's, as the next daemon would
 * find it after a restart, not this test worker's, which lives on.
 */
function ownProcess(): System & { pid: number } {
  const pid = nextPid++;
  return {
    ...realSystem,
    pid,
    isAlive: (other) => running.has(other) || realSystem.isAlive(other),
  };
}

export interface InProcessDaemon {
  /** What the daemon wrote to stderr (its journal) so far. */
  logs: () => string;
  /** The URL of its HTTP server, once its log has said it listens; "" before. */
  base: () => string;
  /** What SIGTERM does to the process: the daemon stops and exits; resolves to its exit code. */
  stop: () => Promise<number>;
}

/**
 * `monitor daemon` in this process, on the real clock (its scheduler and ticks are what such a
 * test exercises), stopped through the abort signal the entry point's SIGTERM handler raises. No
 * child process to start: a cold Node process with the whole CLI costs seconds on a busy machine.
 * Each has a pid of its own (`ownProcess`). The real signal is
 * test/integration/monitor/daemon.test.ts's.
 */
export function startDaemonInProcess(env: Record<string, string>, cwd: string): InProcessDaemon {
  let logs = "";
  const stop = new AbortController();
  const system = ownProcess();
  running.add(system.pid);
  const io: CliIo = {
    argv: ["daemon"],
    env,
    cwd,
    stdout: { write: () => undefined },
    stderr: {
      write: (chunk: string) => {
        logs += chunk;
      },
    },
    signal: stop.signal,
    system,
  };
  const exit = runCli(io).finally(() => running.delete(system.pid));
  return {
    logs: () => logs,
    base: () => /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(logs)?.[1] ?? "",
    stop: async () => {
      stop.abort();
      return exit;
    },
  };
}
