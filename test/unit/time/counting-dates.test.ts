import { describe, expect, it } from "vitest";
import { countingDates } from "../../../src/time/counting-dates.js";

describe("countingDates", () => {
  it("a Friday availability is published on Monday and counts from Tuesday", () => {
    const dates = countingDates("2025-09-26");

    expect(dates).toEqual({
      availableOn: "2025-09-26",
      publishedOn: "2025-09-29",
      countingStartsOn: "2025-09-30",
      reasons: [],
      estimate: true,
    });
  });

  it("a midweek availability moves one working day each step", () => {
    const dates = countingDates("2025-09-30");

    expect([dates.publishedOn, dates.countingStartsOn]).toEqual(["2025-10-01", "2025-10-02"]);
  });

  it("a weekend availability is published on the next working day", () => {
    const dates = countingDates("2025-09-27");

    expect([dates.publishedOn, dates.countingStartsOn]).toEqual(["2025-09-29", "2025-09-30"]);
  });

  it("the Friday before Carnaval is published on Ash Wednesday and counts from Thursday", () => {
    const dates = countingDates("2026-02-13");

    expect(dates.publishedOn).toBe("2026-02-18");
    expect(dates.countingStartsOn).toBe("2026-02-19");
    expect(dates.reasons).toEqual(["Carnaval (segunda-feira)", "Carnaval (terça-feira)"]);
  });

  it("a count that would start on Ash Wednesday starts on Thursday (CPC art. 224 §1)", () => {
    const dates = countingDates("2026-02-12");

    expect(dates.publishedOn).toBe("2026-02-13");
    expect(dates.countingStartsOn).toBe("2026-02-19");
    expect(dates.reasons).toEqual([
      "Carnaval (segunda-feira)",
      "Carnaval (terça-feira)",
      "Quarta-feira de Cinzas: expediente reduzido (CPC art. 224 §1)",
    ]);
  });

  it("skips Good Friday, Tiradentes and Corpus Christi", () => {
    expect(countingDates("2026-04-02")).toMatchObject({
      publishedOn: "2026-04-06",
      countingStartsOn: "2026-04-07",
      reasons: ["Sexta-feira Santa"],
    });
    expect(countingDates("2026-04-20")).toMatchObject({
      publishedOn: "2026-04-22",
      countingStartsOn: "2026-04-23",
    });
    expect(countingDates("2025-06-18")).toMatchObject({
      publishedOn: "2025-06-20",
      countingStartsOn: "2025-06-23",
      reasons: ["Corpus Christi"],
    });
  });

  it("the last Friday before the recess is published on 7 January and counts from 21 January", () => {
    const dates = countingDates("2025-12-19");

    expect(dates.publishedOn).toBe("2026-01-07");
    expect(dates.countingStartsOn).toBe("2026-01-21");
    expect(dates.reasons).toEqual([
      "recesso forense (20/12 a 06/01)",
      "Natal",
      "Confraternização Universal",
      "prazos suspensos de 20/12 a 20/01 (CPC art. 220)",
    ]);
  });

  it("a publication on the eve of the recess still waits for 21 January", () => {
    const dates = countingDates("2025-12-18");

    expect(dates.publishedOn).toBe("2025-12-19");
    expect(dates.countingStartsOn).toBe("2026-01-21");
  });

  it("publications between 7 and 20 January count from 21 January", () => {
    expect(countingDates("2026-01-07")).toMatchObject({
      publishedOn: "2026-01-08",
      countingStartsOn: "2026-01-21",
    });
    expect(countingDates("2026-01-19")).toMatchObject({
      publishedOn: "2026-01-20",
      countingStartsOn: "2026-01-21",
    });
    expect(countingDates("2026-01-20")).toMatchObject({
      publishedOn: "2026-01-21",
      countingStartsOn: "2026-01-22",
    });
  });

  it("when 21 January is a Sunday the count starts on Monday the 22nd", () => {
    const dates = countingDates("2024-01-10");

    expect([dates.publishedOn, dates.countingStartsOn]).toEqual(["2024-01-11", "2024-01-22"]);
  });

  it("crosses into the next year from the December recess", () => {
    const dates = countingDates("2026-12-18");

    expect([dates.publishedOn, dates.countingStartsOn]).toEqual(["2027-01-07", "2027-01-21"]);
  });

  it("20 November moves dates only from 2024 on", () => {
    expect(countingDates("2023-11-17").publishedOn).toBe("2023-11-20");
    expect(countingDates("2024-11-19")).toMatchObject({
      publishedOn: "2024-11-21",
      countingStartsOn: "2024-11-22",
    });
  });

  it("refuses what is not a calendar date", () => {
    expect(() => countingDates("2025-02-30")).toThrow(/not a calendar date/);
    expect(() => countingDates("30/09/2025")).toThrow(/not a calendar date/);
  });
});
