import { describe, expect, it } from "vitest";
import { calendarDate, daysInMonth, parseCalendarDate } from "../../../src/time/calendar-date.js";
import { dateInZone, instantInZone } from "../../../src/time/zoned-time.js";

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

describe("the São Paulo day", () => {
  it("is the date an instant falls on there: 02:59:59Z is still the day before", () => {
    expect(dateInZone(Date.parse("2026-12-02T02:59:59.000Z"))).toBe("2026-12-01");
    expect(dateInZone(Date.parse("2026-12-02T03:00:00.000Z"))).toBe("2026-12-02");
  });

  it("starts at the instant its midnight names: UTC-03:00 since 2019, UTC-02:00 in summer before", () => {
    // Decreto 9.772/2019 ended daylight saving; the 2018-19 summer ran from 4 Nov 2018 to
    // 17 Feb 2019 at UTC-02:00 (Decreto 9.242/2017).
    expect(new Date(instantInZone("2026-03-02")).toISOString()).toBe("2026-03-02T03:00:00.000Z");
    expect(new Date(instantInZone("2018-12-01")).toISOString()).toBe("2018-12-01T02:00:00.000Z");
    // 4 Nov 2018 had no midnight (00:00 became 01:00): the day starts at 01:00-02:00.
    expect(new Date(instantInZone("2018-11-04")).toISOString()).toBe("2018-11-04T03:00:00.000Z");
  });

  it("reads a wall clock with seconds, in another zone too, and refuses one that is not", () => {
    expect(new Date(instantInZone("2026-03-02", "09:30:15.5")).toISOString()).toBe(
      "2026-03-02T12:30:15.500Z",
    );
    expect(new Date(instantInZone("2026-03-02", "00:00", "America/Manaus")).toISOString()).toBe(
      "2026-03-02T04:00:00.000Z",
    );
    expect(() => instantInZone("2026-03-02", "25:00")).toThrow(RangeError);
    expect(() => instantInZone("2026-02-30")).toThrow(RangeError);
  });
});
