import { describe, expect, it } from "vitest";
import { normalizeInstanceRecord } from "../../../src/datajud/normalize.js";
import { calendarsWith } from "../../../src/deadlines/publication-estimate.js";
import { actDeadline, periodsOfAct } from "../../../src/summarize/act-deadlines.js";
import { actAttention } from "../../../src/summarize/act-reading.js";
import type { FixtureDoc } from "../../support/fixtures.js";

/*
 * A decision one judge of a court gave alone, in the courts act-periods.json now names its periods
 * for: a labour relator's (agravo interno in 8 dias úteis: TST IN 39/2016 art. 1º § 2º, Lei
 * 5.584/1970 art. 6º, CLT arts. 894 § 4º and 896 § 12, RITST art. 265; counted as CLT art. 775
 * counts) and a minister's of the STJ or STF (agravo interno in 15 dias úteis in civil matters,
 * CPC arts. 1.021 and 1.070, RISTJ art. 259, RISTF art. 317; agravo regimental in 5 days in
 * criminal matters, Lei 8.038/1990 art. 39, continuous, CPP art. 798: STF Pleno, QO no AgR na
 * Rcl 25.638, 2019; STJ, AgRg no HC 851.985/SP, 2024). Each made available in the Diário on a day
 * of November 2026 whose count crosses Fri 20/11/2026 (Dia Nacional de Zumbi e da Consciência
 * Negra, Lei 14.759/2023) and a weekend; every last day below is worked out by hand.
 */

const calendars = calendarsWith();

function recordOf(
  alias: string,
  grau: string,
  klass: { codigo: number; nome: string },
  ibge: number,
  moves: Array<{ codigo: number; nome: string; dataHora: string }>,
) {
  const doc = {
    _id: `${alias}_${grau}_test`,
    _index: `api_publica_${alias}`,
    _source: {
      numeroProcesso: "10011114820198260224",
      tribunal: alias.toUpperCase(),
      grau,
      classe: klass,
      assuntos: [],
      orgaoJulgador: { codigo: 1, nome: "Gabinete", codigoMunicipioIBGE: ibge },
      dataAjuizamento: "2019-01-01T00:00:00.000Z",
      dataHoraUltimaAtualizacao: "2026-11-20T10:00:00.000Z",
      movimentos: moves,
    },
  } as unknown as FixtureDoc;
  return normalizeInstanceRecord(doc, alias);
}

/** A relator's decision on Fri 13/11/2026 and its disponibilização in the Diário on `available`. */
function decided(
  alias: string,
  grau: string,
  klass: { codigo: number; nome: string },
  ibge: number,
  available: string,
) {
  const record = recordOf(alias, grau, klass, ibge, [
    { codigo: 12164, nome: "Outras Decisões", dataHora: "2026-11-13T15:00:00.000Z" },
    {
      codigo: 1061,
      nome: "Disponibilização no Diário da Justiça Eletrônico",
      dataHora: `${available}T03:00:00.000Z`,
    },
  ]);
  const act = record.movements.find((m) => m.code === 12164);
  if (act === undefined) throw new Error("no decision");
  const dated = actDeadline({
    instance: grau,
    act,
    record,
    caseNumber: "10011114820198260224",
    publications: [],
    calendars,
  });
  return { record, act, dated };
}

function lastDays(dated: ReturnType<typeof decided>["dated"]) {
  return dated?.periods.map((p) => [p.name, p.days, p.counting, p.lastDay]);
}

describe("a decision a judge of a court gave alone", () => {
  it("a TRT relator's: embargos in 5 and agravo interno in 8 dias úteis (CLT, art. 775)", () => {
    // Made available Tue 17/11/2026: published Wed 18/11, counted from Thu 19/11 (Lei 11.419/2006
    // art. 4 §§ 3-4). Dias úteis: 19/11 (1), 20/11 holiday, 21-22 weekend, 23 (2), 24 (3), 25 (4),
    // 26 (5) -> embargos Thu 26/11/2026; 27 (6), 28-29 weekend, 30 (7), 01/12 (8) -> agravo
    // interno Tue 01/12/2026. No holiday of São Paulo between (its 25/01 and 09/07 are not).
    const { record, act, dated } = decided(
      "trt2",
      "G2",
      { codigo: 1009, nome: "Recurso Ordinário Trabalhista" },
      3550308,
      "2026-11-17",
    );
    expect(dated?.key).toBe("labour_monocratic");
    expect(lastDays(dated)).toEqual([
      ["embargos de declaração", 5, "business", "2026-11-26"],
      ["agravo interno ao colegiado", 8, "business", "2026-12-01"],
    ]);
    expect(dated?.periods[1]?.article).toContain("TST, IN 39/2016, art. 1º, § 2º");
    expect(actAttention(act, record)?.reason).toMatch(
      /^decisão monocrática do relator: prazos que abre: embargos de declaração: 5 dias úteis/u,
    );
  });

  it("an STJ minister's in a habeas corpus: embargos in 2 and agravo regimental in 5 dias corridos", () => {
    // Made available Mon 16/11/2026: published Tue 17/11, counted from Wed 18/11. Dias corridos
    // (CPP art. 798): embargos 18, 19 -> Thu 19/11/2026; agravo regimental 18, 19, 20 (the
    // holiday counts), 21, 22 -> Sun 22/11, passed to the next day the court opens, Mon 23/11/2026
    // (art. 798 § 3º).
    const { dated } = decided(
      "stj",
      "SUP",
      { codigo: 1720, nome: "Habeas Corpus" },
      5300108,
      "2026-11-16",
    );
    expect(dated?.key).toBe("superior_criminal_monocratic");
    expect(lastDays(dated)).toEqual([
      ["embargos de declaração", 2, "calendar", "2026-11-19"],
      ["agravo regimental ao colegiado", 5, "calendar", "2026-11-23"],
    ]);
    expect(dated?.periods[1]?.article).toContain("Lei 8.038/1990, art. 39");
  });

  it("an STJ minister's in a REsp, whose class does not say the matter: both matters' periods", () => {
    // Same days: counted from Wed 18/11/2026. Penal, dias corridos: embargos Thu 19/11, agravo
    // regimental Mon 23/11 (as above). Cível, dias úteis (CPC art. 219): 18 (1), 19 (2), 20
    // holiday, 23 (3), 24 (4), 25 (5) -> embargos Wed 25/11/2026; 26 (6), 27 (7), 30 (8), 01/12
    // (9), 02 (10), 03 (11), 04 (12), 07 (13), 08/12 Dia da Justiça (Lei 5.010/1966, art. 62, IV),
    // 09 (14), 10 (15) -> agravo interno Thu 10/12/2026.
    const { record, act, dated } = decided(
      "stj",
      "SUP",
      { codigo: 1032, nome: "Recurso Especial" },
      5300108,
      "2026-11-16",
    );
    expect(dated?.key).toBe("superior_monocratic");
    expect(lastDays(dated)).toEqual([
      ["embargos de declaração, se a matéria for penal", 2, "calendar", "2026-11-19"],
      ["agravo regimental ao colegiado, se a matéria for penal", 5, "calendar", "2026-11-23"],
      ["embargos de declaração, se a matéria for cível", 5, "business", "2026-11-25"],
      ["agravo interno ao colegiado, se a matéria for cível", 15, "business", "2026-12-10"],
    ]);
    expect(actAttention(act, record)?.reason).toContain(
      "conforme a matéria, que a classe do recurso não diz",
    );
  });

  it("an STJ judgment the record shows the relator gave alone reads as his decision", () => {
    // A conclusão "para decisão" and no session before the judgment (act-reading.ts judgmentForm).
    const record = recordOf("stj", "SUP", { codigo: 1720, nome: "Habeas Corpus" }, 5300108, [
      {
        codigo: 51,
        nome: "Conclusão",
        dataHora: "2026-11-03T10:00:00.000Z",
        complementosTabelados: [
          { codigo: 3, valor: 6, nome: "para decisão", descricao: "tipo_de_conclusao" },
        ],
      } as never,
      { codigo: 239, nome: "Não-Provimento", dataHora: "2026-11-13T15:00:00.000Z" },
    ]);
    const judged = record.movements.find((m) => m.code === 239);
    if (judged === undefined) throw new Error("no judgment");
    expect(periodsOfAct(judged, record)?.key).toBe("superior_criminal_monocratic");
  });
});
