import { describe, expect, it } from "vitest";
import { Publication, readDjenDate, toPublication } from "../../../src/djen/publication.js";
import { RawItem } from "../../../src/djen/raw-schemas.js";
import { djenItem } from "../../fakes/fake-djen.js";

const BASE = "https://comunicaapi.pje.jus.br";

function normalize(raw: Record<string, unknown>): Publication {
  const item = RawItem.parse(raw);
  const result = toPublication(item, raw, { baseUrl: BASE });
  if (!result.ok) throw new Error(result.problem);
  return Publication.parse(result.value);
}

describe("toPublication", () => {
  it("normalizes a snake_case item into the strict shape and keeps the raw item", () => {
    const raw = djenItem({ id: 417370278, date: "2025-09-29" });

    const publication = normalize(raw);

    expect(publication).toMatchObject({
      id: "417370278",
      hash: "h417370278AbCdEf",
      caseNumber: "07133834320258070006",
      caseNumberFormatted: "0713383-43.2025.8.07.0006",
      court: "TJDFT",
      courtUnit: "1ª Vara Cível de Ceilândia",
      kind: "Intimação",
      documentType: "Despacho",
      availableOn: "2025-09-29",
      medium: "D",
      link: "https://pje.example.jus.br/documento/123",
      certificateUrl: `${BASE}/api/v1/comunicacao/h417370278AbCdEf/certidao`,
      recipients: [
        { name: "FULANO DE TAL", side: "A" },
        { name: "EMPRESA X LTDA", side: "P" },
      ],
      lawyers: [{ name: "ANA ADVOGADA", oabNumber: "123456", oabDigits: "123456", uf: "SP" }],
      active: true,
      cancellation: null,
    });
    expect(publication.raw).toEqual(raw);
  });

  it("reads the camelCase variants to the same result", () => {
    const snake = normalize(djenItem({ id: 5 }));
    const camel = normalize(djenItem({ id: 5, camelCase: true }));

    const { raw: _a, ...snakeFields } = snake;
    const { raw: _b, ...camelFields } = camel;
    expect(camelFields).toEqual(snakeFields);
  });

  it("falls back to datadisponibilizacao written DD/MM/YYYY and to the masked number", () => {
    const raw: Record<string, unknown> = {
      id: "000123",
      siglaTribunal: "tjrj",
      datadisponibilizacao: "29/09/2025",
      numeroprocessocommascara: "0919992-11.2023.8.19.0001",
    };

    const publication = normalize(raw);

    expect(publication).toMatchObject({
      id: "123",
      court: "TJRJ",
      availableOn: "2025-09-29",
      caseNumber: "09199921120238190001",
      text: "",
      lawyers: [],
      link: null,
      certificateUrl: null,
    });
  });

  it("marks a cancellation with its reason and time", () => {
    const publication = normalize(djenItem({ id: 9, cancelled: "Publicado por engano" }));

    expect(publication.active).toBe(false);
    expect(publication.cancellation).toEqual({
      reason: "Publicado por engano",
      at: "2025-09-29T18:00:00",
    });
  });

  it("treats a cancellation reason without `ativo` as cancelled", () => {
    const raw = { ...djenItem({ id: 10 }), ativo: undefined, motivo_cancelamento: "Duplicada" };

    expect(normalize(raw).active).toBe(false);
  });

  it("keeps DJEN's link only on a court's host (jus.br), an http one as https", () => {
    const foreign = normalize(djenItem({ id: 12, link: "https://golpe.example/boleto" }));
    const lookAlike = normalize(djenItem({ id: 13, link: "https://tjdft.jus.br.golpe.example/x" }));
    const court = normalize(
      djenItem({ id: 14, link: "http://www3.tjrj.jus.br/gedcacheweb/x?a=1" }),
    );

    expect(foreign.link).toBeNull();
    expect(lookAlike.link).toBeNull();
    expect(court.link).toBe("https://www3.tjrj.jus.br/gedcacheweb/x?a=1");
  });

  it("keeps only http(s) links and certificate hashes of safe characters", () => {
    const raw = { ...djenItem({ id: 11, link: "javascript:alert(1)" }), hash: "../../x" };

    const publication = normalize(raw);

    expect(publication.link).toBeNull();
    expect(publication.certificateUrl).toBeNull();
  });

  it("reads wrong-typed optional fields as absent and drops unreadable list entries", () => {
    const raw = {
      ...djenItem({ id: 12 }),
      nomeOrgao: { nested: true },
      destinatarios: [null, 7, { nome: "PARTE", polo: "A" }],
      destinatarioadvogados: [{ advogado: null }, "x"],
    };

    const publication = normalize(raw);

    expect(publication.courtUnit).toBeNull();
    expect(publication.recipients).toEqual([{ name: "PARTE", side: "A" }]);
    expect(publication.lawyers).toEqual([]);
  });

  it("refuses an item without a date or a court: it could not be checked against a query", () => {
    const noDate = RawItem.parse({ id: 1, siglaTribunal: "TJSP" });
    const noCourt = RawItem.parse({ id: 2, data_disponibilizacao: "2025-09-29" });

    expect(toPublication(noDate, {}, { baseUrl: BASE })).toEqual({
      ok: false,
      problem: "item 1 has no readable data_disponibilizacao",
    });
    expect(toPublication(noCourt, {}, { baseUrl: BASE })).toEqual({
      ok: false,
      problem: "item 2 has no siglaTribunal",
    });
  });

  it("refuses an item whose id is not a number", () => {
    expect(RawItem.safeParse({ id: "abc" }).success).toBe(false);
    expect(RawItem.safeParse({ id: -1 }).success).toBe(false);
  });
});

describe("readDjenDate", () => {
  it.each([
    ["2025-09-29", "2025-09-29"],
    ["2025-09-29T00:00:00", "2025-09-29"],
    ["29/09/2025", "2025-09-29"],
    ["31/02/2025", null],
    ["2025-9-29", null],
    [null, null],
  ])("reads %j as %j", (input, expected) => {
    expect(readDjenDate(input)).toBe(expected);
  });
});
