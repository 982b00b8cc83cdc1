import { describe, expect, it } from "vitest";
import type { CommunicationFacts } from "../../../src/deadlines/communication.js";
import { estimateDeadline } from "../../../src/deadlines/estimate.js";
import type { DeadlineEstimate } from "../../../src/deadlines/estimate-schema.js";
import { addDays, isoDate } from "../../../src/time/calendar-date.js";
import { type CourtClosure, courtCalendar } from "../../../src/time/court-calendar.js";

/*
 * Property: a day the court is closed, suspends its deadlines or opens late, added anywhere,
 * never moves an estimate earlier: not the publication, not the counting start, not the last
 * day, not any later reading offered as an alternative. A calendar that learns a closure can
 * only push the law's dates later (Lei 11.419/2006 art. 4 §§3-4; CPC arts. 219, 220, 224 §1;
 * CPP art. 798 §3); an estimate that moved earlier would have been late before.
 *
 * Generated inputs (seeded, so a failure replays): courts of every branch, days across
 * 2025-2027 (the year-end suspension, Carnaval, Holy Week included), every kind of
 * communication, periods in business and calendar days, criminal cases with custody unknown,
 * and one to three closures of one to four days each, every effect, around the dates.
 */

/** mulberry32: a small seeded generator; the same seed gives the same cases. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const COURTS = [
  "tjsp",
  "tjrj",
  "tjmg",
  "tjdft",
  "tjba",
  "tjam",
  "trf1",
  "trf3",
  "trf4",
  "trt2",
  "trt11",
  "tre-sp",
  "stj",
  "tst",
  "tse",
];

interface Kind {
  kind: string;
  documentType: string;
  className: string;
  medium: string;
  text: (days: number) => string;
  recipients?: Array<{ name: string; side: string | null }>;
  lawyerCount?: number;
}

const KINDS: readonly Kind[] = [
  {
    kind: "Intimação",
    documentType: "Despacho",
    className: "PROCEDIMENTO COMUM CÍVEL",
    medium: "D",
    text: (d) => `Manifeste-se a parte autora no prazo de ${d} dias.`,
  },
  {
    kind: "Intimação",
    documentType: "Decisão",
    className: "PROCEDIMENTO COMUM CÍVEL",
    medium: "D",
    text: (d) => `Cumpra-se em ${d} dias corridos.`,
  },
  {
    kind: "Intimação",
    documentType: "Sentença",
    className: "PROCEDIMENTO COMUM CÍVEL",
    medium: "D",
    text: () => "Julgo procedente o pedido. Publique-se. Intimem-se.",
  },
  {
    kind: "Intimação",
    documentType: "Despacho",
    className: "AÇÃO PENAL - PROCEDIMENTO ORDINÁRIO",
    medium: "D",
    text: (d) => `Intime-se a defesa para apresentar alegações finais no prazo de ${d} dias.`,
  },
  {
    kind: "Edital",
    documentType: "Edital",
    className: "PROCEDIMENTO COMUM CÍVEL",
    medium: "E",
    text: (d) => `EDITAL DE CITAÇÃO com prazo de ${d + 15} dias, para contestar em 15 dias.`,
  },
  {
    kind: "Intimação",
    documentType: "Despacho",
    className: "PROCEDIMENTO COMUM CÍVEL",
    medium: "D",
    text: (d) => `Intime-se a União para manifestar-se no prazo de ${d} dias.`,
    recipients: [
      { name: "FULANO DE TAL", side: "A" },
      { name: "UNIÃO FEDERAL", side: "P" },
    ],
  },
];

const EFFECTS: readonly CourtClosure["effect"][] = ["closed", "suspended", "late-opening"];

interface Case {
  court: string;
  availableOn: string;
  communication: CommunicationFacts;
}

function pick<T>(random: () => number, list: readonly T[]): T {
  const item = list[Math.floor(random() * list.length)];
  if (item === undefined) throw new Error("empty list");
  return item;
}

function generatedCase(random: () => number): Case {
  const court = pick(random, COURTS);
  const kind = pick(random, KINDS);
  const year = 2025 + Math.floor(random() * 3);
  // Half the cases near the year's end (the recess and suspension), the rest anywhere.
  const availableOn =
    random() < 0.5
      ? addDays(isoDate(year, 12, 1), Math.floor(random() * 45))
      : addDays(isoDate(year, 1, 1), Math.floor(random() * 330));
  return {
    court,
    availableOn,
    communication: {
      kind: kind.kind,
      documentType: kind.documentType,
      className: kind.className,
      classCode: null,
      medium: kind.medium,
      text: kind.text(pick(random, [2, 5, 10, 15, 30])),
      recipients: kind.recipients ?? [{ name: "PARTE INTERESSADA", side: "A" }],
      lawyerCount: kind.lawyerCount ?? 1,
      caseNumber: null,
      court: court.toUpperCase(),
    },
  };
}

function estimate(c: Case, closures: readonly CourtClosure[]): DeadlineEstimate {
  return estimateDeadline({
    availableOn: c.availableOn,
    calendar: courtCalendar({ court: c.court }, closures),
    communication: c.communication,
  });
}

/** Every date a lawyer may act on, by name: the estimate's and each alternative's. */
function datesOf(e: DeadlineEstimate): Map<string, string> {
  const out = new Map<string, string>();
  const put = (name: string, date: string | null) => {
    if (date !== null) out.set(name, date);
  };
  put("publishedOn", e.publishedOn);
  put("countingStartsOn", e.countingStartsOn);
  put("lastDay", e.lastDay);
  for (const [i, p] of e.otherPeriods.entries()) put(`otherPeriods[${i}].lastDay`, p.lastDay);
  for (const a of e.alternatives) {
    put(`alternative ${a.condition}: countingStartsOn`, a.countingStartsOn);
    put(`alternative ${a.condition}: lastDay`, a.lastDay);
  }
  return out;
}

function closuresAround(random: () => number, c: Case, before: DeadlineEstimate): CourtClosure[] {
  const last = before.lastDay ?? before.countingStartsOn ?? before.publishedOn;
  const span = Math.max(1, (Date.parse(last) - Date.parse(c.availableOn)) / 86_400_000 + 6);
  const count = 1 + Math.floor(random() * 3);
  return Array.from({ length: count }, (_, i) => {
    const from = addDays(c.availableOn, Math.floor(random() * span));
    return {
      court: c.court,
      municipalities: [],
      from,
      to: addDays(from, Math.floor(random() * 4)),
      effect: pick(random, EFFECTS),
      reason: `fechamento gerado ${i}`,
      source: "teste de propriedade",
      url: null,
    };
  });
}

describe("a closure added anywhere never moves an estimate earlier", () => {
  it("on 300 generated communications, each with one to three generated closures", () => {
    const random = generator(20_261_204);
    let compared = 0;
    for (let i = 0; i < 300; i++) {
      const c = generatedCase(random);
      const before = estimate(c, []);
      const closures = closuresAround(random, c, before);
      const after = estimate(c, closures);
      const was = datesOf(before);
      for (const [name, date] of datesOf(after)) {
        const earlier = was.get(name);
        if (earlier === undefined) continue;
        compared += 1;
        expect(
          date >= earlier,
          `${c.court} ${c.availableOn} "${c.communication.text}" with ${JSON.stringify(closures.map((x) => [x.from, x.to, x.effect]))}: ${name} ${date} < ${earlier}`,
        ).toBe(true);
      }
      // Only dates: the same facts, so a rule never changes with the calendar.
      expect(after.rule.code).toBe(before.rule.code);
    }
    // The property was tested on the dates, not vacuously.
    expect(compared).toBeGreaterThan(800);
  });

  it("a closure on each single day of a window, across the year-end, moves no date earlier", () => {
    // One civil, one criminal and one labour case: each day from the disponibilização to 60
    // days on, closed, suspended or opening late (the effects in turn), one at a time.
    const cases: Case[] = [
      { court: "tjsp", kind: KINDS[0] },
      { court: "tjsp", kind: KINDS[3] },
      { court: "trt2", kind: KINDS[0] },
    ].map(({ court, kind }) => ({
      court,
      availableOn: "2026-12-10",
      communication: {
        kind: kind?.kind ?? null,
        documentType: kind?.documentType ?? null,
        className: kind?.className ?? null,
        classCode: null,
        medium: "D",
        text: kind?.text(15) ?? "",
        recipients: [{ name: "PARTE INTERESSADA", side: "A" }],
        lawyerCount: 1,
        caseNumber: null,
        court: court.toUpperCase(),
      },
    }));
    for (const [n, c] of cases.entries()) {
      const was = datesOf(estimate(c, []));
      for (let d = 0; d <= 60; d++) {
        const day = addDays(c.availableOn, d);
        for (const effect of [EFFECTS[(d + n) % EFFECTS.length] ?? "closed"]) {
          const closure: CourtClosure = {
            court: c.court,
            municipalities: [],
            from: day,
            to: day,
            effect,
            reason: "dia acrescentado",
            source: "teste",
            url: null,
          };
          for (const [name, date] of datesOf(estimate(c, [closure]))) {
            const earlier = was.get(name);
            if (earlier !== undefined) {
              expect(date >= earlier, `${c.court} ${effect} ${day}: ${name}`).toBe(true);
            }
          }
        }
      }
    }
  });
});
