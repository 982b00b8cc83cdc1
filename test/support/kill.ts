import type { ChildProcess } from "node:child_process";

/**
 * Kills `child` at once (SIGKILL) and resolves once it is gone, so what the test does next (an
 * SMTP server's "250" to a dead sender) comes after the death, with no guess at how long dying
 * takes.
 */
export function killNow(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGKILL");
  return gone;
}
