import { describe, expect, it } from "vitest";
import {
  addBusinessHours,
  businessDaysBefore,
  DEFAULT_BUSINESS_WINDOW,
  type EscalationChain,
  type EscalationLastDay,
  escalationSchedule,
  type ScheduleInput,
} from "../../../src/policy/escalation.js";
import { type CourtClosure, courtCalendar } from "../../../src/time/court-calendar.js";

/*
 * Every expected instant below is worked by hand on the court's calendar, São Paulo's wall clock
 * (UTC-3 all year since Decreto 9.772/2019: 09:00 there is 12:00Z), window 09:00-18:00.
 */

const SOCIA = { kind: "watcher", address: "socia@firma.com.br" } as const;
const EQUIPE = { kind: "endpoint", name: "equipe" } as const;

function chain(over: Partial<EscalationChain> = {}): EscalationChain {
  return {
    within: 4,
    before: null,
    window: DEFAULT_BUSINESS_WINDOW,
    chain: [SOCIA, EQUIPE],
    ...over,
  };
}

function input(
  queuedAt: string,
  over: Partial<ScheduleInput> & { court?: string; closures?: CourtClosure[] } = {},
): ScheduleInput {
  const calendar = courtCalendar({ court: over.court ?? "tjsp" }, over.closures ?? []);
  return {
    queuedAt: new Date(queuedAt),
    lastDay: null,
    chain: chain(),
    day: (date) => calendar.dayStatus(date),
    timeZone: "America/Sao_Paulo",
    ...over,
  };
}

function dues(i: ScheduleInput): Array<[string, string]> {
  return escalationSchedule(i).map((s) => [s.dueAt.toISOString(), s.dueBy]);
}

const period = (date: string): EscalationLastDay => ({ date, kind: "period", name: "Apelação" });

describe("business hours", () => {
  it("an alert Friday 16:00 is due 4 business hours later on Monday 11:00", () => {
    // Fri 27/11/2026 16:00-18:00 = 2 h; Sat 28 and Sun 29 have no expediente; Mon 30/11 09:00 +
    // the 2 h left = 11:00 (14:00Z). Step 2 (8 h): Mon 11:00 + 4 h = 15:00 (18:00Z).
    expect(dues(input("2026-11-27T19:00:00Z"))).toEqual([
      ["2026-11-30T14:00:00.000Z", "within"],
      ["2026-11-30T18:00:00.000Z", "within"],
    ]);
  });

  it("skips a national holiday", () => {
    // Thu 19/11/2026 15:00-18:00 = 3 h; Fri 20/11 is the Dia Nacional de Zumbi e da Consciência
    // Negra (Lei 14.759/2023), then the weekend; Mon 23/11 09:00 + 1 h = 10:00 (13:00Z).
    expect(dues(input("2026-11-19T18:00:00Z"))[0]).toEqual(["2026-11-23T13:00:00.000Z", "within"]);
  });

  it("skips the court's state holiday and its own closed day, not another state's court", () => {
    // TJSP: Wed 08/07/2026 17:00-18:00 = 1 h; Thu 09/07 is the Revolução Constitucionalista (Lei
    // SP 9.497/1997), Fri 10/07 the TJSP closes (Provimento CSM 2.813/2025, art. 1º), then the
    // weekend: Mon 13/07 09:00 + 3 h = 12:00 (15:00Z).
    expect(dues(input("2026-07-08T20:00:00Z"))[0]).toEqual(["2026-07-13T15:00:00.000Z", "within"]);
    // TJRJ works on 09/07: Thu 09:00 + 3 h = 12:00 (15:00Z).
    expect(dues(input("2026-07-08T20:00:00Z", { court: "tjrj" }))[0]).toEqual([
      "2026-07-09T15:00:00.000Z",
      "within",
    ]);
  });

  it("an alert queued at night or on a weekend counts from the next opening", () => {
    // Sat 28/11/2026 10:00: nothing counts until Mon 30/11 09:00; + 4 h = 13:00 (16:00Z).
    expect(dues(input("2026-11-28T13:00:00Z"))[0]).toEqual(["2026-11-30T16:00:00.000Z", "within"]);
    // Mon 30/11 07:00, before the opening: 09:00 + 4 h = 13:00 the same day.
    expect(dues(input("2026-11-30T10:00:00Z"))[0]).toEqual(["2026-11-30T16:00:00.000Z", "within"]);
  });

  it("reads a window of the firm's own", () => {
    // Window 12:00-19:00 (many courts' afternoon expediente): Fri 27/11 16:00-19:00 = 3 h; Mon
    // 30/11 12:00 + 1 h = 13:00 (16:00Z).
    const own = chain({ window: { start: 12 * 60, end: 19 * 60 } });
    expect(dues(input("2026-11-27T19:00:00Z", { chain: own }))[0]).toEqual([
      "2026-11-30T16:00:00.000Z",
      "within",
    ]);
  });

  it("counts a day whose deadlines are suspended as business hours (earlier, never later)", () => {
    // Mon 30/11/2026 suspended by a configured act: the court works, so its hours count.
    const closures: CourtClosure[] = [
      {
        court: "tjsp",
        municipalities: [],
        from: "2026-11-30",
        to: "2026-11-30",
        effect: "suspended",
        reason: "suspensão de prazos",
        source: "Portaria de teste",
        url: null,
      },
    ];
    const i = input("2026-11-27T19:00:00Z", { closures });
    expect(new Date(addBusinessHours(i, i.queuedAt.getTime(), 4)).toISOString()).toBe(
      "2026-11-30T14:00:00.000Z",
    );
    // ...and counting back from Wed 02/12 it is skipped: Tue 01/12 (1), Fri 27/11 (2).
    expect(businessDaysBefore(i, "2026-12-02", 2)).toBe("2026-11-27");
  });
});

describe("the last day", () => {
  it("2 business days before a last day beats 4 business hours", () => {
    // Queued Mon 30/11/2026 16:00, within 8 h: Mon 2 h + Tue 01/12 6 h = Tue 15:00. Last day Thu
    // 03/12, 2 business days before: Wed 02/12 (1), Tue 01/12 (2), at 09:00 (12:00Z): earlier.
    const i = input("2026-11-30T19:00:00Z", {
      chain: chain({ within: 8, before: 2 }),
      lastDay: period("2026-12-03"),
    });
    expect(dues(i)).toEqual([
      ["2026-12-01T12:00:00.000Z", "before"],
      // Step 2 (16 h) would be Wed 14:00: the same bound, so the whole chain is told at once.
      ["2026-12-01T12:00:00.000Z", "before"],
    ]);
  });

  it("counts back over the court's closed days", () => {
    // TJSP closes Mon 07/12/2026 (suspensão do expediente) and Tue 08/12 (Dia da Justiça),
    // Provimento CSM 2.813/2025, art. 1º. Last day Wed 09/12, 2 business days before: Fri 04/12
    // (1), Thu 03/12 (2), 09:00 (12:00Z). TJRJ closes only Tue 08/12 (Lei estadual RJ
    // 6.956/2015, art. 66, I): Mon 07/12 (1), Fri 04/12 (2). TJMG works both: Tue 08/12 (1), Mon
    // 07/12 (2), 09:00.
    const over = { chain: chain({ within: 40, before: 2 }), lastDay: period("2026-12-09") };
    expect(dues(input("2026-12-02T13:00:00Z", over))[0]).toEqual([
      "2026-12-03T12:00:00.000Z",
      "before",
    ]);
    expect(dues(input("2026-12-02T13:00:00Z", { ...over, court: "tjrj" }))[0]).toEqual([
      "2026-12-04T12:00:00.000Z",
      "before",
    ]);
    expect(dues(input("2026-12-02T13:00:00Z", { ...over, court: "tjmg" }))[0]).toEqual([
      "2026-12-07T12:00:00.000Z",
      "before",
    ]);
  });

  it("is never passed: without `before`, a step is due at the last day's opening at the latest", () => {
    // Queued Mon 30/11 16:00, within 8: Tue 01/12 15:00; the last day is Tue 01/12: 09:00.
    const i = input("2026-11-30T19:00:00Z", {
      chain: chain({ within: 8 }),
      lastDay: period("2026-12-01"),
    });
    expect(dues(i)[0]).toEqual(["2026-12-01T12:00:00.000Z", "last-day"]);
  });

  it("a hearing's last bound is the opening of the court business day before it (it may begin at 09:00)", () => {
    // Queued Wed 18/11/2026 10:00, within 16: Wed 8 h (to 18:00) + Thu 19/11 8 h = Thu 17:00.
    // The hearing is Mon 23/11: the business day before it is not Fri 20/11 (Dia Nacional de
    // Zumbi e da Consciência Negra, Lei 14.759/2023) nor the weekend but Thu 19/11: 09:00 (12:00Z),
    // earlier than 17:00. A period ending Mon 23/11 keeps that day's opening: 09:00 of 23/11,
    // later than Thu 17:00, so within decides (20:00Z).
    const hearing = input("2026-11-18T13:00:00Z", {
      chain: chain({ within: 16 }),
      lastDay: { date: "2026-11-23", kind: "hearing", name: null },
    });
    expect(dues(hearing)[0]).toEqual(["2026-11-19T12:00:00.000Z", "last-day"]);
    const periodEnd = input("2026-11-18T13:00:00Z", {
      chain: chain({ within: 16 }),
      lastDay: period("2026-11-23"),
    });
    expect(dues(periodEnd)[0]).toEqual(["2026-11-19T20:00:00.000Z", "within"]);
  });

  it("a bound already past stays in the past: the caller sends such a step at once", () => {
    // Queued Tue 01/12 10:00 with the last day Wed 02/12 and before 2: Mon 30/11 09:00.
    const i = input("2026-12-01T13:00:00Z", {
      chain: chain({ before: 2 }),
      lastDay: period("2026-12-02"),
    });
    expect(dues(i)[0]).toEqual(["2026-11-30T12:00:00.000Z", "before"]);
  });

  it("before 0 is the last day's opening", () => {
    const i = input("2026-11-30T19:00:00Z", {
      chain: chain({ within: null, before: 0 }),
      lastDay: period("2026-12-03"),
    });
    // A tie of the two bounds: the last day's names it.
    expect(dues(i)[0]).toEqual(["2026-12-03T12:00:00.000Z", "last-day"]);
  });

  it("a chain with only `before` has no step for an alert without a last day", () => {
    expect(
      dues(input("2026-11-30T19:00:00Z", { chain: chain({ within: null, before: 2 }) })),
    ).toEqual([]);
  });
});
