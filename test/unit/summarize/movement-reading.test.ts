import { describe, expect, it } from "vitest";
import { normalizeMovement } from "../../../src/datajud/normalize.js";
import {
  complementReading,
  hearingSituation,
  isCriminalClass,
  movementMeaning,
  movementTitle,
} from "../../../src/summarize/movement-reading.js";

function read(raw: object) {
  const m = normalizeMovement(raw);
  if (m === null) throw new Error("fixture");
  return m;
}

/** Movements as the real records send them (test/fixtures/real-datajud/hits.json). */
const CONFIRMADA = { codigo: 12266, nome: "Confirmada", dataHora: "2018-03-09T23:59:59.000Z" };
const DEFINITIVO = { codigo: 246, nome: "Definitivo", dataHora: "2024-02-01T10:00:00.000Z" };
const CONCILIACAO = {
  codigo: 12740,
  nome: "de Conciliação",
  dataHora: "2017-12-18T15:57:44.000Z",
  complementosTabelados: [
    { codigo: 15, valor: 9, nome: "designada", descricao: "situacao_da_audiencia" },
    { codigo: 16, valor: 17, nome: "conciliação", descricao: "tipo_de_audiencia" },
    { codigo: 36, valor: 188, nome: "Conciliador(a)", descricao: "dirigida_por" },
  ],
};
const AUDIENCIA = {
  codigo: 970,
  nome: "Audiência",
  dataHora: "2021-03-17T17:51:31.000Z",
  complementosTabelados: [
    { codigo: 15, valor: 13, nome: "realizada", descricao: "situacao_da_audiencia" },
    { codigo: 36, valor: 185, nome: "Juiz(a)", descricao: "dirigida_por" },
  ],
};

describe("movementTitle: names a lawyer reads", () => {
  it.each([
    [CONFIRMADA, "Intimação eletrônica confirmada"],
    [DEFINITIVO, "Arquivamento definitivo"],
    [{ ...DEFINITIVO, codigo: 245, nome: "Provisório" }, "Arquivamento provisório"],
    [CONCILIACAO, "Audiência de conciliação designada"],
    [AUDIENCIA, "Audiência realizada"],
    [
      { codigo: 12444, nome: "deferimento", dataHora: "2020-11-04T20:49:00.000Z" },
      "Decisão: pedido deferido",
    ],
    [
      { codigo: 60, nome: "Expedição de documento", dataHora: "2020-11-06T12:45:44.000Z" },
      "Expedição de documento",
    ],
  ])("reads %j as %s", (raw, title) => {
    expect(movementTitle(read(raw))).toBe(title);
  });

  it("says a criminal judgment in criminal words, a civil one as PJe words it", () => {
    const procedencia = read({
      codigo: 219,
      nome: "Procedência",
      dataHora: "2018-08-21T11:23:53.000Z",
    });
    const improcedencia = read({
      codigo: 220,
      nome: "Improcedência",
      dataHora: "2020-07-14T18:42:41.000Z",
    });

    expect(movementTitle(procedencia, { criminal: true })).toBe("Sentença condenatória");
    expect(movementTitle(improcedencia, { criminal: true })).toBe("Sentença absolutória");
    expect(movementTitle(procedencia)).toBe("Julgado procedente o pedido");
    expect(movementMeaning(procedencia, { criminal: true })).not.toMatch(/autor ganhou/);
  });
});

describe("complementReading", () => {
  it("writes DataJud's descriptors as words and leaves out the TPU's internal number", () => {
    const distribuicao = {
      code: 2,
      value: 1,
      name: "competência exclusiva",
      description: "tipo_de_distribuicao_redistribuicao",
    };

    expect(complementReading(distribuicao)).toBe("tipo de distribuição: competência exclusiva");
    expect(
      complementReading({ code: 3, value: 6, name: null, description: "tipo_de_conclusao" }),
    ).toBe("tipo de conclusão: 6");
  });
});

describe("hearingSituation and isCriminalClass", () => {
  it("reads the situation from its complement", () => {
    expect(hearingSituation(read(CONCILIACAO))).toBe("designada");
    expect(hearingSituation(read(AUDIENCIA))).toBe("realizada");
  });

  it("tells criminal classes from civil ones by name", () => {
    expect(isCriminalClass("Ação Penal - Procedimento Ordinário")).toBe(true);
    expect(isCriminalClass("Apelação Criminal")).toBe(true);
    expect(isCriminalClass("Procedimento Comum Cível")).toBe(false);
    expect(isCriminalClass("Execução Fiscal")).toBe(false);
  });
});
