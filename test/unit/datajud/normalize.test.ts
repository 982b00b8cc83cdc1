import { describe, expect, it } from "vitest";
import { InstanceRecord } from "../../../src/datajud/instance-record.js";
import {
  caseFingerprint,
  type DriftCounter,
  fingerprintOfRecord,
  normalizeFingerprint,
  normalizeInstanceRecord,
  normalizeMovement,
} from "../../../src/datajud/normalize.js";
import { loadRecordedCases } from "../../support/fixtures.js";

const recorded = loadRecordedCases();

function doc(alias: string, index = 0): { _id: string; _source: Record<string, unknown> } {
  const found = recorded.indices[alias]?.[index];
  if (!found) throw new Error(`no fixture ${alias}[${index}]`);
  return found;
}

describe("normalizeInstanceRecord", () => {
  it("turns a clean DataJud hit into the strict English shape", () => {
    const hit = doc("tjdft");

    const record = normalizeInstanceRecord(hit, "tjdft");

    expect(InstanceRecord.parse(record)).toEqual(record);
    expect(record.cnjNumber).toBe("0713383-43.2025.8.07.0006");
    expect(record.instance).toBe("G1");
    expect(record.class).toEqual({ code: 92, name: "Despejo por Falta de Pagamento" });
    expect(record.courtUnit).toEqual({
      code: 7028,
      name: "2ª VARA CÍVEL DE SOBRADINHO",
      municipalityCode: 5300108,
    });
    // Dates are the court's wall clock as DataJud wrote them, the raw form beside.
    expect([record.filedAt, record.filedAtRaw]).toEqual([
      "2025-03-14T10:15:00",
      hit._source.dataAjuizamento,
    ]);
    expect(record.movementCount).toBe(5);
    expect(record.latestMovement?.code).toBe(85);
    expect(record.movements[0]?.complements[0]).toEqual({
      code: 2,
      name: "sorteio",
      value: 1,
      description: "tipo_de_distribuicao_redistribuicao",
    });
  });

  it("tolerates drift: string codes, nested subjects, compact dates, unreadable movements", () => {
    const drift: DriftCounter = new Map();

    const record = normalizeInstanceRecord(doc("tjsp"), "tjsp", drift);

    expect(InstanceRecord.parse(record)).toEqual(record);
    expect(record.class).toEqual({ code: 7, name: "Procedimento Comum Cível" });
    expect(record.secrecyLevel).toBe(0);
    expect(record.subjects.map((s) => s.code)).toEqual([7691, 4960]);
    expect(record.courtUnit?.municipalityCode).toBe(3552205);
    expect(record.movements.map((m) => m.code)).toEqual([26, 11009, 246]);
    expect(record.movements[0]?.dateTime).toBe("2022-05-11T09:30:00");
    expect(drift.get("novoCampoNaoDocumentado")).toBe(1);
  });

  it("keeps the record when whole fields have the wrong type", () => {
    const hit = {
      _id: "x",
      _source: {
        numeroProcesso: 123,
        classe: "not an object",
        movimentos: "nope",
        assuntos: [{ codigo: { nested: true }, nome: "Assunto" }, 42],
        grau: ["G1"],
      },
    };

    const record = normalizeInstanceRecord(hit, "tjsp");

    expect(InstanceRecord.parse(record)).toEqual(record);
    expect(record.class).toBeNull();
    expect(record.movements).toEqual([]);
    expect(record.instance).toBe("unknown");
  });

  it("sorts movements oldest first and drops exact duplicates", () => {
    const source = {
      numeroProcesso: "07133834320258070006",
      grau: "G1",
      movimentos: [
        { codigo: 2, nome: "B", dataHora: "2025-02-01T00:00:00Z" },
        { codigo: 1, nome: "A", dataHora: "2025-01-01T00:00:00Z" },
        { codigo: 2, nome: "B", dataHora: "2025-02-01T00:00:00Z" },
      ],
    };

    const record = normalizeInstanceRecord({ _id: "id", _source: source }, "tjdft");

    expect(record.movements.map((m) => m.name)).toEqual(["A", "B"]);
  });
});

describe("movement identity", () => {
  it("is the same for the same content and differs when any part differs", () => {
    const raw = { codigo: 85, nome: "Petição", dataHora: "2025-06-02T18:22:10.000Z" };

    const a = normalizeMovement(raw);
    const b = normalizeMovement({ ...raw });
    const c = normalizeMovement({ ...raw, dataHora: "2025-06-02T18:22:11.000Z" });

    expect(a?.id).toBe(b?.id);
    expect(a?.id).not.toBe(c?.id);
  });
});

describe("fingerprints", () => {
  it("match between a fingerprint-only hit and the full record", () => {
    const hit = doc("tjdft");
    const source = hit._source;
    const trimmed = {
      _id: hit._id,
      _source: {
        numeroProcesso: source.numeroProcesso,
        grau: source.grau,
        id: source.id,
        dataHoraUltimaAtualizacao: source.dataHoraUltimaAtualizacao,
        "@timestamp": source["@timestamp"],
      },
    };

    const fromBatch = normalizeFingerprint(trimmed);
    const fromRecord = fingerprintOfRecord(normalizeInstanceRecord(hit, "tjdft"));

    expect(fromBatch.fingerprint).toBe(fromRecord);
  });

  it("change when DataJud's update time moves, and do not depend on instance order", () => {
    const a = normalizeFingerprint({
      _id: "a",
      _source: { dataHoraUltimaAtualizacao: "2025-01-01T00:00:00Z" },
    });
    const moved = normalizeFingerprint({
      _id: "a",
      _source: { dataHoraUltimaAtualizacao: "2025-01-02T00:00:00Z" },
    });
    const b = normalizeFingerprint({ _id: "b", _source: {} });

    expect(a.fingerprint).not.toBe(moved.fingerprint);
    expect(caseFingerprint([a, b])).toBe(caseFingerprint([b, a]));
    expect(caseFingerprint([a, b])).not.toBe(caseFingerprint([moved, b]));
  });
});
