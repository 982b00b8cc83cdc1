import type { Logger } from "pino";
import { loadConfig } from "../config/load-config.js";
import type { CourtClosure } from "../time/court-calendar.js";

/**
 * The daemon's SIGHUP for court calendars: calendar.closures read again from the configuration
 * and put in force, so a closure or suspension the operator adds (a portaria, an outage) dates
 * every open estimate on the next sweep without a restart. An invalid edit is logged and the
 * closures in force stay. Only the closures are taken: any other setting waits for a restart.
 */
export function reloadClosures(
  where: { env: NodeJS.ProcessEnv; cwd: string },
  monitor: { setClosures(closures: readonly CourtClosure[]): void },
  logger: Pick<Logger, "info" | "error">,
): boolean {
  const result = loadConfig({ env: where.env, cwd: where.cwd });
  if (!result.ok) {
    logger.error(
      { errors: result.errors },
      "configuration edit is invalid; keeping the calendar.closures in force (fix it and send SIGHUP again)",
    );
    return false;
  }
  const { closures } = result.config.calendar;
  monitor.setClosures(closures);
  logger.info(
    { closures: closures.length },
    "calendar.closures reloaded: the next sweep dates open estimates with them (other settings take a restart)",
  );
  return true;
}
