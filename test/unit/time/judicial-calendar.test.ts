import { describe, expect, it } from "vitest";
import {
  addDays,
  formatBrazilian,
  parseIsoDate,
  weekday,
} from "../../../src/time/calendar-date.js";
import {
  countingSuspended,
  dayStatus,
  easterSunday,
  holidayList,
  inRecess,
  isWorkingDay,
} from "../../../src/time/judicial-calendar.js";
import { dateInZone } from "../../../src/time/zoned-time.js";

describe("calendar dates", () => {
  it("accepts real days only", () => {
    expect(parseIsoDate("2024-02-29")).toBe("2024-02-29");
    expect(parseIsoDate("2025-02-29")).toBeNull();
    expect(parseIsoDate("2025-13-01")).toBeNull();
    expect(parseIsoDate("2025-1-01")).toBeNull();
    expect(parseIsoDate("2025-01-01T00:00:00Z")).toBeNull();
  });

  it("moves across month and year ends and knows the weekday", () => {
    expect(addDays("2025-12-31", 1)).toBe("2026-01-01");
    expect(addDays("2024-03-01", -1)).toBe("2024-02-29");
    expect(weekday("2025-09-26")).toBe(5);
    expect(formatBrazilian("2025-09-29")).toBe("29/09/2025");
  });

  it("reads an instant as a São Paulo date (UTC-03:00)", () => {
    expect(dateInZone(Date.parse("2025-01-01T02:59:59Z"))).toBe("2024-12-31");
    expect(dateInZone(Date.parse("2025-01-01T03:00:00Z"))).toBe("2025-01-01");
  });
});

describe("Easter and the holidays that follow it", () => {
  it.each([
    [1818, "1818-03-22"],
    [2000, "2000-04-23"],
    [2019, "2019-04-21"],
    [2024, "2024-03-31"],
    [2025, "2025-04-20"],
    [2026, "2026-04-05"],
    [2027, "2027-03-28"],
    [2038, "2038-04-25"],
    [2285, "2285-03-22"],
  ])("Easter %i is %s", (year, date) => {
    expect(easterSunday(year)).toBe(date);
  });

  it("lists 2026's national holidays and nationwide closures", () => {
    expect(holidayList(2026)).toEqual([
      { date: "2026-01-01", name: "Confraternização Universal" },
      { date: "2026-02-16", name: "Carnaval (segunda-feira)" },
      { date: "2026-02-17", name: "Carnaval (terça-feira)" },
      { date: "2026-04-03", name: "Sexta-feira Santa" },
      { date: "2026-04-21", name: "Tiradentes" },
      { date: "2026-05-01", name: "Dia do Trabalho" },
      { date: "2026-06-04", name: "Corpus Christi" },
      { date: "2026-09-07", name: "Independência do Brasil" },
      { date: "2026-10-12", name: "Nossa Senhora Aparecida" },
      { date: "2026-11-02", name: "Finados" },
      { date: "2026-11-15", name: "Proclamação da República" },
      { date: "2026-11-20", name: "Dia Nacional de Zumbi e da Consciência Negra" },
      { date: "2026-12-25", name: "Natal" },
    ]);
  });

  it("has 20 November as a national holiday only from 2024 (Lei 14.759/2023)", () => {
    expect(isWorkingDay("2023-11-20")).toBe(true);
    expect(dayStatus("2024-11-20")).toMatchObject({ kind: "holiday" });
  });

  it("keeps Ash Wednesday a working day that opens late", () => {
    expect(dayStatus("2025-03-05")).toEqual({
      date: "2025-03-05",
      kind: "working",
      reason: null,
      lateOpening: true,
    });
    expect(dayStatus("2025-03-06").lateOpening).toBe(false);
  });
});

describe("recess and suspension", () => {
  it("closes the courts from 20 December to 6 January", () => {
    expect(inRecess("2025-12-19")).toBe(false);
    expect(inRecess("2025-12-20")).toBe(true);
    expect(inRecess("2026-01-06")).toBe(true);
    expect(inRecess("2026-01-07")).toBe(false);
    expect(dayStatus("2025-12-22")).toMatchObject({ kind: "recess" });
    expect(dayStatus("2026-01-07")).toMatchObject({ kind: "working" });
  });

  it("suspends counting from 20 December to 20 January, both included", () => {
    expect(countingSuspended("2025-12-19")).toBe(false);
    expect(countingSuspended("2025-12-20")).toBe(true);
    expect(countingSuspended("2026-01-20")).toBe(true);
    expect(countingSuspended("2026-01-21")).toBe(false);
  });

  it("names holidays before weekends and the recess", () => {
    expect(dayStatus("2026-11-15")).toMatchObject({ kind: "holiday" }); // a Sunday
    expect(dayStatus("2025-12-25")).toMatchObject({ kind: "holiday", reason: "Natal" });
    expect(dayStatus("2025-12-27")).toMatchObject({ kind: "weekend", reason: "sábado" });
  });
});
