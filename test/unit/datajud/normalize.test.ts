import { describe, expect, it } from "vitest";
import { TEXT_MAX } from "../../../src/datajud/cut-text.js";
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
import { loadRealHits, REAL, realHit } from "../../support/real-datajud.js";

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

  it("sorts movements oldest first and keeps exact repeats as numbered copies", () => {
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

    expect(record.movements.map((m) => [m.name, m.occurrence])).toEqual([
      ["A", 1],
      ["B", 1],
      ["B", 2],
    ]);
    expect(record.movementCount).toBe(3);
    expect(new Set(record.movements.map((m) => m.id)).size).toBe(3);
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

describe("real DataJud records (test/fixtures/real-datajud)", () => {
  const hits = loadRealHits();

  function rawCount(hit: { _source: Record<string, unknown> }): number {
    const list = hit._source.movimentos;
    return Array.isArray(list) ? list.length : 0;
  }

  it("counts every movement DataJud lists, repeats included, in all eleven records", () => {
    const counts = Object.entries(hits).flatMap(([alias, list]) =>
      list.map((hit) => [normalizeInstanceRecord(hit, alias).movementCount, rawCount(hit)]),
    );

    expect(counts.map(([ours]) => ours)).toEqual(counts.map(([, theirs]) => theirs));
  });

  it("reads the tjrr record's 195 movements, 50 of them repeats, as 195 numbered copies", () => {
    const record = normalizeInstanceRecord(realHit(hits, "tjrr", REAL.tjrrRepeats, "G1"), "tjrr");

    const repeats = record.movements.filter((m) => m.occurrence > 1).length;
    const ids = new Set(record.movements.map((m) => m.id));

    expect([record.movementCount, record.movements.length, repeats, ids.size]).toEqual([
      195, 195, 50, 195,
    ]);
  });

  it("reads the tjdft record's 590 and 72 movements with their 36 and 10 repeats", () => {
    const g1 = normalizeInstanceRecord(realHit(hits, "tjdft", REAL.tjdftLong, "G1"), "tjdft");
    const g2 = normalizeInstanceRecord(realHit(hits, "tjdft", REAL.tjdftLong, "G2"), "tjdft");

    const repeats = [g1, g2].map((r) => r.movements.filter((m) => m.occurrence > 1).length);

    expect([g1.movementCount, g2.movementCount]).toEqual([590, 72]);
    expect(repeats).toEqual([36, 10]);
  });

  it("keeps every stamp as the court's wall clock, 00:00-02:59Z on the day written", () => {
    const record = normalizeInstanceRecord(realHit(hits, "tjrr", REAL.tjrrRepeats, "G1"), "tjrr");

    const early = record.movements.filter((m) => /T0[0-2]:/.test(String(m.dateTimeRaw)));

    expect(early.length).toBe(62);
    for (const m of early) {
      expect(m.dateTime).toBe(String(m.dateTimeRaw).slice(0, 19));
    }
  });

  it("reads tjsp's compact filing date as written", () => {
    const record = normalizeInstanceRecord(realHit(hits, "tjsp", REAL.tjspCompact, "G1"), "tjsp");

    expect([record.filedAt, record.filedAtRaw]).toEqual(["2025-09-19T10:42:20", "20250919104220"]);
  });

  it("repairs tjto's double-encoded complement and keeps what DataJud sent", () => {
    const record = normalizeInstanceRecord(realHit(hits, "tjto", REAL.tjtoMojibake, "G2"), "tjto");

    const complements = record.movements.flatMap((m) => m.complements);
    const repaired = complements.filter((c) => c.nameRaw !== undefined);

    expect(repaired.map((c) => [c.name, c.nameRaw])).toEqual([
      ["alteração de competência do órgão", "alteração de competência do Ã³rgÃ£o"],
      ["alteração de competência do órgão", "alteração de competência do Ã³rgÃ£o"],
    ]);
    expect(complements.filter((c) => /Ã/u.test(`${c.name}${c.description}${c.value}`))).toEqual([]);
  });

  it("leaves a `?` that replaced an accent as DataJud's loss", () => {
    const record = normalizeInstanceRecord(
      realHit(hits, "tjdft", "07223914020178070001", "G1"),
      "tjdft",
    );

    expect(record.courtUnit?.name).toBe("VARA DE EXECU??O FISCAL DO DF");
    expect(record.courtUnit?.nameRaw).toBeUndefined();
  });
});

describe("movement shapes", () => {
  it("reads a code and name nested under movimentoNacional as the flat shape", () => {
    const flat = normalizeMovement({
      codigo: 92,
      nome: "Publicação",
      dataHora: "2025-11-04T00:15:00Z",
    });
    const nested = normalizeMovement({
      movimentoNacional: { codigoNacional: 92, descricao: "Publicação" },
      dataHora: "2025-11-04T00:15:00Z",
    });

    expect(nested).toMatchObject({ code: 92, name: "Publicação", dateTime: "2025-11-04T00:15:00" });
    expect(nested?.identity).toBe(flat?.identity);
  });

  it("reads compact, Brazilian and epoch dates into the same wall clock", () => {
    const forms = [
      "20251104001500",
      "04/11/2025 00:15:00",
      Date.UTC(2025, 10, 4, 3, 15),
      "2025-11-04T00:15:00-03:00",
    ].map((dataHora) => normalizeMovement({ codigo: 92, nome: "Publicação", dataHora }));

    expect(forms.map((m) => m?.dateTime)).toEqual(Array(4).fill("2025-11-04T00:15:00"));
    expect(new Set(forms.map((m) => m?.identity)).size).toBe(1);
    expect(forms.map((m) => m?.dateTimeRaw)).toEqual([
      "20251104001500",
      "04/11/2025 00:15:00",
      Date.UTC(2025, 10, 4, 3, 15),
      "2025-11-04T00:15:00-03:00",
    ]);
  });
});

describe("texts DataJud sends too long", () => {
  it("stores a 10 MB movement name and complement cut, marked, and still told apart", () => {
    const huge = "Decisão ".repeat(1_250_000);
    const movement = (tail: string) =>
      normalizeMovement({
        codigo: 11009,
        nome: `${huge}${tail}`,
        dataHora: "2025-06-02T18:22:11.000Z",
        complementosTabelados: [
          { codigo: 1, nome: "tipo", valor: `${huge}${tail}`, descricao: huge },
        ],
      });

    const a = movement("A");
    const b = movement("B");

    expect(a?.name.length).toBeLessThanOrEqual(TEXT_MAX);
    expect(a?.name).toMatch(/\[texto cortado: 10\.000\.001 caracteres; sha256 [0-9a-f]{16}\]$/);
    expect(a?.complements[0]?.value).toMatch(/\[texto cortado: /);
    expect(String(a?.complements[0]?.value).length).toBeLessThanOrEqual(TEXT_MAX);
    expect(a?.complements[0]?.description?.length).toBeLessThanOrEqual(TEXT_MAX);
    expect(JSON.stringify(a).length).toBeLessThan(4 * TEXT_MAX);
    expect(a?.id).not.toBe(b?.id);
  });
});
