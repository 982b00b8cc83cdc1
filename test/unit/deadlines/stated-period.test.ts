import { describe, expect, it } from "vitest";
import { statedPeriods } from "../../../src/deadlines/stated-period.js";

function read(text: string): Array<[number, string, string | null]> {
  return statedPeriods(text).map((p) => [p.amount, p.unit, p.dayKind]);
}

describe("statedPeriods", () => {
  it("reads the forms court texts use: digits and words, úteis, corridos, hours", () => {
    expect(read("Intime-se para, no prazo de 15 (quinze) dias, manifestar-se.")).toEqual([
      [15, "days", null],
    ]);
    expect(read("Manifeste-se o réu em 5 dias úteis.")).toEqual([[5, "days", "business"]]);
    expect(read("no prazo de quinze dias corridos")).toEqual([[15, "days", "calendar"]]);
    expect(read("Cumpra-se em 48 (quarenta e oito) horas.")).toEqual([[48, "hours", null]]);
    expect(read("cumpra em 24h")).toEqual([[24, "hours", null]]);
    expect(read("prazo de vinte e cinco dias")).toEqual([[25, "days", null]]);
    expect(read("no prazo de 1 (um) ano")).toEqual([[1, "years", null]]);
  });

  it("quotes the court's own words", () => {
    expect(statedPeriods("Intime-se para, no PRAZO DE 15 (QUINZE) DIAS, falar.")[0]?.quote).toBe(
      "PRAZO DE 15 (QUINZE) DIAS",
    );
  });

  it("takes the smaller number when the digits and the words disagree (never late)", () => {
    expect(read("Concedo o prazo de 10 (quinze) dias.")).toEqual([[10, "days", null]]);
  });

  it("reads no period in penalties, suspensions of the case or lapses", () => {
    expect(read("Condeno o réu a 2 anos de reclusão e 10 dias-multa.")).toEqual([]);
    expect(read("Suspendo o processo pelo prazo de 90 dias.")).toEqual([]);
    expect(read("Os autos estão sem movimento há mais de 30 dias.")).toEqual([]);
    expect(read("Após 30 dias, voltem conclusos.")).toEqual([]);
    expect(read("Intime-se para recorrer no prazo legal.")).toEqual([]);
  });

  it("keeps the period after a suspension in the same text", () => {
    expect(
      read("Suspendo o processo pelo prazo de 90 dias. Após, intime-se a parte em 5 (cinco) dias."),
    ).toEqual([[5, "days", null]]);
  });

  it("tells an edital's dilação from the period to answer it (CPC art. 257 III)", () => {
    const periods = statedPeriods(
      "EDITAL DE CITAÇÃO COM PRAZO DE 30 (TRINTA) DIAS. Fica o réu citado para, no prazo de 15 (quinze) dias, que fluirá após o decurso do prazo do edital, contestar.",
    );

    expect(periods.map((p) => [p.amount, p.dilation])).toEqual([
      [30, true],
      [15, false],
    ]);
  });

  it("marks successive and doubled periods", () => {
    const [successive] = statedPeriods("prazo sucessivo de 10 dias, primeiro o autor");
    const [doubled] = statedPeriods("no prazo de 30 dias, em dobro");

    expect(successive?.successive).toBe(true);
    expect(doubled?.doubled).toBe(true);
  });

  it("lists each period once, in the order written", () => {
    expect(
      read("Réplica em 15 dias. Depois, especifiquem provas em 5 dias. Réplica em 15 dias."),
    ).toEqual([
      [15, "days", null],
      [5, "days", null],
    ]);
  });
});
