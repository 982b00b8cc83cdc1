import { describe, expect, it } from "vitest";
import { datedPeriods } from "../../../src/summarize/act-deadlines.js";
import type { ActPeriod } from "../../../src/summarize/act-periods.js";
import type { IsoDate } from "../../../src/time/calendar-date.js";
import { courtCalendar } from "../../../src/time/court-calendar.js";

/*
 * Dates worked by hand on TJSP's calendar, September-October 2025: no holiday or closure between
 * Mon 08/09 and Fri 03/10 (07/09 is a Sunday; 12/10 comes after). Dias úteis: CPC art. 219.
 */
const COUNTING = {
  start: "2025-09-08" as IsoDate,
  calendar: courtCalendar({ court: "tjsp" }, []),
  procedure: "civil" as const,
};

function period(patch: Partial<ActPeriod>): ActPeriod {
  return {
    name: "prazo",
    days: 5,
    counting: "business",
    article: "CPC, art. 219",
    from: "da intimação",
    ...patch,
  };
}

describe("datedPeriods", () => {
  it("counts a period from the publication's start, and a chained one from the day after its end", () => {
    const { periods } = datedPeriods(
      [
        period({ name: "pagar", days: 5 }),
        period({ name: "impugnar", days: 15, startsAfterPrevious: true }),
      ],
      COUNTING,
    );

    // 5 dias úteis: 08, 09, 10, 11, 12/09. Then from Sat 13/09: 15/09 is the first, and 15 dias
    // úteis are 15-19/09, 22-26/09, 29/09-03/10.
    expect(periods.map((p) => [p.name, p.countingStartsOn, p.lastDay, p.note])).toEqual([
      ["pagar", "2025-09-08", "2025-09-12", null],
      ["impugnar", "2025-09-15", "2025-10-03", null],
    ]);
  });

  it("names without a date what no publication starts, what has no length, and what follows an undated period", () => {
    const { periods, skipped } = datedPeriods(
      [
        period({ name: "contestar", notFromPublication: true }),
        period({ name: "depois", startsAfterPrevious: true }),
        period({ name: "prescrição", days: null, term: "2 anos" }),
      ],
      COUNTING,
    );

    expect(periods.map((p) => [p.name, p.lastDay])).toEqual([
      ["contestar", null],
      ["depois", null],
      ["prescrição", null],
    ]);
    expect(periods[0]?.note).toMatch(/não corre da publicação do ato/);
    expect(periods[1]?.note).toBe("depende do fim do prazo anterior");
    expect(skipped).toEqual([]);
  });

  it("a period of no length between two keeps the chain to the one before it", () => {
    const { periods } = datedPeriods(
      [
        period({ name: "pagar", days: 5 }),
        period({ name: "sem prazo", days: null, term: "48 horas" }),
        period({ name: "impugnar", days: 15, startsAfterPrevious: true }),
      ],
      COUNTING,
    );

    expect(periods.map((p) => p.lastDay)).toEqual(["2025-09-12", null, "2025-10-03"]);
  });

  it("keeps, for each dated period, the days its count skipped", () => {
    const { skipped } = datedPeriods(
      [period({ days: 5 }), period({ days: 15, startsAfterPrevious: true })],
      COUNTING,
    );

    expect(skipped).toHaveLength(2);
  });
});
