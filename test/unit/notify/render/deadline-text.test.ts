import { describe, expect, it } from "vitest";
import {
  calendarsWith,
  estimatePublication,
} from "../../../../src/deadlines/publication-estimate.js";
import { estimateLines } from "../../../../src/notify/render/deadline-text.js";

/*
 * The calendar paragraph of an estimate is shown whole: a list of what the court's calendar does
 * not know, cut mid-word, reads as if it ended there (issue 35).
 */

function estimateAcrossYears() {
  // Made available Thu 17/12/2026 in the TRF1 without a seat: the note names the state and
  // municipal days it cannot know.
  return estimatePublication(
    {
      court: "TRF1",
      kind: "Intimação",
      documentType: "Decisão",
      className: "Procedimento Comum Cível",
      medium: "D",
      availableOn: "2026-12-17",
      caseNumber: null,
      recipients: [{ name: "PARTE", side: "A" }],
      lawyers: [{}],
    },
    "Intime-se a parte autora para se manifestar no prazo de 15 (quinze) dias.",
    calendarsWith(),
  );
}

describe("the court calendar paragraph", () => {
  it("is rendered whole, however long", () => {
    const one = estimateAcrossYears();
    // Two years' notes side by side, as an estimate across the year's turn may carry them.
    const estimate = { ...one, considered: `2026: ${one.considered} 2027: ${one.considered}` };
    const line = estimateLines(estimate).find((l) => l.startsWith("Calendário do tribunal: "));

    expect(estimate.considered.length).toBeGreaterThan(1500);
    expect(line).toBe(`Calendário do tribunal: ${estimate.considered.replace(/\s+/gu, " ")}`);
    expect(line).not.toContain("…");
    expect(line?.endsWith(".")).toBe(true);
  });
});
