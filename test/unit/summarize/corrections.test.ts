import { describe, expect, it } from "vitest";
import type { Movement } from "../../../src/datajud/instance-record.js";
import { normalizeMovement } from "../../../src/datajud/normalize.js";
import { correctionsOfChange, readCorrection } from "../../../src/summarize/corrections.js";
import { publicationEstimate } from "../../../src/summarize/datajud-publication.js";

function read(raw: object): Movement {
  const m = normalizeMovement(raw);
  if (m === null) throw new Error("fixture");
  return m;
}

const HEARING = {
  codigo: 12740,
  nome: "de Conciliação",
  dataHora: "2025-11-20T14:10:00.000Z",
  complementosTabelados: [
    { codigo: 15, valor: 9, nome: "designada", descricao: "situacao_da_audiencia" },
    { codigo: 16, valor: 17, nome: "conciliação", descricao: "tipo_de_audiencia" },
  ],
};

function situation(name: string): object {
  return {
    ...HEARING,
    complementosTabelados: [
      { codigo: 15, valor: 0, nome: name, descricao: "situacao_da_audiencia" },
      HEARING.complementosTabelados[1],
    ],
  };
}

describe("readCorrection", () => {
  it.each(["cancelada", "redesignada", "antecipada"])(
    "calls a hearing now %s urgent and says what it was and is",
    (now) => {
      const reading = readCorrection({
        instance: "G1",
        kind: "amended",
        before: read(HEARING),
        after: read(situation(now)),
      });

      expect(reading.headline).toBe(`Audiência de conciliação: designada → ${now}`);
      expect(reading.urgent).toContain(`audiência ${now}`);
      expect(reading.before).toContain("Audiência de conciliação designada");
    },
  );

  it("does not call a hearing held urgent", () => {
    const reading = readCorrection({
      instance: "G1",
      kind: "amended",
      before: read(HEARING),
      after: read(situation("realizada")),
    });

    expect(reading.urgent).toBeNull();
  });

  it("calls a re-dated publication urgent and gives its counting dates before and after", () => {
    const before = { codigo: 92, nome: "Publicação", dataHora: "2025-11-05T00:00:00.000Z" };

    const reading = readCorrection({
      instance: "G1",
      kind: "redated",
      before: read(before),
      after: read({ ...before, dataHora: "2025-11-06T00:00:00.000Z" }),
    });

    expect(reading.headline).toBe(
      "Publicação: data corrigida de 05/11/2025 00:00 para 06/11/2025 00:00",
    );
    expect(reading.urgent).toContain("mudou a data de que um prazo pode contar");
    // By hand: a Publicação on Wed 05/11/2025 counts from Thu 06/11 (CPC art. 224 §3); on Thu
    // 06/11, from Fri 07/11.
    expect(reading.counting?.before.countingStartsOn).toBe("2025-11-06");
    expect(reading.counting?.after.countingStartsOn).toBe("2025-11-07");
  });

  it("calls a re-dated publication urgent only while a period counted from it could run", () => {
    // A Publicação of June 2025 re-dated by a day, read in December 2026: no period counted from
    // either date can still be running (the longest, 30 days doubled to 60 dias úteis, ends
    // before October 2025 even across the recess), so it is a correction, not "⚠ URGENTE".
    const june = { codigo: 92, nome: "Publicação", dataHora: "2025-06-10T00:00:00.000Z" };
    const fix = {
      instance: "G1",
      kind: "redated" as const,
      before: read(june),
      after: read({ ...june, dataHora: "2025-06-11T00:00:00.000Z" }),
    };

    const late = readCorrection(fix, {}, new Date("2026-12-06T12:00:00.000Z"));
    expect(late.urgent).toBeNull();
    expect(late.headline).toBe(
      "Publicação: data corrigida de 10/06/2025 00:00 para 11/06/2025 00:00",
    );
    expect(late.counting?.after.countingStartsOn).toBe("2025-06-12");
    // 180 days after the later date (11/06/2025 + 180 = 08/12/2025) it still may matter; a day
    // later it no longer does.
    expect(readCorrection(fix, {}, new Date("2025-12-08T00:00:00.000Z")).urgent).toContain(
      "refaça a contagem",
    );
    expect(readCorrection(fix, {}, new Date("2025-12-09T00:00:01.000Z")).urgent).toBeNull();
    // Read in the week it happened, it is urgent.
    expect(readCorrection(fix, {}, new Date("2025-06-12T12:00:00.000Z")).urgent).toContain(
      "mudou a data de que um prazo pode contar",
    );
  });

  it("calls a re-dated routine act a correction, not urgent", () => {
    const before = {
      codigo: 60,
      nome: "Expedição de documento",
      dataHora: "2025-11-05T10:00:00.000Z",
    };

    const reading = readCorrection({
      instance: "G1",
      kind: "redated",
      before: read(before),
      after: read({ ...before, dataHora: "2025-11-07T10:00:00.000Z" }),
    });

    expect(reading.urgent).toBeNull();
    expect(reading.counting).toBeNull();
  });
});

describe("publicationEstimate", () => {
  it("estimates a disponibilização as a DJEN item: published the next working day, counted from the one after", () => {
    // By hand (Lei 11.419/2006 art. 4 §§3-4): Fri 14/11/2025 made available; Sat-Sun closed,
    // published Mon 17/11; Thu 20/11 is a national holiday since Lei 14.759/2023, but the count
    // starts Tue 18/11.
    const estimate = publicationEstimate({ code: 1061, dateTime: "2025-11-14T13:41:41" });

    expect(estimate).toMatchObject({ publishedOn: "2025-11-17", countingStartsOn: "2025-11-18" });
    expect(estimate?.rule).toContain("Lei 11.419/2006");
  });

  it("takes DataJud's Publicação day as the publication: the earliest start the law allows", () => {
    const estimate = publicationEstimate({ code: 92, dateTime: "2025-11-19T16:37:19" });

    // Wed 19/11/2025 published; Thu 20/11 is Zumbi e da Consciência Negra: counted from Fri 21/11.
    expect(estimate).toMatchObject({ publishedOn: "2025-11-19", countingStartsOn: "2025-11-21" });
  });
});

describe("correctionsOfChange", () => {
  it("reads a change's corrections and leaves out what cannot be read", () => {
    const before = read(HEARING);
    const after = read(situation("cancelada"));

    const read1 = correctionsOfChange({
      corrections: [{ instance: "G1", kind: "amended", before, after }, { instance: "G1" }],
    });

    expect(read1).toEqual([{ instance: "G1", kind: "amended", before, after }]);
    expect(correctionsOfChange({ newInstances: [] })).toEqual([]);
    expect(correctionsOfChange(null)).toEqual([]);
  });
});
