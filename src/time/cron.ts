import { Cron } from "croner";

/** Why croner refuses an expression, or null if it runs. */
export function cronProblem(expression: string): string | null {
  try {
    const cron = new Cron(expression, { paused: true });
    const next = cron.nextRun();
    cron.stop();
    return next === null ? "this schedule never fires (a date that does not exist?)" : null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
