import { describe, expect, it } from "vitest";
import { swappableCalendars } from "../../../src/cli/runtime.js";
import type { CourtClosure } from "../../../src/time/court-calendar.js";

/** Wed 15/10/2025, a plain working day at TJSP, closed by a made-up act for the test. */
const CLOSURE: CourtClosure = {
  court: "tjsp",
  municipalities: [],
  from: "2025-10-15",
  to: "2025-10-15",
  effect: "closed",
  reason: "Portaria de teste",
  source: "Portaria TJSP nº 1/2025",
  url: null,
};

describe("the composition root's calendars", () => {
  it("read the closures in force at each use: set swaps them for every calendar it hands out", () => {
    const calendars = swappableCalendars([]);
    const tjsp = () => calendars.book({ court: "tjsp" }).dayStatus("2025-10-15");

    expect(tjsp().kind).toBe("working");
    calendars.set([CLOSURE]);
    expect(tjsp().kind).toBe("closed");
    expect(tjsp().reasons.map((r) => r.source)).toContain("Portaria TJSP nº 1/2025");
    calendars.set([]);
    expect(tjsp().kind).toBe("working");
  });
});
