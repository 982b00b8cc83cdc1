import { describe, expect, it } from "vitest";
import {
  type CalculatorRequest,
  calculatorSeat,
  countingUnit,
} from "../../../src/deadlines/calculator.js";

const REQUEST: CalculatorRequest = {
  court: "tjrs",
  municipality: null,
  caseNumber: null,
  availableOn: null,
  countingStartsOn: "2026-02-02",
  amount: 5,
  unit: "days",
  dayKind: null,
  doubledFor: null,
  className: null,
  criminal: false,
};

describe("the calculator's seat", () => {
  it("a municipality the lawyer names is the seat, with no note", () => {
    expect(calculatorSeat({ ...REQUEST, municipality: 4314902 })).toEqual({
      view: { municipality: 4314902, name: "Porto Alegre", from: "given" },
      notes: [],
    });
  });

  it("else the case number's origin names it (TJRS 0001: Porto Alegre), and says so", () => {
    const seat = calculatorSeat({ ...REQUEST, caseNumber: "50012345920268210001" });

    expect(seat.view).toEqual({ municipality: 4314902, name: "Porto Alegre", from: "case-number" });
    expect(seat.notes).toEqual([
      expect.stringMatching(/^sede pelo número do processo: Porto Alegre/),
    ]);
  });

  it("else none, and the note says municipal holidays are not considered", () => {
    expect(calculatorSeat(REQUEST)).toEqual({
      view: { municipality: null, name: null, from: "none" },
      notes: [
        "Sede da unidade não informada: feriados municipais não considerados (informe o município ou o número do processo).",
      ],
    });
  });
});

describe("the unit of a count from a known start", () => {
  it("days are the procedure's own: dias úteis in civil and labour (CPC 219, CLT 775), corridos otherwise", () => {
    const days = { unit: "days" as const, dayKind: null };

    expect(countingUnit(days, "civil")).toBe("business-days");
    expect(countingUnit(days, "labour")).toBe("business-days");
    expect(countingUnit(days, "criminal")).toBe("calendar-days");
    expect(countingUnit(days, "electoral")).toBe("calendar-days");
  });

  it("the kind of day the lawyer names wins, and hours stay hours", () => {
    expect(countingUnit({ unit: "days", dayKind: "calendar" }, "civil")).toBe("calendar-days");
    expect(countingUnit({ unit: "days", dayKind: "business" }, "criminal")).toBe("business-days");
    expect(countingUnit({ unit: "hours", dayKind: null }, "civil")).toBe("hours");
  });
});
