import { describe, expect, it } from "vitest";
import { courtTimeZone } from "../../../src/time/court-zone.js";

describe("the zone of a court's wall clock", () => {
  it("is the seat's state's, else the court's only state's, else its headquarters'", () => {
    // IBGE: 1200401 Rio Branco (AC), 1302603 Manaus (AM), 3550308 São Paulo (SP).
    expect(courtTimeZone("trt14", 1200401)).toBe("America/Rio_Branco");
    expect(courtTimeZone("trt14")).toBe("America/Porto_Velho");
    expect(courtTimeZone("trf1", 1302603)).toBe("America/Manaus");
    expect(courtTimeZone("trf1")).toBe("America/Sao_Paulo");
    expect(courtTimeZone("tjam")).toBe("America/Manaus");
    expect(courtTimeZone("tjms")).toBe("America/Campo_Grande");
    expect(courtTimeZone("tre-ac")).toBe("America/Rio_Branco");
    expect(courtTimeZone("tjsp", 3550308)).toBe("America/Sao_Paulo");
  });

  it("is Brasília's for the superior courts and for a court it cannot place", () => {
    expect(courtTimeZone("stj")).toBe("America/Sao_Paulo");
    expect(courtTimeZone("tst")).toBe("America/Sao_Paulo");
    expect(courtTimeZone("")).toBe("America/Sao_Paulo");
  });

  it("does not believe a seat outside the court's states", () => {
    expect(courtTimeZone("tjsp", 1302603)).toBe("America/Sao_Paulo");
  });
});
