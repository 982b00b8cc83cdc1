import { describe, expect, it } from "vitest";
import type { InstanceRecord, Movement } from "../../../src/datajud/instance-record.js";
import { normalizeInstanceRecord } from "../../../src/datajud/normalize.js";
import { CaseSummary } from "../../../src/summarize/case-summary.js";
import { rulesSummary, statusCategoryOf } from "../../../src/summarize/rules-summary.js";
import { loadRealHits, loadRecordedCases } from "../../support/fixtures.js";
import { testMovement } from "../../support/movement.js";

const recorded = loadRecordedCases();
const NOW = new Date("2026-12-02T12:00:00.000Z");

function records(alias: string, digits: string): InstanceRecord[] {
  return (recorded.indices[alias] ?? [])
    .filter((d) => d._source.numeroProcesso === digits)
    .map((d) => normalizeInstanceRecord(d, alias));
}

function movement(code: number, name: string, dateTime: string): Movement {
  return testMovement({ id: `${code}-${dateTime}`, code, name, dateTime });
}

describe("rules summary", () => {
  it("reads an appeal judged on the second instance as decided, from that instance's own movements", () => {
    const juizado = records("tjdft", recorded.numbers.tjdftJuizado.replace(/\D/g, ""));

    expect(statusCategoryOf(juizado)).toBe("decided");
  });

  it("keeps a case decided when a publication follows the sentence", () => {
    const base = records(
      "tjdft",
      recorded.numbers.tjdftDespejo.replace(/\D/g, ""),
    )[0] as InstanceRecord;
    const sentence = movement(219, "Procedência", "2025-10-01T12:00:00.000Z");
    const publication = movement(92, "Publicação", "2025-10-02T12:00:00.000Z");
    const record = { ...base, movements: [...base.movements, sentence, publication] };

    const summary = rulesSummary({
      cnjNumber: base.cnjNumber,
      court: "tjdft",
      records: [record],
      newMovements: [sentence, publication],
      now: NOW,
    });

    expect(CaseSummary.parse(summary)).toEqual(summary);
    expect(summary.statusCategory).toBe("decided");
    expect(summary.needsLawyerAttention).toBe(true);
    expect(summary.attentionReasons.flatMap((r) => r.movements.map((m) => m.movementId))).toContain(
      sentence.id,
    );
    expect(summary.generatedBy).toBe("rules");
  });

  it("does not ask for attention over routine movements", () => {
    const base = records(
      "tjdft",
      recorded.numbers.tjdftDespejo.replace(/\D/g, ""),
    )[0] as InstanceRecord;
    const routine = movement(11010, "Mero expediente", "2025-10-01T12:00:00.000Z");

    const summary = rulesSummary({
      cnjNumber: base.cnjNumber,
      court: "tjdft",
      records: [{ ...base, movements: [...base.movements, routine] }],
      newMovements: [routine],
      now: NOW,
    });

    expect(summary.needsLawyerAttention).toBe(false);
    expect(summary.attentionReasons).toEqual([]);
    expect(summary.status).toContain("Mero expediente");
  });
});

/** The real tjto case with a first-instance and an appeal record (test/fixtures/datajud/real/). */
function tjtoRecords(): InstanceRecord[] {
  const hits = loadRealHits("tjto-00034953520178272716.json").tjto ?? [];
  return hits.map((h) => normalizeInstanceRecord(h, "tjto"));
}

function summarize(recordsNow: InstanceRecord[], newMovements: Movement[]) {
  return rulesSummary({
    cnjNumber: recordsNow[0]?.cnjNumber ?? "",
    court: "tjto",
    records: recordsNow,
    newMovements,
    now: NOW,
  });
}

function withNew(record: InstanceRecord, ...added: Movement[]): InstanceRecord {
  return { ...record, movements: [...record.movements, ...added] };
}

describe("rules summary wording a lawyer trusts", () => {
  it("names the appeal's class and unit when the news is in the appeal (G2), not the first instance's", () => {
    const [g1, g2] = ["G1", "G2"].map((g) => tjtoRecords().find((r) => r.instance === g));
    if (g1 === undefined || g2 === undefined) throw new Error("the tjto fixture has G1 and G2");
    const latestG2 = g2.movements.at(-1) as Movement;
    const latestG1 = g1.movements.at(-1) as Movement;

    const appeal = summarize([g1, g2], [latestG2]);
    const first = summarize([g1, g2], [latestG1]);

    expect(g2.class?.name).toBe("Apelação Cível");
    expect(appeal.status.startsWith(`Apelação Cível em ${g2.courtUnit?.name} (2º grau);`)).toBe(
      true,
    );
    expect(appeal.status).not.toContain(g1.courtUnit?.name ?? "?");
    expect(first.status.startsWith(`${g1.class?.name} em ${g1.courtUnit?.name} (1º grau);`)).toBe(
      true,
    );
  });

  it("treats an inclusão em pauta as a session listing: the session date and memoriais, not an audiência", () => {
    const [g1, g2] = tjtoRecords();
    if (g1 === undefined || g2 === undefined) throw new Error("two records");
    const pauta = movement(
      12105,
      "Inclusão em Pauta de Sessão Virtual",
      "2026-11-20T14:00:00.000Z",
    );

    const summary = summarize([g1, withNew(g2, pauta)], [pauta]);
    const words = [
      summary.status,
      summary.nextExpectedStep ?? "",
      ...summary.attentionReasons.map((r) => r.reason),
    ].join(" ");

    expect(summary.needsLawyerAttention).toBe(true);
    expect(summary.attentionReasons[0]?.reason).toMatch(/sessão de julgamento/);
    expect(summary.attentionReasons[0]?.reason).toMatch(/memoriais ou pedido de sustentação oral/);
    expect(words).not.toMatch(/audiência:/);
    expect(summary.nextExpectedStep).toMatch(/Sessão de julgamento/);
  });

  it("calls a publication a publication, and an intimação only when the movement says so", () => {
    const [g1] = tjtoRecords();
    if (g1 === undefined) throw new Error("a record");
    const published = movement(92, "Publicação", "2026-11-20T00:15:00.000Z");
    const made = movement(
      1061,
      "Disponibilização no Diário da Justiça Eletrônico",
      "2026-11-19T00:10:00.000Z",
    );
    const notice = testMovement({
      id: "intimacao",
      code: 60,
      name: "Expedição de documento",
      dateTime: "2026-11-21T10:00:00.000Z",
      complements: [{ code: 4, name: "Intimação", value: 12, description: "tipo_de_documento" }],
    });

    const publication = summarize([withNew(g1, made, published)], [made, published]);
    const intimation = summarize([withNew(g1, notice)], [notice]);

    expect(publication.attentionReasons.map((r) => r.reason)).toEqual([
      "publicação no Diário da Justiça Eletrônico: conferir o ato publicado e se ele abre prazo",
    ]);
    expect(JSON.stringify(publication)).not.toMatch(/intima/i);
    expect(intimation.attentionReasons.map((r) => r.reason)).toEqual([
      "intimação: pode abrir prazo",
    ]);
  });

  it("never gives a next step that contradicts the attention box", () => {
    const [g1] = tjtoRecords();
    if (g1 === undefined) throw new Error("a record");
    const archived = movement(246, "Definitivo", "2026-11-10T12:00:00.000Z");
    const published = movement(92, "Publicação", "2026-11-20T00:15:00.000Z");
    const quiet = movement(60, "Expedição de documento", "2026-11-20T12:00:00.000Z");

    const attention = summarize([withNew(g1, archived, published)], [published]);
    const calm = summarize([withNew(g1, archived, quiet)], [quiet]);

    expect(attention.statusCategory).toBe("archived");
    expect(attention.needsLawyerAttention).toBe(true);
    expect(attention.nextExpectedStep).toBe(
      "Conferir o ato publicado e o prazo que ele pode abrir.",
    );
    expect(calm.needsLawyerAttention).toBe(false);
    expect(calm.nextExpectedStep).toBe("Nenhum; o processo está arquivado definitivamente.");
  });

  it("gives no appeal deadline for a change that brought no act (a secrecy change)", () => {
    const [g1] = tjtoRecords();
    if (g1 === undefined) throw new Error("a record");
    const sentence = movement(219, "Procedência", "2025-03-10T12:00:00.000Z");
    const decided = { ...g1, movements: [...g1.movements, sentence], secrecyLevel: 1 };

    const summary = summarize([decided], []);

    expect(summary.statusCategory).toBe("decided");
    expect(summary.nextExpectedStep).toBe(
      "Nenhum ato novo nesta mudança; o último julgamento é de 10/03/2025: conferir nos autos se houve recurso ou trânsito em julgado.",
    );
  });

  it("writes the plural out", () => {
    const [g1] = tjtoRecords();
    if (g1 === undefined) throw new Error("a record");
    const one = movement(11010, "Mero expediente", "2026-11-20T12:00:00.000Z");
    const two = movement(85, "Petição", "2026-11-21T12:00:00.000Z");
    const three = movement(85, "Petição", "2026-11-22T12:00:00.000Z");

    const single = summarize([withNew(g1, one)], [one]);
    const several = summarize([withNew(g1, one, two, three)], [one, two, three]);

    expect(single.status).toContain("; 1 movimentação nova, a mais recente");
    expect(several.status).toContain("; 3 movimentações novas, a mais recente");
    expect(`${single.status}${several.status}`).not.toContain("(ões)");
  });
});
