import { describe, expect, it } from "vitest";
import type { InstanceRecord } from "../../../src/datajud/instance-record.js";
import { normalizeInstanceRecord } from "../../../src/datajud/normalize.js";
import { calendarsWith } from "../../../src/deadlines/publication-estimate.js";
import { actDeadline } from "../../../src/summarize/act-deadlines.js";
import { type FixtureDoc, loadRecordedCases } from "../../support/fixtures.js";
import { loadRealHits, type RawMovement, realHit } from "../../support/real-datajud.js";

/*
 * The audit's act readings (issue 35's independent check, round 3): an act's periods dated from
 * its DataJud 1061 "Disponibilização no Diário", on three real records edited as courts record a
 * judgment, each worked out BY HAND from the law and the court's calendar:
 * published the next business day after the 1061's day, counted from the one after (Lei
 * 11.419/2006 art. 4 §§3-4).
 */

const calendars = calendarsWith();
const hits = loadRealHits();

const DISPONIBILIZACAO = "Disponibilização no Diário da Justiça Eletrônico";

/** The act (the latest movement of its code) dated from the record's own 1061. */
function periodsOf(doc: FixtureDoc, alias: string, code: number, digits: string) {
  const record: InstanceRecord = normalizeInstanceRecord(doc, alias);
  const act = record.movements
    .filter((m) => m.code === code)
    .sort((a, b) => (a.dateTime ?? "").localeCompare(b.dateTime ?? ""))
    .at(-1);
  if (act === undefined) throw new Error(`no movement ${code}`);
  const deadline = actDeadline({
    instance: record.instance,
    act,
    record,
    caseNumber: digits,
    publications: [],
    calendars,
  });
  if (deadline === null) throw new Error("the act opens no period");
  return {
    publication: [deadline.publication?.publishedOn, deadline.publication?.countingStartsOn],
    periods: deadline.periods.map((p) => [p.name, p.lastDay]),
  };
}

function withMovements(doc: FixtureDoc, added: RawMovement[]): FixtureDoc {
  const source = doc._source as { movimentos: RawMovement[] };
  source.movimentos = [...source.movimentos, ...added];
  return doc;
}

describe("an act's periods from its 1061, audited by hand", () => {
  it("TJDFT civil sentence, 1061 Fri 18/12/2026: embargos Wed 27/01/2027, apelação Mon 15/02/2027 (Ash Wednesday closed by Lei 11.697/2008 art. 60)", () => {
    // The real tjdft record (sentence 220 and its 1061 of July 2020) moved to December 2026.
    // 21/12 to 06/01 recess (Lei 11.697/2008 art. 60 I; Res. CNJ 244/2016): published Thu
    // 07/01/2027; no count before 21/01 (CPC art. 220). Embargos, 5 BD (CPC art. 1.023): 21, 22,
    // 25, 26, 27/01. Apelação, 15 BD (art. 1.003 §5): 21, 22 (2), 25-29 (7), 01-05/02 (12);
    // 08 and 09/02 Carnival and 10/02 Ash Wednesday are holidays of the DF's courts (Lei
    // 11.697/2008 art. 60; TJDFT Portaria Conjunta 1/2024 lists the three under it): 11, 12
    // (14), Mon 15/02 (15). (Our first hand count, 12/02, had Ash Wednesday as a working day:
    // the engine was right, the law closes it.)
    const digits = "00125906120158070018";
    const doc = realHit(hits, "tjdft", digits, "G1");
    const source = doc._source as { movimentos: RawMovement[] };
    source.movimentos = source.movimentos
      .filter((m) => String(m.dataHora) <= "2020-07-16T23:59:59")
      .map((m) => {
        if (m.codigo === 220 && String(m.dataHora).startsWith("2020-07-14")) {
          return { ...m, dataHora: "2026-12-17T15:00:00.000Z" };
        }
        if (m.codigo === 1061 && m.dataHora === "2020-07-16T02:42:08.000Z") {
          return { ...m, dataHora: "2026-12-18T02:42:08.000Z" };
        }
        return m;
      });

    expect(periodsOf(doc, "tjdft", 220, digits)).toEqual({
      publication: ["2027-01-07", "2027-01-21"],
      periods: [
        ["apelação", "2027-02-15"],
        ["embargos de declaração", "2027-01-27"],
      ],
    });
  });

  it("TJTO criminal conviction, 1061 Thu 19/11/2026 before 20/11: embargos Wed 25/11, apelação Mon 30/11/2026", () => {
    // The real tjto record as a criminal case (class 283), TPU 219 on 18/11/2026. Fri 20/11 is
    // national (Lei 14.759/2023): published Mon 23/11, counted from Tue 24/11. Calendar days (CPP
    // art. 798): embargos 2 days (CPP art. 382): 24, 25/11. Apelação 5 days (CPP art. 593): 24-28,
    // Sat 28/11 -> Mon 30/11 (art. 798 §3). No Tocantins day between.
    const digits = "00034953520178272716";
    const doc = withMovements(realHit(hits, "tjto", digits, "G1"), [
      { codigo: 219, nome: "Procedência", dataHora: "2026-11-18T16:45:00.000Z" },
      { codigo: 1061, nome: DISPONIBILIZACAO, dataHora: "2026-11-19T03:00:00.000Z" },
    ]);
    (doc._source as { classe: unknown }).classe = {
      codigo: 283,
      nome: "Ação Penal - Procedimento Ordinário",
    };

    expect(periodsOf(doc, "tjto", 219, digits)).toEqual({
      publication: ["2026-11-23", "2026-11-24"],
      periods: [
        ["embargos de declaração", "2026-11-25"],
        ["apelação", "2026-11-30"],
      ],
    });
  });

  it("TRT2 sentence, São Paulo, 1061 Thu 17/12/2026: embargos Thu 28/01, recurso ordinário Tue 02/02/2027", () => {
    // The recorded trt2 claim (1ª Vara do Trabalho de São Paulo). Published Fri 18/12; the recess
    // (Lei 5.010/1966 art. 62 I, by the TRTs' regimentos) and CLT art. 775-A leave nothing to
    // count before Thu 21/01. Dias úteis (CLT art. 775): embargos 5 (CLT art. 897-A): 21, 22,
    // Mon 25/01 São Paulo's anniversary, 26, 27, 28/01. Recurso ordinário 8 (CLT art. 895): 21,
    // 22, 26-29 (6), 01, 02/02 (8).
    const recorded = loadRecordedCases();
    const claim = recorded.indices.trt2?.find((d) => d._source.grau === "G1");
    if (claim === undefined) throw new Error("no trt2 record");
    const doc = withMovements(structuredClone(claim), [
      { codigo: 219, nome: "Procedência", dataHora: "2026-12-16T16:45:00.000Z" },
      { codigo: 1061, nome: DISPONIBILIZACAO, dataHora: "2026-12-17T03:00:00.000Z" },
    ]);

    expect(periodsOf(doc, "trt2", 219, "10001235920245020001")).toEqual({
      publication: ["2026-12-18", "2027-01-21"],
      periods: [
        ["recurso ordinário", "2027-02-02"],
        ["embargos de declaração", "2027-01-28"],
      ],
    });
  });
});
