import { Cron } from "croner";

const FIELDS = [
  { name: "minute", range: "0-59" },
  { name: "hour", range: "0-23" },
  { name: "day-of-month", range: "1-31" },
  { name: "month", range: "1-12 or JAN-DEC" },
  { name: "day-of-week", range: "0-7 or SUN-SAT, 0 and 7 being Sunday" },
] as const;
const SECONDS = { name: "seconds", range: "0-59" } as const;

function accepted(expression: string): Cron | null {
  try {
    return new Cron(expression, { paused: true });
  } catch {
    return null;
  }
}

/** Which field croner refuses, each tried alone among asterisks: our words, never croner's. */
function fieldProblem(fields: readonly string[]): string {
  const names = fields.length === 6 ? [SECONDS, ...FIELDS] : FIELDS;
  for (const [i, field] of fields.entries()) {
    const alone = fields.map((value, j) => (j === i ? value : "*")).join(" ");
    const cron = accepted(alone);
    cron?.stop();
    const name = names[i];
    if (cron === null && name !== undefined) {
      return `its ${name.name} field "${field}" is not valid (${name.range}; lists, ranges and steps such as 1,15 1-5 */10)`;
    }
  }
  return "its fields cannot be read together";
}

/**
 * Why an expression is no schedule we run, in words for the person who wrote it (never the
 * library's message), or null if it runs: five fields (minute hour day-of-month month
 * day-of-week), or six with leading seconds, or a nickname such as @daily.
 */
export function cronProblem(expression: string): string | null {
  const text = expression.trim();
  if (text === "") return "it is empty";
  const fields = text.split(/\s+/);
  if (!text.startsWith("@") && fields.length !== 5 && fields.length !== 6) {
    return `it has ${fields.length} field${fields.length === 1 ? "" : "s"}, not 5 (minute hour day-of-month month day-of-week)`;
  }
  const cron = accepted(text);
  if (cron === null)
    return text.startsWith("@")
      ? `"${fields[0]}" is not a nickname (@hourly, @daily, @weekly, @monthly, @yearly)`
      : fieldProblem(fields);
  const next = cron.nextRun();
  cron.stop();
  return next === null ? "it never fires (a date that does not exist, such as 31 February?)" : null;
}
