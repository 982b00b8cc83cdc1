import { describe, expect, it } from "vitest";
import {
  CalculatorRefusal,
  type CalculatorRequest,
  calculateDeadline,
} from "../../../src/deadlines/calculator.js";
import { calendarsWith } from "../../../src/deadlines/publication-estimate.js";

/*
 * An independent audit of the calculator (issue 35's check, round 3): 20 court scenarios none of
 * the other tests pinned, each worked out BY HAND on a printed calendar of the year from the law
 * and the court's own rules, then asked of the engine. "BD" is a business day (dia útil).
 *
 * Throughout: published on the first business day after the day made available, counted from the
 * first business day after that (Lei 11.419/2006 art. 4 §§3-4; CPC art. 224 §§2-3); civil and
 * juizado periods in business days (CPC art. 219; Lei 9.099/1995 art. 12-A), labour ones too (CLT
 * art. 775); criminal ones in calendar days, ending on a day without court moved to the next
 * business day (CPP art. 798 caput, §§1 and 3; STF Súmula 310 for a Friday publication).
 * The Union's courts (TRFs, TRTs, TST) close on the days of Lei 5.010/1966 art. 62 (I: 20/12 to
 * 06/01; II: Holy Wednesday to Easter Sunday; III: Carnival Monday and Tuesday; IV: 11/08, 01/11,
 * 02/11, 08/12); the states' courts on their state's holidays (Lei 1.408/1951 art. 5).
 */

const calendars = calendarsWith();

const BASE: CalculatorRequest = {
  court: "tjsp",
  municipality: null,
  caseNumber: null,
  availableOn: null,
  countingStartsOn: null,
  amount: 15,
  unit: "days",
  dayKind: null,
  doubledFor: null,
  className: null,
  criminal: false,
};

function ask(patch: Partial<CalculatorRequest>) {
  return calculateDeadline({ ...BASE, ...patch }, calendars);
}

/** [published, counting start, last day] */
function dates(patch: Partial<CalculatorRequest>): [string | null, string, string] {
  const answer = ask(patch);
  return [answer.publishedOn, answer.countingStartsOn, answer.lastDay];
}

function skipped(patch: Partial<CalculatorRequest>): string[] {
  return ask(patch).skippedDays.map((d) => (d.from === d.to ? d.from : `${d.from}..${d.to}`));
}

const FORTALEZA = 2304400;
const RIO = 3304557;
const SAO_PAULO = 3550308;
const PORTO_ALEGRE = 4314902;

describe("labour courts (CLT arts. 775 and 775-A; Lei 5.010/1966 art. 62 by the TRTs' regimentos)", () => {
  it("1. TRT3, 8 days from Tue 16/03/2027 over Holy Week: Thu 01/04/2027", () => {
    // Published Wed 17/03, counted from Thu 18/03: 18, 19, 22, 23 (4); Holy Wednesday 24/03 to
    // Easter Sunday 28/03 closed (art. 62 II); 29, 30, 31/03, 01/04 (8).
    expect(dates({ court: "trt3", availableOn: "2027-03-16", amount: 8 })).toEqual([
      "2027-03-17",
      "2027-03-18",
      "2027-04-01",
    ]);
  });

  it("2. TRT13, 5 days from Mon 22/03/2027: its Holy Wednesday works (RITRT13 art. 207 a): Thu 01/04/2027", () => {
    // Published Tue 23/03, counted from Wed 24/03 (1); 25 and 26/03 closed; 29, 30, 31/03, 01/04.
    const asked = { court: "trt13", availableOn: "2027-03-22", amount: 5 };
    expect(dates(asked)).toEqual(["2027-03-23", "2027-03-24", "2027-04-01"]);
    expect(ask(asked).skippedDays.some((d) => d.from === "2027-03-24")).toBe(false);
  });

  it("3. TRT4, 8 days from Fri 18/12/2026 over the recess and CLT art. 775-A: Mon 01/02/2027", () => {
    // 21/12 to 06/01 closed (art. 62 I): published Thu 07/01/2027; suspended to 20/01 (CLT art.
    // 775-A), counted from Thu 21/01: 21, 22, 25, 26, 27, 28, 29/01, 01/02 (8).
    expect(dates({ court: "trt4", availableOn: "2026-12-18", amount: 8 })).toEqual([
      "2027-01-07",
      "2027-01-21",
      "2027-02-01",
    ]);
  });

  it("4. TRT2, 8 days made available Wed 13/01/2027, inside the suspension but after the recess: Mon 01/02/2027", () => {
    // Published Thu 14/01 (a working day: the recess ended on 06/01); counted from 21/01 as in 3.
    expect(dates({ court: "trt2", availableOn: "2027-01-13", amount: 8 })).toEqual([
      "2027-01-14",
      "2027-01-21",
      "2027-02-01",
    ]);
  });

  it("5. TST, 8 days from Wed 30/06/2027 over its July vacations and 11/08: Thu 12/08/2027", () => {
    // Published Thu 01/07; 02-31/07 suspended (TST Súmula 262 II; LC 35/1979 art. 66 §1): counted
    // from Mon 02/08: 02-06/08 (5), 09, 10 (7); Wed 11/08 closed (art. 62 IV); Thu 12/08 (8).
    expect(dates({ court: "tst", availableOn: "2027-06-30", amount: 8 })).toEqual([
      "2027-07-01",
      "2027-08-02",
      "2027-08-12",
    ]);
  });
});

describe("federal courts", () => {
  it("6. TRF5 by case number 4.05.8300 (Recife), 15 days from Wed 04/03/2026 over Pernambuco's Data Magna: Fri 27/03/2026", () => {
    // Published Thu 05/03; Fri 06/03 is Pernambuco's Data Magna (Lei PE 16.059/2017): counted from
    // Mon 09/03: 09-13 (5), 16-20 (10), 23-27/03 (15). Holy Week 2026 begins on 01/04.
    expect(
      dates({ court: "trf5", caseNumber: "00012345920264058300", availableOn: "2026-03-04" }),
    ).toEqual(["2026-03-05", "2026-03-09", "2026-03-27"]);
  });

  it("7. TRF4, Porto Alegre, 15 days from Fri 07/08/2026 over 11/08: Tue 01/09/2026", () => {
    // Published Mon 10/08; Tue 11/08 closed (art. 62 IV): counted from Wed 12/08: 12-14 (3),
    // 17-21 (8), 24-28 (13), 31/08 (14), 01/09 (15). No RS or Porto Alegre day between.
    expect(dates({ court: "trf4", municipality: PORTO_ALEGRE, availableOn: "2026-08-07" })).toEqual(
      ["2026-08-10", "2026-08-12", "2026-09-01"],
    );
  });

  it("8. TRF6, 15 days from Thu 04/02/2027 over Carnival: Tue 02/03/2027, Ash Wednesday named as not known", () => {
    // Published Fri 05/02; 08 and 09/02 closed (art. 62 III). Ash Wednesday 10/02 is a TRF6 act of
    // the year (the TRF4's, Portaria 100/2025, opens at 13h): not held, so it counts and the
    // answer says so. Counted from Wed 10/02: 10-12 (3), 15-19 (8), 22-26 (13), 01, 02/03 (15).
    // With a late opening (CPC art. 224 §1) the start moves to 11/02 and the law's end is 03/03:
    // ours is earlier, never later, and disclosed.
    const asked = { court: "trf6", availableOn: "2027-02-04" };
    expect(dates(asked)).toEqual(["2027-02-05", "2027-02-10", "2027-03-02"]);
    const notKnown = ask(asked).notKnown.find((n) => n.year === 2027)?.items ?? [];
    expect(notKnown.some((item) => /Quarta-feira de Cinzas/u.test(item))).toBe(true);
  });
});

describe("state courts: each state's own days", () => {
  it("9. TJBA, 15 days from Tue 30/06/2026 over Bahia's 02/07: Thu 23/07/2026", () => {
    // Published Wed 01/07; Thu 02/07 closed (Independência da Bahia, Decreto Judiciário TJBA
    // 1.050/2025): counted from Fri 03/07 (1), 06-10 (6), 13-17 (11), 20-23/07 (15).
    expect(dates({ court: "tjba", availableOn: "2026-06-30" })).toEqual([
      "2026-07-01",
      "2026-07-03",
      "2026-07-23",
    ]);
  });

  it("10. TJCE, Fortaleza, 5 days from Tue 16/03/2027 over São José, the Data Magna and Good Friday: Mon 29/03/2027", () => {
    // Published Wed 17/03, counted from Thu 18/03 (1); Fri 19/03 São José (Lei municipal de
    // Fortaleza 8.796/2003); 22, 23, 24 (4); Thu 25/03 Data Magna do Ceará; Fri 26/03 Good Friday;
    // Mon 29/03 (5).
    expect(
      dates({ court: "tjce", municipality: FORTALEZA, availableOn: "2027-03-16", amount: 5 }),
    ).toEqual(["2027-03-17", "2027-03-18", "2027-03-29"]);
  });

  it("11. the same without the seat: Wed 24/03/2027, earlier, and it says Fortaleza's days were not known", () => {
    // 19/03 is Fortaleza's, not the state's: 18, 19, 22, 23, 24/03. The law's answer for a unit in
    // Fortaleza is 29/03 (scenario 10); ours is earlier and the note names why.
    const asked = { court: "tjce", availableOn: "2027-03-16", amount: 5 };
    expect(dates(asked)).toEqual(["2027-03-17", "2027-03-18", "2027-03-24"]);
    expect(ask(asked).notes).toContain(
      "Sede da unidade não informada: feriados municipais não considerados (informe o município ou o número do processo).",
    );
  });

  it("12. TJRJ, Rio, 15 days from Tue 20/04/2027 over Tiradentes and São Jorge: Fri 14/05/2027", () => {
    // Wed 21/04 Tiradentes: published Thu 22/04; Fri 23/04 São Jorge (Lei RJ 5.198/2008): counted
    // from Mon 26/04: 26-30 (5), 03-07/05 (10), 10-14/05 (15); 01/05 is a Saturday.
    expect(dates({ court: "tjrj", municipality: RIO, availableOn: "2027-04-20" })).toEqual([
      "2027-04-22",
      "2027-04-26",
      "2027-05-14",
    ]);
  });

  it("13. TJSP, 15 days from Tue 29/06/2027 over 09/07 (Lei SP 9.497/1997): Thu 22/07/2027", () => {
    // Published Wed 30/06, counted from Thu 01/07: 01, 02 (2), 05-08 (6), Fri 09/07 closed,
    // 12-16 (11), 19-22/07 (15).
    expect(dates({ court: "tjsp", availableOn: "2027-06-29" })).toEqual([
      "2027-06-30",
      "2027-07-01",
      "2027-07-22",
    ]);
  });

  it("14. TJGO, 15 days from Fri 05/02/2027: published on Ash Wednesday, opening at noon: Wed 03/03/2027", () => {
    // 08 and 09/02 closed (Lei GO 21.268/2022 art. 91 III). Wed 10/02 opens at noon: a business
    // day, so the publication's (Lei 11.419 art. 4 §3; CPC art. 224 §1 moves only a first or last
    // day). Counted from Thu 11/02: 11, 12 (2), 15-19 (7), 22-26 (12), 01-03/03 (15).
    expect(dates({ court: "tjgo", availableOn: "2027-02-05" })).toEqual([
      "2027-02-10",
      "2027-02-11",
      "2027-03-03",
    ]);
  });

  it("15. TJPI, 5 days made available on Fri 16/10/2026 before the Dia do Piauí on Monday: Tue 27/10/2026", () => {
    // Mon 19/10 closed (feriado estadual, Provimento TJPI 102/2024 art. 1º VII): published Tue
    // 20/10, counted from Wed 21/10: 21, 22, 23, 26, 27/10 (5).
    expect(dates({ court: "tjpi", availableOn: "2026-10-16", amount: 5 })).toEqual([
      "2026-10-20",
      "2026-10-21",
      "2026-10-27",
    ]);
  });

  it("16. TJMG, 5 days made available on Fri 12/11/2027 before the Republic on Monday: Tue 23/11/2027", () => {
    // Mon 15/11 national (Lei 662/1949): published Tue 16/11, counted from Wed 17/11: 17, 18, 19
    // (3), 20/11 is a Saturday, 22, 23/11 (5).
    expect(dates({ court: "tjmg", availableOn: "2027-11-12", amount: 5 })).toEqual([
      "2027-11-16",
      "2027-11-17",
      "2027-11-23",
    ]);
  });

  it("17. TJSP, São Paulo, 5 days from Fri 18/12/2026 over the year's turn and the city's 25/01: Thu 28/01/2027", () => {
    // 20/12 to 06/01 recess (Res. CNJ 244/2016): published Thu 07/01/2027; no count before 21/01
    // (CPC art. 220): 21, 22 (2), Mon 25/01 São Paulo's anniversary, 26, 27, 28 (5).
    const asked = { court: "tjsp", municipality: SAO_PAULO, availableOn: "2026-12-18", amount: 5 };
    expect(dates(asked)).toEqual(["2027-01-07", "2027-01-21", "2027-01-28"]);
    expect(skipped(asked)).toContain("2027-01-25");
  });

  it("18. TJSP, 5 days from Fri 27/11/2026: the last day falls in the Provimento CSM 2.813/2025's closure: Wed 09/12/2026", () => {
    // Published Mon 30/11, counted from Tue 01/12: 01-04 (4); Mon 07/12 suspended and Tue 08/12
    // Dia da Justiça (Provimento CSM 2.813/2025 art. 1º); Wed 09/12 (5).
    const asked = { court: "tjsp", availableOn: "2026-11-27", amount: 5 };
    expect(dates(asked)).toEqual(["2026-11-30", "2026-12-01", "2026-12-09"]);
    expect(skipped(asked)).toEqual(["2026-12-07", "2026-12-08"]);
  });
});

describe("juizados, doubled periods and hours", () => {
  it("19. TJBA Juizado: the recurso inominado's 10 days (Lei 9.099 arts. 42 and 12-A) from Mon 10/08/2026: Tue 25/08/2026", () => {
    // Published Tue 11/08, counted from Wed 12/08: 12-14 (3), 17-21 (8), 24, 25/08 (10).
    expect(
      dates({
        court: "tjba",
        availableOn: "2026-08-10",
        amount: 10,
        className: "Procedimento do Juizado Especial Cível",
      }),
    ).toEqual(["2026-08-11", "2026-08-12", "2026-08-25"]);
  });

  it("20. TJRJ, Rio, the Defensoria's 15 days doubled (CPC art. 186) from Tue 04/08/2026: Thu 17/09/2026", () => {
    // 30 BD from Thu 06/08 (published Wed 05/08): 06, 07 (2), 10-14 (7), 17-21 (12), 24-28 (17),
    // 31/08 (18), 01-04/09 (22), Mon 07/09 national, 08-11 (26), 14-17/09 (30).
    expect(
      dates({
        court: "tjrj",
        municipality: RIO,
        availableOn: "2026-08-04",
        doubledFor: "defensoria",
      }),
    ).toEqual(["2026-08-05", "2026-08-06", "2026-09-17"]);
  });

  it("21. TJSP, 48 hours from a Friday publication: from Monday's first minute to the end of Tue 15/09/2026", () => {
    // Made available Thu 10/09, published Fri 11/09; the period begins on the next business day,
    // Mon 14/09 (Lei 11.419 art. 4 §4), and 48 hours counted minute by minute (CC art. 132 §4)
    // end with Tue 15/09.
    expect(dates({ court: "tjsp", availableOn: "2026-09-10", amount: 48, unit: "hours" })).toEqual([
      "2026-09-11",
      "2026-09-14",
      "2026-09-15",
    ]);
  });
});

describe("criminal periods (CPP art. 798)", () => {
  it("22. TJMG, 5 days from Mon 02/03/2026 end on a Sunday: moved to Mon 09/03/2026 (§3)", () => {
    // Published Tue 03/03, counted from Wed 04/03: 04, 05, 06, 07, 08 (Sunday) -> Mon 09/03.
    expect(dates({ court: "tjmg", availableOn: "2026-03-02", amount: 5, criminal: true })).toEqual([
      "2026-03-03",
      "2026-03-04",
      "2026-03-09",
    ]);
  });

  it("23. TJRS, 5 days published Fri 17/09/2027, Monday the state's 20/09: Mon 27/09/2027", () => {
    // Súmula 310 STF: a Friday publication starts on Monday, "salvo se não houver expediente":
    // Mon 20/09 is the Revolução Farroupilha (Lei RS 4.850/1964), so Tue 21/09: 21, 22, 23, 24,
    // 25 (Saturday) -> Mon 27/09.
    expect(dates({ court: "tjrs", availableOn: "2027-09-16", amount: 5, criminal: true })).toEqual([
      "2027-09-17",
      "2027-09-21",
      "2027-09-27",
    ]);
  });

  it("24. TRF3, 5 days from Mon 14/12/2026: with a defendant in custody the end on Sun 20/12 moves past the federal recess to Thu 07/01/2027; free, 21/01", () => {
    // Published Tue 15/12, counted from Wed 16/12: 16-20/12 (5), Sunday; 21/12 to 06/01 are
    // holidays of the federal courts (Lei 5.010 art. 62 I): Thu 07/01/2027 (CPP art. 798 §3). A
    // free defendant's period is suspended from 20/12 to 20/01 (CPP art. 798-A): 16-19/12 (4),
    // 21/01 (5). Custody unknown: the earlier date, the later as the alternative.
    const answer = ask({ court: "trf3", availableOn: "2026-12-14", amount: 5, criminal: true });
    expect([answer.publishedOn, answer.countingStartsOn, answer.lastDay]).toEqual([
      "2026-12-15",
      "2026-12-16",
      "2027-01-07",
    ]);
    expect(answer.alternatives.map((a) => a.lastDay)).toEqual(["2027-01-21"]);
  });

  it("25. the MP and the Fazenda get no doubled period in a criminal case: refused; the Defensoria's is doubled", () => {
    // CPC arts. 180 and 183 do not reach the CPP (STF, HC 120.275/PR, 1ª Turma, 15/05/2018; STJ,
    // AgRg no HC 392.868/MT, DJe 15/02/2018); the Defensoria's doubling is LC 80/1994's (arts.
    // 44 I, 128 I). Made available Mon 03/08/2026, published Tue 04/08, counted from Wed 05/08:
    // the MP's 5 days end Sun 09/08 -> Mon 10/08; the engine gave 10 days, to Fri 14/08 (late).
    // The Defensoria's 10 days: 05-14/08, Fri 14/08.
    const criminal = { court: "tjsp", availableOn: "2026-08-03", amount: 5, criminal: true };
    expect(() => ask({ ...criminal, doubledFor: "mp" })).toThrow(CalculatorRefusal);
    expect(() =>
      ask({
        ...criminal,
        criminal: false,
        className: "Ação Penal - Procedimento Ordinário",
        doubledFor: "fazenda",
      }),
    ).toThrow(/criminal case/u);
    expect(dates(criminal)).toEqual(["2026-08-04", "2026-08-05", "2026-08-10"]);
    expect(dates({ ...criminal, doubledFor: "defensoria" })).toEqual([
      "2026-08-04",
      "2026-08-05",
      "2026-08-14",
    ]);
  });
});

describe("electoral courts", () => {
  it("no doubled period in an electoral case, as the publication estimates read it; the simple period in calendar days", () => {
    // LC 64/1990 art. 16 (periods peremptory and continuous) and Res. TSE 23.478/2016 arts. 2º
    // and 7º (the CPC only where compatible; no business days): the calculator used to double
    // the MP's and the Fazenda's periods in a TRE where the estimates never do (later dates).
    // TRE-SP, 3 days made available Mon 03/08/2026: published Tue 04/08, counted from Wed 05/08,
    // calendar days: 05, 06, 07/08 -> Fri 07/08.
    const electoral = { court: "tre-sp", availableOn: "2026-08-03", amount: 3 };
    for (const doubledFor of ["mp", "fazenda", "defensoria"] as const) {
      expect(() => ask({ ...electoral, doubledFor })).toThrow(/electoral case/u);
    }
    expect(() => ask({ ...electoral, court: "tse", doubledFor: "mp" })).toThrow(CalculatorRefusal);
    expect(dates(electoral)).toEqual(["2026-08-04", "2026-08-05", "2026-08-07"]);
  });
});

describe("superior courts over the year's turn, and a last day opening late", () => {
  it("26. STF, 5 days from Tue 15/12/2026 over the recess and the January vacations: Wed 03/02/2027", () => {
    // Published Wed 16/12, counted from Thu 17/12: 17, 18 (2); no period runs in the recess
    // (20/12 to 01/01) nor in the vacations (02 to 31/01) (RISTF arts. 78 and 105): Mon 01/02,
    // 02, 03/02 (5).
    expect(dates({ court: "stf", availableOn: "2026-12-15", amount: 5 })).toEqual([
      "2026-12-16",
      "2026-12-17",
      "2027-02-03",
    ]);
  });

  it("27. TST, 8 days from Tue 15/12/2026 over the recess, the vacations and Carnival: Wed 10/02/2027", () => {
    // Published Wed 16/12, counted from Thu 17/12: 17, 18 (2); recess and January vacations
    // suspend (TST Súmula 262 II): 01-05/02 (7); 08 and 09/02 closed (Lei 5.010 art. 62 III);
    // Wed 10/02 (8). Ash Wednesday's hours are a TST act of the year: not held, named as not known.
    expect(dates({ court: "tst", availableOn: "2026-12-15", amount: 8 })).toEqual([
      "2026-12-16",
      "2026-12-17",
      "2027-02-10",
    ]);
  });

  it("28. TJGO, 5 days from Fri 29/01/2027 whose last day is Ash Wednesday, opening at noon: moved to Thu 11/02/2027", () => {
    // Published Mon 01/02, counted from Tue 02/02: 02-05 (4); 08 and 09/02 closed; Wed 10/02 (5)
    // opens at noon (Lei GO 21.268/2022 art. 91 III), so the end moves to Thu 11/02 (CPC art. 224
    // §1: "encerrado antes ou iniciado depois da hora normal").
    expect(dates({ court: "tjgo", availableOn: "2027-01-29", amount: 5 })).toEqual([
      "2027-02-01",
      "2027-02-02",
      "2027-02-11",
    ]);
  });
});
