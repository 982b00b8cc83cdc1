import Holidays from "date-holidays";
import { describe, expect, it } from "vitest";
import { ufOfMunicipality } from "../../../../src/time/calendar/court-seat.js";
import { CAPITAL_CODES } from "../../../../src/time/calendar/municipal-days.js";
import { LIBRARY_RULES } from "../../../../src/time/calendar/state-days.js";
import type { IsoDate } from "../../../../src/time/calendar-date.js";
import { courtCalendar } from "../../../../src/time/court-calendar.js";

/** kind and first reason's source of `date` in `court`'s calendar at `municipality`. */
function day(court: string, date: IsoDate, municipality?: number): [string, string | null] {
  const status = courtCalendar({ court, municipality }).dayStatus(date);
  return [status.kind, status.reasons[0]?.source ?? null];
}

/*
 * Expected values from the laws cited, worked out on a printed calendar: 09/07/2025 is a
 * Wednesday, 06/03/2026 a Friday, 30/11/2027 a Tuesday, 23/01/2026 a Friday, 23/01/2025 a
 * Thursday, 18/06/2025 a Wednesday, 18/06/2027 a Friday, 13/04/2026 the Monday 8 days after Easter
 * (05/04/2026), 25/01/2027 a Monday, 27/05/2027 Corpus Christi (Easter 28/03/2027 + 60).
 */
describe("state holidays (date-holidays 3.37.0, checked against the states' laws)", () => {
  it.each([
    ["tjsp", "2025-07-09", "holiday", "Lei SP 9.497/1997, art. 1º"],
    ["trt15", "2026-07-09", "holiday", "Lei SP 9.497/1997, art. 1º"],
    ["tre-pb", "2026-08-05", "holiday", "Lei PB 10.601/2015, art. 1º"],
    ["tjap", "2025-05-15", "holiday", "Lei AP 2.213/2017"],
    ["tjto", "2025-08-15", "holiday", "Lei TO 4.509/2024"],
    ["tjes", "2026-04-13", "holiday", "Lei ES 11.010/2019"],
    ["tjpa", "2025-08-15", "holiday", "Lei PA 5.999/1996"],
    ["tjac", "2026-06-15", "holiday", "Lei AC 14/1964 (não transferível: Lei AC 2.126/2009)"],
  ])("%s %s is a %s (%s)", (court, date, kind, source) => {
    expect(day(court, date)).toEqual([kind, source]);
  });

  it("puts Pernambuco's Data Magna on 6 March (Lei PE 16.059/2017), not the first Sunday of March", () => {
    expect(day("tjpe", "2026-03-06")).toEqual(["holiday", "Lei PE 16.059/2017, art. 1º"]);
    expect(day("tjpe", "2027-03-05")).toEqual(["working", null]);
  });

  it("keeps 26/07 working in Paraíba (revoked by Lei PB 10.601/2015) and 24/10 in Goiás (Goiânia's, not the state's)", () => {
    expect(day("tjpb", "2027-07-26")).toEqual(["working", null]);
    expect(day("tjgo", "2025-10-24")).toEqual(["working", null]);
  });

  it("keeps the Federal District's Dia do Evangélico working: the courts do not close on it", () => {
    expect(day("tjdft", "2027-11-30")).toEqual(["working", null]);
    expect(day("trf1", "2027-11-30", 5300108)).toEqual(["working", null]);
  });

  it("moves Alagoas' Dia do Evangélico as Lei AL 7.530/2013 says: a Tuesday to the Monday", () => {
    expect(day("tjal", "2027-11-29")).toEqual([
      "holiday",
      "Lei AL 7.530/2013 (terça antecipa para segunda; quinta adia para sexta)",
    ]);
    expect(day("tjal", "2027-11-30")).toEqual(["working", null]);
    expect(day("tjal", "2026-11-30")[0]).toBe("holiday");
  });

  it("closes a holiday a decree may move only on a Friday, and says so in other years", () => {
    expect(day("tjac", "2026-01-23")[0]).toBe("holiday");
    expect(day("tjac", "2025-01-23")).toEqual(["working", null]);
    expect(courtCalendar({ court: "tjac" }).considered(2025).notConsidered).toContain(
      "feriado estadual Dia do Evangélico (23/1, transferido por decreto a cada ano)",
    );
    expect(day("tjro", "2025-06-18")).toEqual(["working", null]);
    expect(day("tjro", "2027-06-18")[0]).toBe("holiday");
  });

  it("takes a multi-state court's state holidays from its seat, and none without one", () => {
    // TRF1: Manaus (AM) keeps 05/09 (a Friday in 2025); with no seat the state is unknown.
    expect(day("trf1", "2025-09-05", 1302603)[0]).toBe("holiday");
    expect(day("trf1", "2025-09-05")).toEqual(["working", null]);
    expect(courtCalendar({ court: "trf1" }).considered(2025).notConsidered).toContain(
      "feriados estaduais (o estado da sede não é conhecido)",
    );
  });

  it("has a verdict, kept with a source or dropped with a reason, for every state rule of the library, 2025-2027", () => {
    const national = new Set(new Holidays("BR").getHolidays(2026).map((h) => h.rule));
    const unclassified: string[] = [];
    for (const uf of Object.keys(new Holidays().getStates("BR") ?? {})) {
      for (const year of [2025, 2026, 2027]) {
        for (const h of new Holidays("BR", uf).getHolidays(year)) {
          if (h.type !== "public" || national.has(h.rule)) continue;
          if (
            LIBRARY_RULES[uf.toLowerCase() as keyof typeof LIBRARY_RULES]?.[h.rule] === undefined
          ) {
            unclassified.push(`${uf} ${h.rule} ${h.name}`);
          }
        }
      }
    }

    expect(unclassified).toEqual([]);
  });
});

describe("municipal holidays of the capitals", () => {
  it.each([
    ["tjsp", 3550308, "2027-01-25", "Lei municipal SP 14.485/2007, art. 10"],
    ["trf3", 3550308, "2027-05-27", "Lei municipal SP 14.485/2007, art. 10"],
    ["trt4", 4314902, "2026-02-02", "Lei municipal POA 4.453/1978"],
    ["tjce", 2304400, "2026-03-19", "Lei municipal Fortaleza 8.796/2003"],
    ["tjpr", 4106902, "2026-09-08", "Lei municipal Curitiba 3.015/1967"],
    ["tjpe", 2611606, "2025-07-16", "Lei municipal Recife 9.777/1967"],
    ["tjam", 1302603, "2026-06-04", "Lei municipal Manaus 970/2006"],
    ["tjms", 5002704, "2025-06-13", "Lei municipal Campo Grande 3.901/2001"],
  ])("%s at %i: %s is a holiday (%s)", (court, municipality, date, source) => {
    expect(day(court, date, municipality)).toEqual(["holiday", source]);
  });

  it("keeps the capital's days for the capital only, and says what it does not know elsewhere", () => {
    // Campinas (3509502) is no capital; a seat not given is unknown.
    expect(day("tjsp", "2027-01-25", 3509502)).toEqual(["working", null]);
    expect(day("tjsp", "2027-01-25")).toEqual(["working", null]);
    expect(
      courtCalendar({ court: "tjsp", municipality: 3509502 }).considered(2027).notConsidered,
    ).toContain("feriados municipais da sede (IBGE 3509502): só os das capitais estão nos dados");
  });

  it("settles Corpus Christi where it is a municipal holiday, and not elsewhere", () => {
    // Res. TJMG 458/2004: the TJMG closes on Corpus Christi only where it is a municipal holiday.
    expect(day("tjmg", "2026-06-04", 3106200)[0]).toBe("holiday");
    expect(day("tjmg", "2026-06-04", 3170107)).toEqual(["working", null]);
    const saoPaulo = courtCalendar({ court: "tjsp", municipality: 3550308 }).considered(2027);
    expect(saoPaulo.notConsidered.join(" ")).not.toMatch(/Corpus Christi/u);
    expect(saoPaulo.note).toContain(
      "feriados municipais de São Paulo (Lei municipal SP 14.485/2007, art. 10)",
    );
  });

  it("lists one capital per state, each code a municipality of its state", () => {
    const states = CAPITAL_CODES.map((code) => ufOfMunicipality(code));

    expect(new Set(states).size).toBe(27);
    expect(states).not.toContain(null);
  });
});
