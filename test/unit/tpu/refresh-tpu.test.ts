import { describe, expect, it } from "vitest";
import {
  csvRows,
  dayOf,
  itemsFromGateway,
  itemsFromSgtCsv,
  tableFile,
  tableText,
} from "../../../scripts/refresh-tpu.js";
import { TableFileSchema } from "../../../src/tpu/schema.js";

const source = {
  publisher: "CNJ, Tabela Processual Unificada de Movimentos",
  url: "https://gateway.cloud.pje.jus.br/tpu/api/v1/publico/download/movimentos",
  licence: "official act",
  retrieved: "2026-12-06",
};

describe("refresh-tpu", () => {
  it("reads the gateway's movements (id, movimento) and classes (cod_item, nome) alike", () => {
    const movements = itemsFromGateway([
      { id: 970, cod_item_pai: 48, movimento: "Audiência", situacao: "A", glossario: " " },
      { id: 12749, cod_item_pai: 970, movimento: "de Instrução ", data_versao: "2025-09-11" },
      { id: 48, cod_item_pai: 14, movimento: "Escrivão", extra: 1 },
      { id: 14, cod_item_pai: null, movimento: "Serventuário" },
    ]);
    const classes = itemsFromGateway([
      { cod_item: "7", cod_item_pai: "1107", nome: "Procedimento Comum Cível", situacao: "I" },
    ]);

    expect(movements.map((i) => [i.code, i.parent, i.name])).toEqual([
      [14, null, "Serventuário"],
      [48, 14, "Escrivão"],
      [970, 48, "Audiência"],
      [12749, 970, "de Instrução"],
    ]);
    expect(movements[3]?.version).toBe("2025-09-11");
    expect(movements[2]?.gloss).toBeUndefined();
    expect(classes).toEqual([
      {
        code: 7,
        parent: 1107,
        name: "Procedimento Comum Cível",
        active: false,
        version: "1970-01-01",
      },
    ]);
  });

  it("refuses an answer item without a code or a name", () => {
    expect(() => itemsFromGateway([{ cod_item_pai: 3, movimento: "x" }])).toThrow(/code/);
  });

  it("reads SGT's CSV with quoted names and empty parents", () => {
    const text = [
      "cod_item,cod_item_pai,nome,situacao,dat_versao,dsc_caminho_completo",
      "1,,Magistrado,A,2025-09-11 16:34:41,",
      '272,1,"A depender do julgamento de outra causa, de outro juízo",A,2025-09-11 16:34:41,',
      '15162,1,"Acolhimento de ""Embargos""",I,2022-09-20 15:53:38,',
    ].join("\r\n");

    expect(csvRows('a,"b,c"\n')).toEqual([["a", "b,c"]]);
    expect(itemsFromSgtCsv(text)).toEqual([
      { code: 1, parent: null, name: "Magistrado", active: true, version: "2025-09-11" },
      {
        code: 272,
        parent: 1,
        name: "A depender do julgamento de outra causa, de outro juízo",
        active: true,
        version: "2025-09-11",
      },
      {
        code: 15162,
        parent: 1,
        name: 'Acolhimento de "Embargos"',
        active: false,
        version: "2022-09-20",
      },
    ]);
  });

  it("writes one item a line, a file our schema reads back, and refuses orphans", () => {
    const items = itemsFromGateway([
      { id: 1, cod_item_pai: null, movimento: "Magistrado", data_versao: "2025-09-11" },
      { id: 3, cod_item_pai: 1, movimento: "Decisão", data_versao: "2026-04-09" },
    ]);
    const file = tableFile("movements", items, source);
    const text = tableText(file);

    expect(file.source.newestItem).toBe("2026-04-09");
    expect(TableFileSchema.parse(JSON.parse(text))).toEqual(file);
    expect(text).toContain(
      '\n    {"code":3,"parent":1,"name":"Decisão","active":true,"version":"2026-04-09"}\n',
    );
    expect(() => tableFile("movements", items.slice(1), source)).toThrow(/3 \(parent 1\)/);
  });

  it("reads SGT's dates as days", () => {
    expect(
      ["2025-09-11 16:34:41", "2025-09-11T16:34:41Z", "11/09/2025", "", null].map(dayOf),
    ).toEqual(["2025-09-11", "2025-09-11", "2025-09-11", "1970-01-01", "1970-01-01"]);
  });
});
