import { describe, expect, it } from "vitest";
import {
  formatInstant,
  formatWallClock,
  legacyInstant,
  parseDataJudDate,
  serviceInstant,
  toDataJudDate,
  wallClockDay,
  wallClockInstant,
  wallClockOfInput,
} from "../../../src/datajud/dates.js";
import { isDataJudError } from "../../../src/datajud/errors.js";

describe("toDataJudDate", () => {
  it("turns a day into DataJud's compact form, at the start or the end of the day", () => {
    const start = toDataJudDate("2023-01-01");
    const explicitStart = toDataJudDate("2023-01-01", "start");
    const end = toDataJudDate("2023-01-01", "end");

    expect([start, explicitStart, end]).toEqual([
      "20230101000000",
      "20230101000000",
      "20230101235959",
    ]);
  });

  it("converts date-times with a zone to court local time (-03:00)", () => {
    const converted = [
      toDataJudDate("2023-05-10T17:22:05Z"),
      toDataJudDate("2023-05-10T17:22:05.999Z"),
      toDataJudDate("2023-05-10T14:22:05-03:00"),
      toDataJudDate("2023-05-10T19:22:05+0200"),
      toDataJudDate("2023-01-01T02:00:00Z"),
    ];

    expect(converted).toEqual([
      "20230510142205",
      "20230510142205",
      "20230510142205",
      "20230510142205",
      "20221231230000",
    ]);
  });

  it("reads zone-less date-times as court local time", () => {
    const local = toDataJudDate("2023-05-10T14:22:05");

    expect(local).toBe("20230510142205");
  });

  it("covers the whole minute at the end edge when seconds are missing", () => {
    const start = toDataJudDate("2023-05-10T14:22", "start");
    const end = toDataJudDate("2023-05-10T14:22", "end");

    expect([start, end]).toEqual(["20230510142200", "20230510142259"]);
  });

  it("trims whitespace", () => {
    const trimmed = toDataJudDate(" 2024-02-29 ");

    expect(trimmed).toBe("20240229000000");
  });

  it.each([
    "",
    "2023-13-01",
    "2023-02-30",
    "2023-02-29",
    "01/05/2023",
    "20230101",
    "2023-1-5",
    "yesterday",
    "2023-05-10T25:00:00Z",
  ])("refuses %j with invalid_input naming the expected form", (input) => {
    let caught: unknown;

    try {
      toDataJudDate(input);
    } catch (error) {
      caught = error;
    }

    expect(isDataJudError(caught) && caught.kind).toBe("invalid_input");
    expect(isDataJudError(caught) && caught.message).toContain("YYYY-MM-DD");
  });
});

describe("parseDataJudDate: the court's wall clock, never shifted", () => {
  it("keeps the time written before a Z or an offset, which label the court's own clock", () => {
    const values = [
      parseDataJudDate("2025-11-04T00:15:00.000Z"),
      parseDataJudDate("2025-11-04T00:15:00Z"),
      parseDataJudDate("2025-11-04T00:15Z"),
      parseDataJudDate("2025-11-04T00:15:00-03:00"),
      parseDataJudDate("2025-11-04T00:15:00.000+0000"),
      parseDataJudDate("2025-11-04 00:15:00 Z"),
      parseDataJudDate("2025-11-04T00:15:00.123456789Z"),
    ];

    expect(new Set(values)).toEqual(new Set(["2025-11-04T00:15:00"]));
  });

  it("reads zone-less ISO, compact and Brazilian forms as the same wall clock", () => {
    const values = [
      parseDataJudDate("2025-11-04T00:15:00"),
      parseDataJudDate("2025-11-04 00:15"),
      parseDataJudDate("20251104001500"),
      parseDataJudDate("202511040015"),
      parseDataJudDate(20251104001500),
      parseDataJudDate("04/11/2025 00:15:00"),
      parseDataJudDate("04/11/2025 00:15"),
      parseDataJudDate(" 04/11/2025 00:15:00 "),
    ];

    expect(new Set(values)).toEqual(new Set(["2025-11-04T00:15:00"]));
  });

  it("keeps a day without a time as a day", () => {
    const values = [
      parseDataJudDate("2025-11-04"),
      parseDataJudDate("20251104"),
      parseDataJudDate(20251104),
      parseDataJudDate("04/11/2025"),
    ];

    expect(new Set(values)).toEqual(new Set(["2025-11-04"]));
  });

  it("converts 13-digit epoch milliseconds, the one real instant, to São Paulo wall clock", () => {
    const ms = Date.UTC(2025, 10, 4, 3, 15);

    const values = [parseDataJudDate(ms), parseDataJudDate(String(ms))];

    expect(values).toEqual(["2025-11-04T00:15:00", "2025-11-04T00:15:00"]);
  });

  it("applies the daylight saving São Paulo had then to an old epoch instant", () => {
    const summer2018 = parseDataJudDate(Date.UTC(2018, 0, 15, 12, 0));

    expect(summer2018).toBe("2018-01-15T10:00:00");
  });

  it("returns null for empty, unparseable or implausible values instead of throwing", () => {
    const inputs: unknown[] = [
      null,
      undefined,
      "",
      "   ",
      "não informado",
      "2023-02-30",
      "31/02/2023",
      "20231345000000",
      "2023-05-10T14:22:00+99:00",
      "2023-05-10T25:00:00",
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -5,
      1.5,
      {},
      [],
      true,
      "99999999999999999999",
    ];

    const values = inputs.map((input) => parseDataJudDate(input));

    expect(values).toEqual(inputs.map(() => null));
  });

  it("orders wall clocks as text, a bare day before any time of that day", () => {
    const values = ["2025-11-04T00:15:00", "2025-11-03T23:59:59", "2025-11-04"];

    const sorted = [...values].sort();

    expect(sorted).toEqual(["2025-11-03T23:59:59", "2025-11-04", "2025-11-04T00:15:00"]);
  });
});

describe("formatWallClock", () => {
  it("shows a publication stamped 00:15Z at 00:15 of its own day", () => {
    const shown = [
      formatWallClock("2025-11-04T00:15:00"),
      formatWallClock("2025-11-04T00:15:00.000Z"),
      formatWallClock("20251104001500"),
    ];

    expect(shown).toEqual(["04/11/2025 00:15", "04/11/2025 00:15", "04/11/2025 00:15"]);
  });

  it("shows a day without a time as the day alone", () => {
    expect(formatWallClock("2025-11-04")).toBe("04/11/2025");
  });

  it("gives back text that is not a date unchanged", () => {
    expect(formatWallClock("sem data")).toBe("sem data");
  });

  it("gives the calendar day of a wall clock for comparisons", () => {
    expect([wallClockDay("2025-11-04T23:59:59.000Z"), wallClockDay("x")]).toEqual([
      "2025-11-04",
      null,
    ]);
  });
});

describe("formatInstant", () => {
  it("shows one of our instants in the schedule's time zone", () => {
    const shown = [
      formatInstant("2025-11-04T03:15:00.000Z", "America/Sao_Paulo"),
      formatInstant("2025-11-04T03:15:00.000Z", "Europe/Lisbon"),
      formatInstant("2025-11-04T03:15:00.000Z"),
    ];

    expect(shown).toEqual(["04/11/2025 00:15", "04/11/2025 03:15", "04/11/2025 00:15"]);
  });

  it("gives back text that is not an instant unchanged, a zone-less wall clock included", () => {
    expect([formatInstant("never"), formatInstant("2025-11-04T00:15:00")]).toEqual([
      "never",
      "2025-11-04T00:15:00",
    ]);
  });
});

describe("serviceInstant", () => {
  it("reads DJEN's zoneless times as UTC and applies a zone the text names", () => {
    const read = [
      serviceInstant("2025-09-30T18:00:00"),
      serviceInstant("2025-09-30 18:00:00.5"),
      serviceInstant("2025-09-30T18:00:00-03:00"),
      serviceInstant("2025-09-30T18:00:00Z"),
    ];

    expect(read).toEqual([
      "2025-09-30T18:00:00.000Z",
      "2025-09-30T18:00:00.500Z",
      "2025-09-30T21:00:00.000Z",
      "2025-09-30T18:00:00.000Z",
    ]);
  });

  it("is null for text that is no date and time, so the caller shows it as sent", () => {
    expect([
      serviceInstant(null),
      serviceInstant("ontem"),
      serviceInstant("2025-09-30"),
      serviceInstant("2025-02-30T10:00:00"),
    ]).toEqual([null, null, null, null]);
  });
});

describe("wallClockInstant", () => {
  it("reads a wall clock as São Paulo time, for arithmetic with our instants", () => {
    const values = [
      wallClockInstant("2025-11-04T00:15:00"),
      wallClockInstant("2025-11-04"),
      wallClockInstant("2018-01-15T10:00:00"),
      wallClockInstant("nope"),
    ];

    expect(values).toEqual([
      Date.UTC(2025, 10, 4, 3, 15),
      Date.UTC(2025, 10, 4, 3, 0),
      Date.UTC(2018, 0, 15, 12, 0),
      Number.NaN,
    ]);
  });
});

describe("wallClockOfInput", () => {
  it("keeps a typed day or zone-less time, and converts a zoned instant to São Paulo", () => {
    const values = [
      wallClockOfInput("2025-11-04"),
      wallClockOfInput("2025-11-04T00:15"),
      wallClockOfInput("2025-11-04T03:15:00Z"),
      wallClockOfInput("2025-11-04T00:15:00-03:00"),
    ];

    expect(values).toEqual([
      "2025-11-04",
      "2025-11-04T00:15:00",
      "2025-11-04T00:15:00",
      "2025-11-04T00:15:00",
    ]);
  });

  it("refuses what is not a date with the expected form", () => {
    expect(() => wallClockOfInput("ontem")).toThrow(/YYYY-MM-DD/);
  });
});

describe("legacyInstant: how schema 1 and 2 read dates (kept for their hashes)", () => {
  it("keeps ISO instants, always with milliseconds and Z", () => {
    const values = [
      legacyInstant("2023-05-10T17:22:00.000Z"),
      legacyInstant("2023-05-10T17:22:00Z"),
      legacyInstant("2023-05-10T17:22Z"),
      legacyInstant("2023-05-10T14:22:00-03:00"),
      legacyInstant("2023-05-10T14:22:00.000-0300"),
      legacyInstant("2023-05-10 17:22:00 Z"),
    ];

    expect(new Set(values)).toEqual(new Set(["2023-05-10T17:22:00.000Z"]));
  });

  it("cuts Elasticsearch's nanoseconds to milliseconds", () => {
    const value = legacyInstant("2024-09-17T13:57:41.819731476Z");

    expect(value).toBe("2024-09-17T13:57:41.819Z");
  });

  it("reads zone-less values as court local time (-03:00)", () => {
    const values = [
      legacyInstant("2023-05-10T14:22:00"),
      legacyInstant("2023-05-10T14:22:00.000"),
      legacyInstant("2023-05-10 14:22:00"),
      legacyInstant("20230510142200"),
      legacyInstant("202305101422"),
      legacyInstant(20230510142200),
    ];

    expect(new Set(values)).toEqual(new Set(["2023-05-10T17:22:00.000Z"]));
  });

  it("reads bare days as local midnight", () => {
    const values = [
      legacyInstant("2023-05-10"),
      legacyInstant("20230510"),
      legacyInstant(20230510),
    ];

    expect(new Set(values)).toEqual(new Set(["2023-05-10T03:00:00.000Z"]));
  });

  it("reads epoch milliseconds, as numbers or digit strings", () => {
    const ms = Date.UTC(2023, 4, 10, 17, 22);

    const values = [legacyInstant(ms), legacyInstant(String(ms))];

    expect(values).toEqual(["2023-05-10T17:22:00.000Z", "2023-05-10T17:22:00.000Z"]);
  });

  it("returns null for empty, unparseable or implausible values instead of throwing", () => {
    const inputs: unknown[] = [
      null,
      undefined,
      "",
      "   ",
      "não informado",
      "2023-02-30",
      "20231345000000",
      "2023-05-10T14:22:00+99:00",
      Number.NaN,
      Number.POSITIVE_INFINITY,
      {},
      [],
      true,
      "99999999999999999999",
    ];

    const values = inputs.map((input) => legacyInstant(input));

    expect(values).toEqual(inputs.map(() => null));
  });

  it("orders correctly as strings, which the movement filters rely on", () => {
    const earlier = legacyInstant("20230510142200");
    const later = legacyInstant("2023-05-10T17:22:01Z");

    expect(earlier !== null && later !== null && earlier < later).toBe(true);
  });
});
