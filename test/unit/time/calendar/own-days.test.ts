import { describe, expect, it } from "vitest";
import { COURT_ACTS, parseCourtActs } from "../../../../src/time/calendar/court-acts.js";
import { IBGE_UF, ufOfMunicipality } from "../../../../src/time/calendar/court-seat.js";
import { CALENDAR_PARTS } from "../../../../src/time/calendar/day-rule.js";
import { CAPITAL_CODES } from "../../../../src/time/calendar/municipal-days.js";
import { courtCalendar } from "../../../../src/time/court-calendar.js";

/*
 * Each court's own days (issue 35), worked out by hand from the acts cited; and the calendar's
 * account of what it does not know, complete kind by kind for every court, seat and year.
 * 2027: 02/07 a Friday, 15/07 a Thursday; 2026: 26/01 a Monday, 08/12 a Tuesday; 2025: 08/12 a
 * Monday.
 */

describe("the STF's vacations and recess (RISTF arts. 78 and 105)", () => {
  const stf = courtCalendar({ court: "stf" });

  it("suspends periods from 02 to 31 January and July every year, the court working", () => {
    for (const date of ["2027-07-02", "2027-07-15", "2027-07-30", "2027-01-11", "2028-01-31"]) {
      expect(stf.dayStatus(date), date).toMatchObject({ kind: "working", countingSuspended: true });
      expect(
        stf.dayStatus(date).reasons.map((r) => r.source),
        date,
      ).toContain("RISTF, arts. 78 e 105");
    }
    expect(stf.dayStatus("2027-07-01").countingSuspended).toBe(false);
    expect(stf.dayStatus("2027-08-02").countingSuspended).toBe(false);
  });

  it("names the yearly portaria where one is held, beside the regimento", () => {
    // Portaria DG STF 82/2025: periods suspended 02 to 31/07/2025.
    expect(stf.dayStatus("2025-07-15").reasons.map((r) => r.source)).toEqual([
      "RISTF, arts. 78 e 105",
      "Portaria DG STF 82/2025",
    ]);
    // Portaria GDG 189/2025: Ash Wednesday 2026 (18/02) opens at 14h.
    expect(stf.dayStatus("2026-02-18")).toMatchObject({ kind: "working", lateOpening: true });
  });

  it("tells its vacations among what it considered", () => {
    expect(stf.considered(2027).note).toContain(
      "férias coletivas dos ministros de 02 a 31/01 e de 02 a 31/07, prazos suspensos (RISTF, arts. 78 e 105)",
    );
  });
});

describe("the STJ in January: the act in force each year (Portaria STJ/GP 941/2025)", () => {
  const stj = courtCalendar({ court: "stj" });

  it("suspends periods from 20/12/2025 to 31/01/2026 as the portaria says", () => {
    expect(stj.dayStatus("2026-01-26")).toMatchObject({ kind: "working", countingSuspended: true });
    expect(stj.dayStatus("2026-01-26").reasons.map((r) => r.source)).toContain(
      "Portaria STJ/GP 941/2025",
    );
    expect(stj.dayStatus("2026-02-02").countingSuspended).toBe(false);
  });

  it("keeps the earlier reading where no portaria of the year is held, and says which is missing", () => {
    // 2027: no portaria held: no period begins or ends in the vacations, none is suspended.
    expect(stj.dayStatus("2027-01-26")).toMatchObject({
      kind: "working",
      countingSuspended: false,
      lateOpening: true,
    });
    const notes2027 = stj.considered(2027).notConsidered.join(" | ");
    expect(notes2027).toContain("a portaria do ano do STJ sobre as férias de janeiro");
    expect(notes2027).toContain("a portaria do ano do STJ sobre as férias de julho");
    const notes2026 = stj.considered(2026).notConsidered.join(" | ");
    expect(notes2026).not.toContain("férias de janeiro");
    expect(notes2026).toContain("a portaria do ano do STJ sobre as férias de julho");
  });
});

describe("the Dia da Justiça, 08/12 (Lei 1.408/1951 art. 5; Decreto-Lei 8.292/1945)", () => {
  it("closes it where the court's act or law keeps it, with the source", () => {
    const source = (court: string, date: string) =>
      courtCalendar({ court }).dayStatus(date).reasons[0]?.source ?? null;
    // Decreto Judiciário TJPR 645/2024 (2025); Provimento CSM 2.813/2025 art. 1 (TJSP 2026).
    expect(courtCalendar({ court: "tjpr" }).dayStatus("2025-12-08").kind).toBe("closed");
    expect(source("tjpr", "2025-12-08")).toBe(
      "Decreto Judiciário TJPR 645/2024 (calendário de 2025)",
    );
    expect(courtCalendar({ court: "tjsp" }).dayStatus("2026-12-08").kind).toBe("closed");
    expect(source("tjsp", "2026-12-08")).toBe("Provimento CSM TJSP 2.813/2025, art. 1º");
    // Lei 5.010/1966 art. 62 IV in the Union's courts.
    expect(source("trf4", "2026-12-08")).toBe("Lei 5.010/1966, art. 62, IV");
  });

  it("follows a court that moved it: the TJPR's of 2026 is on Friday 18/12 (Decreto Judiciário 621/2025)", () => {
    const tjpr = courtCalendar({ court: "tjpr" });
    expect(tjpr.dayStatus("2026-12-08").kind).toBe("working");
    expect(tjpr.dayStatus("2026-12-18")).toMatchObject({ kind: "closed" });
    expect(tjpr.dayStatus("2026-12-18").reasons[0]?.name).toBe(
      "Dia da Justiça (transferido de 08/12)",
    );
  });

  it("names it as not known where no act or law of the court is held, and keeps the day working", () => {
    // No act of the TJBA for 2025 is held; courts have moved it (TJRN 2015 and 2016, TJMS 2021).
    const tjba = courtCalendar({ court: "tjba" });
    expect(tjba.dayStatus("2025-12-08").kind).toBe("working");
    expect(tjba.considered(2025).note).toMatch(/Não considera: .*Dia da Justiça \(08\/12;/u);
    expect(courtCalendar({ court: "tjpr" }).considered(2026).note).not.toMatch(
      /Não considera: .*Dia da Justiça \(08\/12;/u,
    );
  });
});

/** Every DataJud alias the calendar knows, by branch. */
function everyCourt(): string[] {
  const ufs = Object.keys(IBGE_UF);
  return [
    ...ufs.map((uf) => (uf === "df" ? "tjdft" : `tj${uf}`)),
    ...ufs.map((uf) => `tre-${uf}`),
    ...[1, 2, 3, 4, 5, 6].map((n) => `trf${n}`),
    ...Array.from({ length: 24 }, (_, i) => `trt${i + 1}`),
    "tjmmg",
    "tjmrs",
    "tjmsp",
    "stf",
    "stj",
    "tst",
    "tse",
    "stm",
    "tjxx",
  ];
}

describe("what the calendar does not know, complete by construction", () => {
  it("answers every kind of day for every court, seat and year: applied, not known, or not this court's", () => {
    // Every court without a seat and at a seat outside the capitals (Campinas), and each capital
    // with its state's court: every state and municipal table is walked, 2024 to 2028.
    const places: Array<[string, number | undefined]> = [
      ...everyCourt().flatMap(
        (court): Array<[string, number | undefined]> => [
          [court, undefined],
          [court, 3509502],
        ],
      ),
      ...CAPITAL_CODES.map((code): [string, number] => {
        const uf = ufOfMunicipality(code);
        return [uf === "df" ? "tjdft" : `tj${uf}`, code];
      }),
    ];
    const faults: string[] = [];
    for (const [court, municipality] of places) {
      for (const year of [2024, 2025, 2026, 2027, 2028]) {
        const considered = courtCalendar({ court, municipality }).considered(year);
        for (const part of CALENDAR_PARTS) {
          const answer = considered.parts[part];
          const said = answer.considered.length + answer.notConsidered.length;
          if (answer.applies ? said === 0 : answer.why === "")
            faults.push(`${court} ${municipality} ${year} ${part}`);
        }
        // Unforeseen closures (portarias, outages) are never known ahead: never "complete".
        if (!considered.note.includes(" Não considera: ")) faults.push(`${court} ${year} note`);
      }
    }
    expect(places.length).toBeGreaterThan(200);
    expect(faults).toEqual([]);
  });

  it("names the court's yearly calendar as not known unless its act of the year is held", () => {
    const ANNUAL =
      "o calendário do ano do tribunal (feriados forenses, pontos facultativos e suspensões que ele fixa por ato): não está aqui";
    // Provimento CSM TJSP 2.813/2025 is the TJSP's calendar of 2026; none of 2027 is held.
    expect(courtCalendar({ court: "tjsp" }).considered(2027).notConsidered).toContain(ANNUAL);
    expect(courtCalendar({ court: "tjsp" }).considered(2026).notConsidered).not.toContain(ANNUAL);
  });

  it("says a lower court has no vacations, and a superior court whose rule is not held that it is not", () => {
    const parts = (court: string) => courtCalendar({ court }).considered(2026).parts;
    expect(parts("tjsp").vacations).toMatchObject({ applies: false });
    expect(parts("tjsp").vacations.why).toContain("CF, art. 93, XII");
    expect(parts("tse").vacations.notConsidered.join(" ")).toContain("Portaria TSE 481/2017");
    expect(
      parts("stf")
        .vacations.considered.map((c) => c.text)
        .join(" "),
    ).toContain("RISTF");
  });

  it("names only courts the calendar knows in court-acts.json", () => {
    const courts = new Set(everyCourt());
    for (const act of COURT_ACTS) {
      for (const court of act.courts) expect(courts.has(court), `${act.act}: ${court}`).toBe(true);
    }
  });

  it("refuses a damaged court-acts.json, naming where", () => {
    const act = {
      courts: ["tjpr"],
      act: "Decreto Judiciário TJPR 1/2027",
      url: null,
      annualCalendar: false,
      days: [{ from: "2027-02-30", effect: "closed", name: "suspensão do expediente" }],
    };
    expect(() => parseCourtActs({ about: "", acts: [act] })).toThrow(/acts\.0\.days\.0\.from/u);
    const backwards = { ...act, days: [{ ...act.days[0], from: "2027-03-02", to: "2027-03-01" }] };
    expect(() => parseCourtActs({ about: "", acts: [backwards] })).toThrow(
      /ends 2027-03-01 before/u,
    );
  });
});
