import { describe, expect, it } from "vitest";
import { addDays, type IsoDate } from "../../../src/time/calendar-date.js";
import { type CourtClosure, courtCalendar } from "../../../src/time/court-calendar.js";
import { countingSuspended, dayStatus } from "../../../src/time/judicial-calendar.js";

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

describe("courtCalendar: the national days", () => {
  it("works, rests and suspends on the same days as the national calendar, 2024-2027", () => {
    const calendar = courtCalendar({ court: "tjsp" });
    const differ: IsoDate[] = [];
    for (let day: IsoDate = "2024-01-01"; day <= "2027-12-31"; day = addDays(day, 1)) {
      const national = dayStatus(day);
      const ours = calendar.dayStatus(day);
      if (
        (national.kind === "working") !== (ours.kind === "working") ||
        national.lateOpening !== ours.lateOpening ||
        countingSuspended(day) !== ours.countingSuspended
      ) {
        differ.push(day);
      }
    }

    expect(differ).toEqual([]);
  });

  it("names each reason with its source, the deciding one first", () => {
    const christmas = courtCalendar({ court: "trf3" }).dayStatus("2025-12-25");

    expect(christmas.kind).toBe("holiday");
    expect(christmas.reasons.map((r) => [r.effect, r.name, r.source])).toEqual([
      ["holiday", "Natal", "Lei 662/1949, art. 1º (redação da Lei 10.607/2002)"],
      ["recess", "recesso forense (20/12 a 06/01)", "Res. CNJ 244/2016, art. 1º"],
      ["suspended", "prazos suspensos de 20/12 a 20/01", "CPC, art. 220"],
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
