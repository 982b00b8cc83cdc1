import { describe, expect, it } from "vitest";
import { cronProblem } from "../../../src/time/cron.js";

describe("cronProblem: why a schedule does not run, in our words", () => {
  it.each([
    "0 7,12,17 * * 1-5",
    "*/30 8-18 * * MON-FRI",
    "0 0 8 * * 1",
    "@daily",
    "  0 18 * * 1-5  ",
  ])("accepts %s", (expression) => {
    expect(cronProblem(expression)).toBeNull();
  });

  it.each([
    ["", "it is empty"],
    ["every day", "it has 2 fields, not 5 (minute hour day-of-month month day-of-week)"],
    ["0 8 * * 1 2 3", "it has 7 fields, not 5 (minute hour day-of-month month day-of-week)"],
    ["61 * * * *", 'its minute field "61" is not valid (0-59;'],
    ["*/0 * * * *", 'its minute field "*/0" is not valid (0-59;'],
    ["0 25 * * *", 'its hour field "25" is not valid (0-23;'],
    ["0 8 32 * *", 'its day-of-month field "32" is not valid (1-31;'],
    ["0 8 * 13 *", 'its month field "13" is not valid (1-12 or JAN-DEC;'],
    ["0 8 * * MON-XYZ", 'its day-of-week field "MON-XYZ" is not valid (0-7 or SUN-SAT'],
    ["99 0 8 * * 1", 'its seconds field "99" is not valid (0-59;'],
    ["@sometimes", '"@sometimes" is not a nickname (@hourly, @daily, @weekly, @monthly, @yearly)'],
    ["0 0 31 2 *", "it never fires (a date that does not exist, such as 31 February?)"],
  ])("refuses %j: %s", (expression, reason) => {
    const problem = cronProblem(expression);

    expect(problem?.startsWith(reason)).toBe(true);
    expect(problem).not.toMatch(/CronPattern|croner|configuration entry|illegal/i);
  });
});
