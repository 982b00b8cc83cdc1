import { describe, expect, it } from "vitest";
import type { CommunicationFacts } from "../../../src/deadlines/communication.js";
import { estimateDeadline } from "../../../src/deadlines/estimate.js";
import type { DeadlineEstimate } from "../../../src/deadlines/estimate-schema.js";
import { DeadlineEstimate as DeadlineEstimateSchema } from "../../../src/deadlines/estimate-schema.js";
import {
  calendarsWith,
  estimateAvailability,
} from "../../../src/deadlines/publication-estimate.js";
import { addDays } from "../../../src/time/calendar-date.js";
import { type CourtClosure, courtCalendar } from "../../../src/time/court-calendar.js";
import { SCENARIOS, type Scenario } from "./scenarios.js";

function facts(s: Scenario): CommunicationFacts {
  return {
    kind: s.kind === undefined ? "Intimação" : s.kind,
    documentType: s.documentType ?? null,
    className: s.className === undefined ? null : s.className,
    classCode: s.classCode ?? null,
    medium: s.medium ?? "D",
    text: s.text,
    recipients: s.recipients ?? [{ name: "PARTE INTERESSADA", side: "A" }],
    lawyerCount: s.lawyerCount ?? 1,
    caseNumber: s.caseNumber ?? null,
    court: s.court.toUpperCase(),
  };
}

function estimate(
  s: Scenario,
  closures: readonly CourtClosure[] = s.closures ?? [],
): DeadlineEstimate {
  return estimateDeadline({
    availableOn: s.availableOn,
    calendar: courtCalendar({ court: s.court }, closures),
    communication: facts(s),
  });
}

/** The calendar knows every day the scenario's answer takes from the court's own act. */
function knowsCourtActs(s: Scenario): boolean {
  const calendar = courtCalendar({ court: s.court }, s.closures ?? []);
  return (s.courtActs ?? []).every((act) => {
    const day = calendar.dayStatus(act.date);
    return act.effect === "late-opening" ? day.lateOpening : day.kind !== "working";
  });
}

function firstWord(text: string): string {
  return /^[\p{L}]+/u.exec(text)?.[0] ?? "";
}

describe("the dated scenarios, worked out by hand from the law", () => {
  it("cover every branch, kind of communication and year asked for", () => {
    const courts = new Set(
      SCENARIOS.map((s) => /^(tj|trf|trt|tre|tse|tst|stj|stf)/u.exec(s.court)?.[1]),
    );
    const years = new Set(SCENARIOS.map((s) => s.availableOn.slice(0, 4)));

    expect(SCENARIOS.length).toBeGreaterThanOrEqual(60);
    expect([...courts].sort()).toEqual(["stf", "stj", "tj", "tre", "trf", "trt", "tse", "tst"]);
    expect([...years].sort()).toEqual(["2025", "2026", "2027"]);
  });

  it.each(SCENARIOS.map((s) => [s.id, s] as const))("%s", (_id, s) => {
    const result = estimate(s);

    expect(DeadlineEstimateSchema.safeParse(result).success).toBe(true);
    expect(result.rule.code).toBe(s.expected.rule);
    if (s.expected.procedure !== undefined) {
      expect(result.rule.procedure).toBe(s.expected.procedure);
    }
    const law = [s.expected.publishedOn, s.expected.countingStartsOn, s.expected.lastDay];
    if (!knowsCourtActs(s)) {
      // The calendar does not know a day the court closes by its own act: never later.
      datesOf(result).forEach((date, i) => {
        const answer = law[i];
        if (date !== null && answer !== null && answer !== undefined) {
          expect(date <= answer, `${s.id}: ${date} after the law's ${answer}`).toBe(true);
        }
      });
      return;
    }
    expect(datesOf(result)).toEqual(law);
    if (s.expected.legalDefaults !== undefined) {
      expect(
        result.otherPeriods
          .filter((p) => p.from === "legal-default")
          .map((p) => [firstWord(p.act ?? ""), p.lastDay]),
      ).toEqual(s.expected.legalDefaults.map(([act, day]) => [firstWord(act), day]));
    }
    if (s.expected.alternatives !== undefined) {
      expect(result.alternatives.map((a) => a.lastDay ?? a.countingStartsOn)).toEqual(
        s.expected.alternatives,
      );
    }
    if (s.expected.session !== undefined) {
      expect(result.session).toMatchObject(s.expected.session);
    }
  });
});

/** The dates an estimate gives, in the order a lawyer acts on them. */
function datesOf(e: DeadlineEstimate): Array<string | null> {
  return [e.publishedOn, e.countingStartsOn, e.lastDay];
}

describe("never late", () => {
  it("every alternative reading of an unknown fact is on or after the estimate", () => {
    for (const s of SCENARIOS) {
      const result = estimate(s);
      for (const alternative of result.alternatives) {
        if (alternative.countingStartsOn !== null && result.countingStartsOn !== null) {
          expect(alternative.countingStartsOn >= result.countingStartsOn, s.id).toBe(true);
        }
        if (alternative.lastDay !== null && result.lastDay !== null) {
          expect(alternative.lastDay >= result.lastDay, s.id).toBe(true);
        }
      }
    }
  });

  it("adding a closed, suspended or late-opening day never moves an estimate earlier", () => {
    const effects: CourtClosure["effect"][] = ["closed", "suspended", "late-opening"];
    for (const s of SCENARIOS.filter((x) => x.expected.lastDay !== null)) {
      const before = datesOf(estimate(s));
      const last = s.expected.lastDay ?? s.availableOn;
      // Every third day of the window, the three effects in turn: cheap, and each kind of day
      // lands on publication days, start days, counted days and last days across the table.
      let turn = 0;
      for (let day = s.availableOn; day <= last; day = addDays(day, 3)) {
        const effect = effects[turn++ % effects.length] ?? "closed";
        const extra: CourtClosure = {
          court: s.court,
          municipalities: [],
          from: day,
          to: day,
          effect,
          reason: "dia acrescentado",
          source: "teste",
          url: null,
        };
        const after = datesOf(estimate(s, [...(s.closures ?? []), extra]));
        after.forEach((date, i) => {
          const was = before[i];
          if (date !== null && was !== null && was !== undefined) {
            expect(date >= was, `${s.id}: ${effect} ${day}`).toBe(true);
          }
        });
      }
    }
  });
});

describe("provenance", () => {
  it("names the source of every day skipped", () => {
    const s = SCENARIOS.find((x) => x.id.startsWith("A6"));
    if (s === undefined) throw new Error("scenario A6 missing");

    const result = estimate(s);

    expect(result.skippedDays).toEqual([
      expect.objectContaining({
        from: "2026-04-03",
        to: "2026-04-03",
        name: expect.stringMatching(/Sexta-feira Santa/u),
        source: expect.stringMatching(/Lei \d/u),
      }),
      expect.objectContaining({
        from: "2026-04-21",
        name: expect.stringMatching(/Tiradentes/u),
        source: expect.stringContaining("Lei 662/1949"),
      }),
    ]);
  });

  it("names a configured closure with the act the operator gave", () => {
    const s = SCENARIOS.find((x) => x.id.startsWith("B6"));
    if (s === undefined) throw new Error("scenario B6 missing");

    expect(estimate(s).skippedDays).toEqual([
      {
        from: "2026-03-10",
        to: "2026-03-11",
        name: "indisponibilidade do PJe",
        source: "Portaria de teste",
        url: null,
      },
    ]);
  });

  it("names the recess and the suspension once each, as runs", () => {
    const s = SCENARIOS.find((x) => x.id.startsWith("A8"));
    if (s === undefined) throw new Error("scenario A8 missing");

    const names = estimate(s).skippedDays.map((d) => `${d.from}..${d.to} ${d.name} (${d.source})`);

    expect(names).toEqual([
      expect.stringMatching(/^2025-12-20\.\.2026-01-06 recesso forense .*Res\. CNJ 244\/2016/u),
      expect.stringMatching(/^2025-12-20\.\.2026-01-20 prazos suspensos .*CPC, art\. 220/u),
      expect.stringMatching(/^2025-12-25\.\.2025-12-25 Natal/u),
      expect.stringMatching(/^2026-01-01\.\.2026-01-01 Confraternização Universal/u),
    ]);
  });

  it("names the criminal suspension by the CPP's article", () => {
    const s = SCENARIOS.find((x) => x.id.startsWith("D3"));
    if (s === undefined) throw new Error("scenario D3 missing");

    expect(estimate(s).skippedDays.map((d) => d.source)).toContain("CPP, art. 798-A");
  });

  it("lists what the calendar considered for the court and year", () => {
    const s = SCENARIOS[0];
    if (s === undefined) throw new Error("no scenario");

    expect(estimate(s).considered).toContain("CPC, art. 220");
  });
});

describe("what each rule says", () => {
  it("a pauta says its session and opens no period", () => {
    const s = SCENARIOS.find((x) => x.id.startsWith("H1"));
    if (s === undefined) throw new Error("scenario H1 missing");

    const result = estimate(s);

    expect(result.rule.title).toMatch(/sessão/u);
    expect(result.notes.join(" ")).toMatch(/não abre prazo/u);
  });

  it("an intimação for a hearing keeps its period and carries the hearing's date and time", () => {
    // Made available Fri 29/08/2025 at the TJSP: published Mon 01/09, counts from Tue 02/09 (Lei
    // 11.419/2006 art. 4 §§3-4); 15 business days (CPC art. 219): 02-05, 08-12, 15-19 and 22/09,
    // no holiday among them (07/09, Independência, is a Sunday): the 15th is Mon 22/09.
    const result = estimateDeadline({
      availableOn: "2025-08-29",
      calendar: courtCalendar({ court: "tjsp" }, []),
      communication: {
        kind: "Intimação",
        documentType: "Despacho",
        className: "Procedimento Comum Cível",
        classCode: 7,
        medium: "D",
        text: "Designo audiência de instrução e julgamento para 14/10/2025, às 13h30. Apresentem as partes rol de testemunhas no prazo de 15 (quinze) dias.",
        recipients: [{ name: "PARTE INTERESSADA", side: "A" }],
        lawyerCount: 1,
        caseNumber: null,
        court: "TJSP",
      },
    });

    expect([result.publishedOn, result.countingStartsOn, result.lastDay]).toEqual([
      "2025-09-01",
      "2025-09-02",
      "2025-09-22",
    ]);
    expect(result.session).toMatchObject({ date: "2025-10-14", time: "13:30", hearing: true });
  });

  it("the TJDFT's Dia da Justiça starts no count (Lei 11.697/2008 art. 60 §3 III)", () => {
    // Made available Fri 04/12/2026: published Mon 07/12 (Lei 11.419/2006 art. 4 §3); Tue 08/12 is
    // a feriado forense of the TJDFT, so the count starts Wed 09/12 (art. 4 §4; CPC art. 224 §3).
    // 15 business days (CPC art. 219): 09-11/12 (3), 14-18/12 (8), then 20/12-20/01 suspended (CPC
    // art. 220), 21-22/01/2027 (10), 25-29/01 (15): the last day is Fri 29/01/2027.
    const result = estimateDeadline({
      availableOn: "2026-12-04",
      calendar: courtCalendar({ court: "tjdft" }, []),
      communication: {
        kind: "Intimação",
        documentType: "Decisão",
        className: "Procedimento Comum Cível",
        classCode: 7,
        medium: "D",
        text: "Intimem-se as partes para, no prazo de 15 (quinze) dias, indicarem assistentes técnicos.",
        recipients: [{ name: "PARTE INTERESSADA", side: "A" }],
        lawyerCount: 1,
        caseNumber: null,
        court: "TJDFT",
      },
    });

    expect([result.publishedOn, result.countingStartsOn, result.lastDay]).toEqual([
      "2026-12-07",
      "2026-12-09",
      "2027-01-29",
    ]);
    expect(result.skippedDays.map((d) => d.source).join(" ")).toContain(
      "Lei 11.697/2008 (LOJDFT), art. 60, §3º, III",
    );
  });

  it("a lista de distribuição announces no hearing even where its text names one", () => {
    const result = estimateDeadline({
      availableOn: "2025-10-17",
      calendar: courtCalendar({ court: "tjsp" }, []),
      communication: {
        kind: "Lista de distribuição",
        documentType: null,
        className: null,
        classCode: null,
        medium: "D",
        text: "Processos distribuídos. Audiência designada para 02/12/2025, às 13h30.",
        recipients: [],
        lawyerCount: 0,
        caseNumber: null,
        court: "TJSP",
      },
    });

    expect(result.rule.code).toBe("no-deadline");
    expect(result.session).toBeNull();
  });

  it("an edital without its dilação says the period runs after it", () => {
    const s = SCENARIOS.find((x) => x.id.startsWith("G2"));
    if (s === undefined) throw new Error("scenario G2 missing");

    expect(estimate(s).notes.join(" ")).toMatch(/depois dela .*CPC, art\. 257, III/u);
  });

  it("an item for the Fazenda says where its count runs", () => {
    const s = SCENARIOS.find((x) => x.id.startsWith("B4"));
    if (s === undefined) throw new Error("scenario B4 missing");

    const result = estimate(s);

    expect(result.rule.title).toMatch(/Domicílio Judicial Eletrônico/u);
    expect(result.notes.join(" ")).toMatch(/em dobro \(CPC, art\. 183\)/u);
  });

  it("a text without a period gets no last day, and says so", () => {
    const s = SCENARIOS.find((x) => x.id.startsWith("A16"));
    if (s === undefined) throw new Error("scenario A16 missing");

    const result = estimate(s);

    expect(result.lastDay).toBeNull();
    expect(result.notes[0]).toMatch(/não informa prazo/u);
    expect(result.otherPeriods[0]).toMatchObject({ from: "legal-default", basis: /218/u });
  });
});

describe("a DataJud availability in a Diário", () => {
  it("gets the intimação's dates on the court's calendar, and no last day without a text", () => {
    // Made available Fri 26/09/2025 (tjdft): published Mon 29/09, counts from Tue 30/09.
    const result = estimateAvailability(
      {
        availableOn: "2025-09-26",
        court: "tjdft",
        className: "Procedimento Comum Cível",
        classCode: 7,
        caseNumber: "07133834320258070006",
        documentType: "Sentença",
      },
      calendarsWith(),
    );

    expect(result).toMatchObject({
      rule: { code: "intimacao", procedure: "civil" },
      publishedOn: "2025-09-29",
      countingStartsOn: "2025-09-30",
      lastDay: null,
    });
    // ED 5 BD (CPC 1.023): 30/09, 1, 2, 3, 6/10; apelação 15 BD (CPC 1.003 §5): ... 20/10.
    expect(result.otherPeriods.map((p) => p.lastDay)).toEqual(["2025-10-06", "2025-10-20"]);
  });
});
