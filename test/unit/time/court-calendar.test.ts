import { describe, expect, it } from "vitest";
import { addDays, type IsoDate } from "../../../src/time/calendar-date.js";
import {
  type CourtClosure,
  type CourtDayStatus,
  calendarBook,
  courtCalendar,
} from "../../../src/time/court-calendar.js";

function closure(overrides: Partial<CourtClosure>): CourtClosure {
  return {
    court: "tjsp",
    municipalities: [],
    from: "2025-10-06",
    to: "2025-10-06",
    effect: "closed",
    reason: "indisponibilidade do sistema",
    source: "Comunicado TJSP 1/2025",
    url: null,
    ...overrides,
  };
}

/** kind, and the first reason's source, of `date` in `court`'s calendar. */
function day(court: string, date: IsoDate, municipality?: number): [string, string | null] {
  const status = courtCalendar({ court, municipality }).dayStatus(date);
  return [status.kind, status.reasons[0]?.source ?? null];
}

/*
 * Expected values worked out by hand from the laws cited, not from the calendar. Easter: 20/04/2025,
 * 05/04/2026, 28/03/2027; so Carnival Monday and Tuesday 03-04/03/2025, 16-17/02/2026,
 * 08-09/02/2027; Holy Wednesday 16/04/2025, 01/04/2026, 24/03/2027.
 */
describe("courtCalendar: days every court keeps", () => {
  it.each([
    ["tjsp", "2025-04-21", "holiday", "Lei 662/1949, art. 1º (redação da Lei 10.607/2002)"],
    ["trt2", "2026-10-12", "holiday", "Lei 6.802/1980, art. 1º"],
    ["tre-ba", "2026-11-20", "holiday", "Lei 14.759/2023, art. 1º"],
    // Lei 1.408/1951 art. 5: no court works on Carnival Tuesday or Good Friday.
    ["tjrs", "2026-02-17", "holiday", "Lei 1.408/1951, art. 5º"],
    ["tjmg", "2027-03-26", "holiday", "Lei 1.408/1951, art. 5º; Lei 9.093/1995, art. 2º"],
    ["tjsp", "2026-01-03", "weekend", "CPC, art. 216"],
  ])("%s %s is %s (%s)", (court, date, kind, source) => {
    expect(day(court, date)).toEqual([kind, source]);
  });

  it("had 20 November as a working day before Lei 14.759/2023 (2024 on)", () => {
    expect(day("tjsp", "2023-11-20")).toEqual(["working", null]);
  });

  it("keeps the states' courts in the CNJ's recess and suspends deadlines to 20 January", () => {
    const tjsp = courtCalendar({ court: "tjsp" });

    expect(tjsp.dayStatus("2025-12-22")).toMatchObject({ kind: "recess", countingSuspended: true });
    expect(tjsp.dayStatus("2026-01-07")).toMatchObject({
      kind: "working",
      countingSuspended: true,
    });
    expect(tjsp.dayStatus("2026-01-21")).toMatchObject({
      kind: "working",
      countingSuspended: false,
    });
    expect(tjsp.dayStatus("2025-12-22").reasons.map((r) => r.source)).toEqual([
      "Res. CNJ 244/2016, art. 1º",
      "CPC, art. 220",
    ]);
  });

  it("suspends the labour courts' deadlines by CLT art. 775-A", () => {
    expect(courtCalendar({ court: "trt2" }).dayStatus("2026-01-12").reasons).toMatchObject([
      { effect: "suspended", source: "CLT, art. 775-A" },
    ]);
  });

  it("names Christmas first, then the recess and the suspension", () => {
    const christmas = courtCalendar({ court: "tjsp" }).dayStatus("2025-12-25");

    expect(christmas.kind).toBe("holiday");
    expect(christmas.reasons.map((r) => [r.effect, r.name])).toEqual([
      ["holiday", "Natal"],
      ["recess", "recesso forense (20/12 a 06/01)"],
      ["suspended", "prazos suspensos de 20/12 a 20/01"],
    ]);
  });

  it("keeps a plain working day without reasons", () => {
    expect(courtCalendar({ court: "stj" }).dayStatus("2025-10-08")).toEqual({
      date: "2025-10-08",
      kind: "working",
      lateOpening: false,
      countingSuspended: false,
      reasons: [],
    });
  });

  it("refuses a date that is not one", () => {
    expect(() => courtCalendar({ court: "tjsp" }).dayStatus("2025-02-30")).toThrow(
      /not a calendar date/,
    );
  });
});

describe("courtCalendar: the Union's courts (Lei 5.010/1966 art. 62)", () => {
  it.each([
    ["trf3", "2026-04-01", "Lei 5.010/1966, art. 62, II"],
    ["trf1", "2026-04-02", "Lei 5.010/1966, art. 62, II"],
    ["trt2", "2025-04-16", "Lei 5.010/1966, art. 62, II (regimentos dos TRTs)"],
    ["tre-sp", "2026-08-11", "Lei 5.010/1966, art. 62, IV c/c Res. TSE 18.154/1992"],
    ["stj", "2027-02-08", "Lei 5.010/1966, art. 62, III"],
    ["tst", "2025-11-01", "Lei 5.010/1966, art. 62, IV"],
    ["trf5", "2025-12-08", "Lei 5.010/1966, art. 62, IV"],
    ["trf4", "2026-01-05", "Lei 5.010/1966, art. 62, I"],
  ])("%s is closed on %s (%s)", (court, date, source) => {
    expect(day(court, date)).toEqual(["holiday", source]);
  });

  it.each([
    // Lei 5.010 binds the Union's courts, not the states': their Holy Wednesday, 11/08 and 08/12 work.
    ["tjsp", "2026-04-01"],
    ["tjrj", "2026-08-11"],
    ["tjba", "2025-12-08"],
    ["tjmsp", "2025-04-16"],
    // TRT13's RI art. 207 a: only Holy Thursday and Friday.
    ["trt13", "2026-04-01"],
  ])("%s works on %s", (court, date) => {
    expect(day(court, date)).toEqual(["working", null]);
  });

  it("makes the recess a holiday in the Union's courts, with the suspension", () => {
    expect(courtCalendar({ court: "trf1" }).dayStatus("2025-12-22")).toMatchObject({
      kind: "holiday",
      countingSuspended: true,
    });
    expect(day("trt13", "2026-04-02")[0]).toBe("holiday");
  });

  it("suspends the TST's deadlines and keeps the STJ's from beginning or ending in the ministers' holidays", () => {
    // LOMAN art. 66 §1: 2-31 January and 2-31 July; 15/07/2026 and 26/01/2026 are weekdays.
    expect(courtCalendar({ court: "tst" }).dayStatus("2026-07-15")).toMatchObject({
      kind: "working",
      countingSuspended: true,
      lateOpening: false,
    });
    expect(courtCalendar({ court: "stj" }).dayStatus("2026-07-15")).toMatchObject({
      kind: "working",
      countingSuspended: false,
      lateOpening: true,
    });
    // 2027: no portaria of the year held (2026's, Portaria STJ/GP 941/2025, suspends: own-days.test.ts).
    expect(courtCalendar({ court: "stj" }).dayStatus("2027-01-26")).toMatchObject({
      lateOpening: true,
      countingSuspended: false,
    });
    expect(courtCalendar({ court: "stj" }).dayStatus("2026-08-03").lateOpening).toBe(false);
    expect(courtCalendar({ court: "trf3" }).dayStatus("2026-07-15").lateOpening).toBe(false);
  });
});

describe("courtCalendar: days left to each court's act", () => {
  it("keeps Carnival Monday, Ash Wednesday and Corpus Christi working where no act is known, and says so", () => {
    // No act of the TJPI is known here.
    const tjpi = courtCalendar({ court: "tjpi" });

    expect(tjpi.dayStatus("2026-02-16").kind).toBe("working");
    expect(tjpi.dayStatus("2026-02-18")).toMatchObject({ kind: "working", lateOpening: false });
    expect(tjpi.dayStatus("2026-06-04").kind).toBe("working");
    expect(tjpi.considered(2026).notConsidered).toEqual(
      expect.arrayContaining([
        "segunda-feira de Carnaval (ato do tribunal)",
        "Quarta-feira de Cinzas (expediente reduzido ou sem expediente por ato do tribunal)",
        "quarta e quinta-feira da Semana Santa (ato do tribunal)",
        "Corpus Christi onde não é feriado municipal conhecido (ato do tribunal)",
      ]),
    );
  });

  it.each([
    // Provimento CSM TJSP 2.813/2025 art. 1: 16-17/02, 02/04, 04/06 and 05/06/2026 without expediente.
    ["tjsp", "2026-02-16", "closed", "Provimento CSM TJSP 2.813/2025, art. 1º"],
    ["tjsp", "2026-06-05", "closed", "Provimento CSM TJSP 2.813/2025, art. 1º"],
    ["tjsp", "2027-02-08", "working", null],
    // Res. TJMG 458/2004 art. 1 III: Carnival Monday to Ash Wednesday, every year.
    ["tjmg", "2027-02-10", "closed", "Res. TJMG 458/2004, art. 1º, III"],
    // Lei RJ 6.956/2015 art. 66 IV: Holy Thursday; the Wednesday works.
    ["tjrj", "2026-04-02", "closed", "Lei estadual RJ 6.956/2015 (LODJ), art. 66, IV"],
    ["tjrj", "2026-04-01", "working", null],
    // Lei 11.697/2008 art. 60 §3: the TJDFT keeps the Union's Holy Week and (III) "os dias 11 de
    // agosto, 1º e 2 de novembro e 8 de dezembro": 01/11/2027 is a Monday, 08/12/2026 a Tuesday.
    ["tjdft", "2027-03-24", "closed", "Lei 11.697/2008 (LOJDFT), art. 60"],
    ["tjdft", "2026-08-11", "closed", "Lei 11.697/2008 (LOJDFT), art. 60, §3º, III"],
    ["tjdft", "2027-11-01", "closed", "Lei 11.697/2008 (LOJDFT), art. 60, §3º, III"],
    ["tjdft", "2026-12-08", "closed", "Lei 11.697/2008 (LOJDFT), art. 60, §3º, III"],
    // Portaria Conjunta TJDFT 1/2025: Corpus Christi and the Friday after.
    ["tjdft", "2025-06-20", "closed", "Portaria Conjunta TJDFT 1/2025"],
    // Portaria TRE-SP 261/2025: Corpus Christi 2026 in the whole TRE-SP.
    ["tre-sp", "2026-06-04", "closed", "Portaria TRE-SP 261/2025, art. 1º"],
    // Portaria STJ/GDG 1.010/2025.
    ["stj", "2026-06-04", "closed", "Portaria STJ/GDG 1.010/2025"],
    ["stj", "2027-05-27", "working", null],
  ])("%s %s is %s by its act (%s)", (court, date, kind, source) => {
    expect(day(court, date)).toEqual([kind, source]);
  });

  it("opens late where the act says so, and not where it says the day is normal", () => {
    // Lei GO 21.268/2022 art. 91 III: Ash Wednesday closed until noon; Res. GP TJSC 13/2022.
    expect(courtCalendar({ court: "tjgo" }).dayStatus("2026-02-18")).toMatchObject({
      kind: "working",
      lateOpening: true,
    });
    expect(courtCalendar({ court: "tjsc" }).dayStatus("2026-02-18")).toMatchObject({
      kind: "working",
      lateOpening: false,
    });
    expect(courtCalendar({ court: "tjsc" }).considered(2026).notConsidered).not.toContain(
      "Quarta-feira de Cinzas (expediente reduzido ou sem expediente por ato do tribunal)",
    );
    expect(courtCalendar({ court: "trf4" }).dayStatus("2025-03-05").lateOpening).toBe(true);
    expect(courtCalendar({ court: "trf4" }).dayStatus("2026-02-18").lateOpening).toBe(false);
  });

  it("names a day closed by a law and an act once, by the law", () => {
    expect(courtCalendar({ court: "tjsc" }).dayStatus("2026-02-17").reasons).toEqual([
      expect.objectContaining({
        name: "Carnaval (terça-feira)",
        source: "Lei 1.408/1951, art. 5º",
      }),
    ]);
  });

  it("tells an unknown court that only the national calendar applies", () => {
    const unknown = courtCalendar({ court: "tjxx" });

    expect(unknown.dayStatus("2026-08-11").kind).toBe("working");
    expect(unknown.considered(2026).note).toContain("o tribunal não é reconhecido");
  });
});

describe("courtCalendar: configured closures", () => {
  it("closes, suspends or opens late only the configured court's days", () => {
    const closures = [
      closure({ from: "2025-10-06", to: "2025-10-07" }),
      closure({ from: "2025-10-08", to: "2025-10-08", effect: "suspended" }),
      closure({ from: "2025-10-09", to: "2025-10-09", effect: "late-opening" }),
    ];
    const tjsp = courtCalendar({ court: "TJSP", municipality: 3550308 }, closures);
    const tjrj = courtCalendar({ court: "tjrj" }, closures);

    expect(tjsp.dayStatus("2025-10-06")).toMatchObject({ kind: "closed" });
    expect(tjsp.dayStatus("2025-10-07").reasons).toEqual([
      {
        effect: "closed",
        name: "indisponibilidade do sistema",
        source: "Comunicado TJSP 1/2025",
        url: null,
        scope: "configuration",
      },
    ]);
    expect(tjsp.dayStatus("2025-10-08")).toMatchObject({
      kind: "working",
      countingSuspended: true,
    });
    expect(tjsp.dayStatus("2025-10-09")).toMatchObject({ kind: "working", lateOpening: true });
    expect(tjsp.dayStatus("2025-10-10").kind).toBe("working");
    expect(tjrj.dayStatus("2025-10-06").kind).toBe("working");
  });

  it("closes a seat's closure at that seat only, and not where the seat is unknown", () => {
    const closures = [closure({ municipalities: [3509502] })];

    expect(
      courtCalendar({ court: "tjsp", municipality: 3509502 }, closures).dayStatus("2025-10-06")
        .kind,
    ).toBe("closed");
    expect(
      courtCalendar({ court: "tjsp", municipality: 3550308 }, closures).dayStatus("2025-10-06")
        .kind,
    ).toBe("working");
    expect(
      courtCalendar({ court: "tjsp", municipality: 0 }, closures).dayStatus("2025-10-06").kind,
    ).toBe("working");
  });

  it("lists the year's configured closures among what it considered", () => {
    const closures = [closure({})];

    expect(courtCalendar({ court: "tjsp" }, closures).considered(2025).note).toContain(
      "indisponibilidade do sistema (Comunicado TJSP 1/2025)",
    );
    expect(courtCalendar({ court: "tjsp" }, closures).considered(2026).note).not.toContain(
      "Comunicado",
    );
  });
});

/** A small deterministic generator (mulberry32), so a failure names a case that repeats. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What a day allows: being a publication day, counting, beginning or ending a count. */
function openness(status: CourtDayStatus): [boolean, boolean, boolean] {
  const works = status.kind === "working";
  const counts = works && !status.countingSuspended;
  return [works, counts, counts && !status.lateOpening];
}

describe("courtCalendar: a closure never opens a day", () => {
  it("adding a closure of any effect makes no day of 2025-2027 more open, in any court", () => {
    const random = generator(25);
    const courts = ["tjsp", "trf3", "trt2", "tre-sp", "stj", "tst", "tjmsp", "trt13"];
    const effects = ["closed", "suspended", "late-opening"] as const;
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const randomDay = (): IsoDate => addDays("2025-01-01", Math.floor(random() * 1095));
    const failures: string[] = [];

    for (let round = 0; round < 60; round++) {
      const court = pick(courts);
      const before = Array.from({ length: Math.floor(random() * 3) }, () => {
        const from = randomDay();
        return closure({
          court,
          from,
          to: addDays(from, Math.floor(random() * 5)),
          effect: pick(effects),
        });
      });
      const from = randomDay();
      const added = closure({
        court,
        from,
        to: addDays(from, Math.floor(random() * 10)),
        effect: pick(effects),
      });
      const without = courtCalendar({ court }, before);
      const withIt = courtCalendar({ court }, [...before, added]);
      for (let date = addDays(from, -3); date <= addDays(added.to, 3); date = addDays(date, 1)) {
        const was = openness(without.dayStatus(date));
        const is = openness(withIt.dayStatus(date));
        if (is.some((open, i) => open && !was[i]))
          failures.push(`${court} ${date} +${added.effect}`);
      }
    }

    expect(failures).toEqual([]);
  });
});

describe("calendarBook", () => {
  it("builds one calendar per court and seat, each with the closures of its court", () => {
    const book = calendarBook([closure({ court: "tjsp", from: "2026-03-10", to: "2026-03-10" })]);

    const first = book({ court: "TJSP", municipality: 3550308 });

    expect(book({ court: "tjsp", municipality: 3550308 })).toBe(first);
    expect(book({ court: "tjsp" })).not.toBe(first);
    expect(first.dayStatus("2026-03-10").kind).toBe("closed");
    expect(book({ court: "tjrj" }).dayStatus("2026-03-10").kind).toBe("working");
  });
});

describe("courtCalendar: one trap across the branches", () => {
  // Holy Thursday, 02/04/2026 (Easter 05/04/2026).
  it.each([
    ["tjsp", "closed", "Provimento CSM TJSP 2.813/2025, art. 1º"], // Endoenças
    ["tjrj", "closed", "Lei estadual RJ 6.956/2015 (LODJ), art. 66, IV"],
    // Decreto Judiciário TJPR 621/2025 art. 2: "dia 2 (quinta-feira) – Quinta-feira Santa".
    ["tjpr", "closed", "Decreto Judiciário TJPR 621/2025 (calendário de 2026)"],
    ["tjpi", "working", null], // no act of the TJPI known here: the earlier answer
    ["trf4", "holiday", "Lei 5.010/1966, art. 62, II"],
    ["trt9", "holiday", "Lei 5.010/1966, art. 62, II (regimentos dos TRTs)"],
    ["tre-pr", "holiday", "Lei 5.010/1966, art. 62, II c/c Res. TSE 18.154/1992"],
    ["tst", "holiday", "Lei 5.010/1966, art. 62, II"],
  ])("%s on Holy Thursday 2026 is %s (%s)", (court, kind, source) => {
    expect(day(court, "2026-04-02")).toEqual([kind, source]);
  });

  it("lists what a labour court at São Paulo took into account in 2026, layer by layer", () => {
    const considered = courtCalendar({ court: "trt2", municipality: 3550308 }).considered(2026);

    expect(considered.considered.map((c) => c.scope)).toEqual([
      "national",
      "national",
      "national",
      "branch",
      "state",
      "municipal",
    ]);
    expect(considered.note).toMatch(/^Considera: sábados e domingos \(CPC, art\. 216\)/u);
    expect(considered.note).toContain("suspensão dos prazos de 20/12 a 20/01 (CLT, art. 775-A)");
    expect(considered.note).toContain("feriados estaduais de SP (Lei SP 9.497/1997, art. 1º;");
    expect(considered.note).toContain(
      "feriados municipais de São Paulo (Lei municipal SP 14.485/2007, art. 10)",
    );
    expect(considered.notConsidered).toContain(
      "Quarta-feira de Cinzas (expediente reduzido ou sem expediente por ato do tribunal)",
    );
    expect(considered.note).not.toMatch(/Corpus Christi/u);
  });
});

describe("the Dia do Servidor Público, moved by each court's yearly act", () => {
  const notes = (court: string, year: number) => courtCalendar({ court }).considered(year).note;

  it("is named among what the calendar does not know where no act of that year is held", () => {
    // TRF3 2025: moved to Fri 31/10 (B1 in the deadline scenarios), no act held here.
    expect(notes("trf3", 2025)).toMatch(/Não considera: .*Dia do Servidor Público/u);
    expect(notes("tjsp", 2025)).toMatch(/Não considera: .*Dia do Servidor Público/u);
    expect(notes("tjrj", 2026)).toMatch(/Não considera: .*Dia do Servidor Público/u);
  });

  it("is settled by an act that names it, on 28/10 or moved", () => {
    // Provimento CSM TJSP 2.813/2025 (28/10/2026); Portaria TSE 916/2024 (31/10/2025);
    // Portaria Conjunta TJDFT 1/2025 (31/10/2025).
    for (const [court, year] of [
      ["tjsp", 2026],
      ["tse", 2025],
      ["tjdft", 2025],
    ] as const) {
      expect(notes(court, year), `${court} ${year}`).not.toMatch(
        /Dia do Servidor Público \(28\/10;/u,
      );
    }
    expect(courtCalendar({ court: "tse" }).dayStatus("2025-10-31").kind).toBe("closed");
  });
});
