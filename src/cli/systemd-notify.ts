import { execFile } from "node:child_process";
import type { Logger } from "../log.js";

/*
 * The daemon's readiness for systemd (`Type=notify`): READY=1 once it serves and sweeps on its
 * schedule, STOPPING=1 when it starts to shut down. Node has no unix datagram socket to write
 * $NOTIFY_SOCKET itself, so the message goes through `systemd-notify`, a child process: the unit
 * sets NotifyAccess=all to accept it, and systemd-notify (systemd 246 and later) waits until the
 * manager has read it (sd_notify_barrier), so it is not lost when the child exits at once.
 */

export type SystemdState = "READY=1" | "STOPPING=1";

/** Runs `systemd-notify STATE` with `env` (its PATH and NOTIFY_SOCKET); rejects on failure. */
export type RunNotify = (state: SystemdState, env: NodeJS.ProcessEnv) => Promise<void>;

const NOTIFY_TIMEOUT_MS = 10_000;

const runSystemdNotify: RunNotify = (state, env) =>
  new Promise((resolve, reject) => {
    execFile("systemd-notify", [state], { env, timeout: NOTIFY_TIMEOUT_MS }, (error, _out, err) => {
      if (error === null) resolve();
      else reject(new Error(`${error.message}${err.trim() === "" ? "" : `: ${err.trim()}`}`));
    });
  });

export interface SystemdNotifier {
  /** Nothing outside a `Type=notify` unit (no NOTIFY_SOCKET); never rejects. */
  tell(state: SystemdState): Promise<void>;
}

export function systemdNotifier(
  env: NodeJS.ProcessEnv,
  logger: Pick<Logger, "error" | "warn">,
  run: RunNotify = runSystemdNotify,
): SystemdNotifier {
  const socket = env.NOTIFY_SOCKET;
  return {
    async tell(state) {
      if (socket === undefined || socket === "") return;
      try {
        await run(state, env);
      } catch (error) {
        if (state === "READY=1") {
          logger.error(
            { err: error },
            "could not tell systemd the daemon is ready (systemd-notify failed): under Type=notify systemd stops it after TimeoutStartSec; check that systemd-notify is installed and the unit has NotifyAccess=all, or set Type=exec in a drop-in (systemctl edit datajud-monitor)",
          );
        } else {
          logger.warn({ err: error }, "could not tell systemd the daemon is stopping");
        }
      }
    },
  };
}
