import { describe, expect, it } from "vitest";
import {
  dateInZone,
  instantsOfWall,
  isTimeZone,
  localDateTime,
  timeOfDayInZone,
  wallClockInZone,
  zonedIso,
  zoneOffsetMs,
} from "../../../src/time/zoned-time.js";

const HOUR_MS = 3_600_000;

describe("a zone's offset, from the IANA history", () => {
  it("is -3 h in São Paulo since 2019 and -2 h in its summers before", () => {
    // Decreto 9.772/2019 ended daylight saving; the 2018-19 season (Decreto 9.242/2017) ran from
    // 00:00 of 4 Nov 2018 to 00:00 of 17 Feb 2019.
    expect(zoneOffsetMs(Date.parse("2026-01-15T12:00:00Z"), "America/Sao_Paulo")).toBe(
      -3 * HOUR_MS,
    );
    expect(zoneOffsetMs(Date.parse("2018-12-15T12:00:00Z"), "America/Sao_Paulo")).toBe(
      -2 * HOUR_MS,
    );
    expect(zoneOffsetMs(Date.parse("2026-01-15T12:00:00Z"), "America/Manaus")).toBe(-4 * HOUR_MS);
  });

  it("keeps the seconds of a local mean time (São Paulo before 1914: -3:06:28)", () => {
    expect(zoneOffsetMs(Date.UTC(1910, 0, 1), "America/Sao_Paulo")).toBe(
      -(3 * 3600 + 6 * 60 + 28) * 1000,
    );
    expect(wallClockInZone(Date.UTC(1910, 0, 1))).toBe("1909-12-31T20:53:32");
  });

  it("refuses a zone the runtime does not know, as Intl does", () => {
    expect(() => zoneOffsetMs(0, "Mars/Olympus")).toThrow(RangeError);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("America/Sao_Paulo")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
  });
});

describe("an instant on a zone's wall clock", () => {
  it("jumps from 23:59:59 to 01:00:00 where daylight saving began (4 Nov 2018)", () => {
    expect(wallClockInZone(Date.parse("2018-11-04T02:59:59Z"))).toBe("2018-11-03T23:59:59");
    expect(wallClockInZone(Date.parse("2018-11-04T03:00:00Z"))).toBe("2018-11-04T01:00:00");
    expect(dateInZone(Date.parse("2018-11-04T02:59:59Z"))).toBe("2018-11-03");
  });

  it("reads 23:30 of 16 Feb 2019 twice, an hour apart, where it ended", () => {
    expect(wallClockInZone(Date.parse("2019-02-17T01:30:00Z"))).toBe("2019-02-16T23:30:00");
    expect(wallClockInZone(Date.parse("2019-02-17T02:30:00Z"))).toBe("2019-02-16T23:30:00");
    expect(
      instantsOfWall(Date.UTC(2019, 1, 16, 23, 30), "America/Sao_Paulo").map((ms) =>
        new Date(ms).toISOString(),
      ),
    ).toEqual(["2019-02-17T01:30:00.000Z", "2019-02-17T02:30:00.000Z"]);
  });

  it("gives the time of day to the second and the parts to the millisecond", () => {
    const at = Date.parse("2026-12-04T19:02:07.999Z");
    expect(timeOfDayInZone(at)).toBe("16:02:07");
    expect(timeOfDayInZone(at, "UTC")).toBe("19:02:07");
    expect(localDateTime(new Date(at), "America/Sao_Paulo")).toEqual({
      year: 2026,
      month: 12,
      day: 4,
      timeOfDayMs: 16 * HOUR_MS + 2 * 60_000 + 7_999,
    });
  });

  it("writes an instant with the zone's offset of that day", () => {
    expect(zonedIso(Date.parse("2026-12-04T19:00:00Z"))).toBe("2026-12-04T16:00:00.000-03:00");
    expect(zonedIso(new Date("2018-12-04T19:00:00Z"))).toBe("2018-12-04T17:00:00.000-02:00");
  });
});
