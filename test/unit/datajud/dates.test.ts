import { describe, expect, it } from "vitest";
import { formatSaoPaulo, normalizeDataJudDate, toDataJudDate } from "../../../src/datajud/dates.js";
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

describe("normalizeDataJudDate", () => {
  it("keeps ISO instants, always with milliseconds and Z", () => {
    const values = [
      normalizeDataJudDate("2023-05-10T17:22:00.000Z"),
      normalizeDataJudDate("2023-05-10T17:22:00Z"),
      normalizeDataJudDate("2023-05-10T17:22Z"),
      normalizeDataJudDate("2023-05-10T14:22:00-03:00"),
      normalizeDataJudDate("2023-05-10T14:22:00.000-0300"),
      normalizeDataJudDate("2023-05-10 17:22:00 Z"),
    ];

    expect(new Set(values)).toEqual(new Set(["2023-05-10T17:22:00.000Z"]));
  });

  it("cuts Elasticsearch's nanoseconds to milliseconds", () => {
    const value = normalizeDataJudDate("2024-09-17T13:57:41.819731476Z");

    expect(value).toBe("2024-09-17T13:57:41.819Z");
  });

  it("reads zone-less values as court local time (-03:00)", () => {
    const values = [
      normalizeDataJudDate("2023-05-10T14:22:00"),
      normalizeDataJudDate("2023-05-10T14:22:00.000"),
      normalizeDataJudDate("2023-05-10 14:22:00"),
      normalizeDataJudDate("20230510142200"),
      normalizeDataJudDate("202305101422"),
      normalizeDataJudDate(20230510142200),
    ];

    expect(new Set(values)).toEqual(new Set(["2023-05-10T17:22:00.000Z"]));
  });

  it("reads bare days as local midnight", () => {
    const values = [
      normalizeDataJudDate("2023-05-10"),
      normalizeDataJudDate("20230510"),
      normalizeDataJudDate(20230510),
    ];

    expect(new Set(values)).toEqual(new Set(["2023-05-10T03:00:00.000Z"]));
  });

  it("reads epoch milliseconds, as numbers or digit strings", () => {
    const ms = Date.UTC(2023, 4, 10, 17, 22);

    const values = [normalizeDataJudDate(ms), normalizeDataJudDate(String(ms))];

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

    const values = inputs.map((input) => normalizeDataJudDate(input));

    expect(values).toEqual(inputs.map(() => null));
  });

  it("orders correctly as strings, which the movement filters rely on", () => {
    const earlier = normalizeDataJudDate("20230510142200");
    const later = normalizeDataJudDate("2023-05-10T17:22:01Z");

    expect(earlier !== null && later !== null && earlier < later).toBe(true);
  });
});

describe("formatSaoPaulo", () => {
  it("shows an instant in São Paulo time as dd/MM/yyyy HH:mm", () => {
    const shown = [
      formatSaoPaulo("2023-05-10T17:22:00.000Z"),
      formatSaoPaulo("2023-01-01T02:05:00Z"),
    ];

    expect(shown).toEqual(["10/05/2023 14:22", "31/12/2022 23:05"]);
  });

  it("shows zone-less and compact values as the local time they are", () => {
    const shown = [formatSaoPaulo("2023-05-10T14:22:00"), formatSaoPaulo("20230510142200")];

    expect(shown).toEqual(["10/05/2023 14:22", "10/05/2023 14:22"]);
  });

  it("uses the daylight-saving offset of its time for old summer dates", () => {
    const shown = formatSaoPaulo("2018-01-15T12:00:00Z");

    expect(shown).toBe("15/01/2018 10:00");
  });

  it("gives back text that is not a date unchanged", () => {
    const shown = formatSaoPaulo("sem data");

    expect(shown).toBe("sem data");
  });
});
