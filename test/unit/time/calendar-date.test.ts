import { describe, expect, it } from "vitest";
import { calendarDate, daysInMonth, parseCalendarDate } from "../../../src/time/calendar-date.js";

describe("calendar dates", () => {
  it("knows the days of each month, leap years included", () => {
    expect([
      daysInMonth(2024, 2),
      daysInMonth(2025, 2),
      daysInMonth(1900, 2),
      daysInMonth(2000, 2),
    ]).toEqual([29, 28, 28, 29]);
    expect([daysInMonth(2025, 4), daysInMonth(2025, 12)]).toEqual([30, 31]);
  });

  it("writes a real date as YYYY-MM-DD and refuses one that does not exist", () => {
    expect(calendarDate(2027, 1, 5)).toBe("2027-01-05");
    expect(calendarDate(2027, 2, 29)).toBeNull();
    expect(calendarDate(2027, 13, 1)).toBeNull();
  });

  it("reads only YYYY-MM-DD with two-digit month and day", () => {
    expect(parseCalendarDate("2028-02-29")).toEqual({ year: 2028, month: 2, day: 29 });
    expect(parseCalendarDate("2027-02-29")).toBeNull();
    expect(parseCalendarDate("2027-1-05")).toBeNull();
    expect(parseCalendarDate(" 2027-01-05")).toBeNull();
  });
});
