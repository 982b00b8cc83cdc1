// Imports nothing: the entry point uses it before the rest of the CLI is loaded.

/**
 * What a Ctrl-C (or SIGTERM) before the command got going says: one line, never silence (issue
 * 30: a Ctrl-C while the CLI's modules loaded ended the process without a word).
 */
export function interruptedBeforeStartLine(program: string, command: string | undefined): string {
  const what =
    command === "run-once" || command === "daemon"
      ? "the sweep"
      : `\`${program}${command === undefined ? "" : ` ${command}`}\``;
  return `${program}: interrupted before ${what} started; nothing was written\n`;
}

/**
 * The exit code of a command stopped before it started, as each documents a stop: the daemon
 * exits 0 on SIGTERM/SIGINT (a service stopped is not a failure); run-once and the rest exit 1
 * (not every case was checked).
 */
export function interruptedBeforeStartCode(command: string | undefined): number {
  return command === "daemon" ? 0 : 1;
}
