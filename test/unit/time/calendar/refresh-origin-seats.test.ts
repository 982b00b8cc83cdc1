import { describe, expect, it } from "vitest";
import {
  foldName,
  mergeSeats,
  municipalitiesOf,
  seatsFromList,
} from "../../../../scripts/refresh-origin-seats.js";
import { ORIGIN_SEATS, seatOfCaseNumber } from "../../../../src/time/calendar/origin-seats.js";

// Rows of IBGE's list (kelvins/municipios-brasileiros csv/municipios.csv), cut to two columns.
const IBGE = [
  "codigo_ibge,nome",
  "4305108,Caxias do Sul",
  "4314902,Porto Alegre",
  "4317103,Sant'Ana do Livramento",
  "3550308,São Paulo",
].join("\n");

// Rows of courtsbr/scraperTJRS comarcas_tjrs, as CSV.
const LIST = [
  "code,unit,municipality,comarca",
  "0010,Foro de Caxias do Sul,Caxias do Sul,Caxias do Sul",
  "3001,Foro Regional do Partenon,Porto Alegre,Porto Alegre",
  "0025,Foro de Santana do Livramento,Santana do Livramento,Santana do Livramento",
  "0163,Foro de Osório(Vara Integrada Terra de Areia),Terra de Areia,Osório",
].join("\n");

const TJRS = {
  court: "tjrs",
  segment: "8",
  tribunal: "21",
  uf: "rs" as const,
  url: "http://www.tjrs.jus.br/site/processos/numeracao_unica_de_processos_judiciais/",
  source:
    "TJRS, Numeração Única de Processos Judiciais (list of foros and CNJ codes, kept as courtsbr/scraperTJRS data/comarcas_tjrs.rda): {code} '{unit}', Comarca de {comarca}",
  unit: "{unit} (Comarca de {comarca})",
};

describe("seats:refresh, one court's codes from a published list", () => {
  it("matches names as IBGE spells them, within the state only", () => {
    expect(foldName("Sant'Ana do Livramento")).toBe("sant ana do livramento");
    expect(foldName("Mogi-Guaçu")).toBe(foldName("Mogi Guacu"));
    const rs = municipalitiesOf(IBGE, "rs");
    expect(rs.get("porto alegre")).toEqual({ ibge: 4314902, name: "Porto Alegre" });
    expect(rs.has("sao paulo")).toBe(false);
  });

  it("regenerates the committed entries from the source's rows", () => {
    const { seats, unplaced } = seatsFromList(LIST, municipalitiesOf(IBGE, "rs"), TJRS);
    for (const origin of ["0010", "3001"]) {
      expect(seats.find((seat) => seat.origin === origin)).toEqual(
        ORIGIN_SEATS.find((seat) => seat.court === "tjrs" && seat.origin === origin),
      );
    }
    // IBGE spells it Sant'Ana, the list Santana: left out unless an alias says so.
    expect(unplaced).toEqual([
      "0025 Foro de Santana do Livramento (Santana do Livramento)",
      "0163 Foro de Osório(Vara Integrada Terra de Areia) (Terra de Areia)",
    ]);
    const aliased = seatsFromList(LIST, municipalitiesOf(IBGE, "rs"), {
      ...TJRS,
      aliases: new Map([["Santana do Livramento", "Sant'Ana do Livramento"]]),
    });
    expect(aliased.seats.find((seat) => seat.origin === "0025")?.municipality.ibge).toBe(4317103);
  });

  it("replaces only the court's entries from that list, each in its place; other sources win", () => {
    const { seats } = seatsFromList(LIST, municipalitiesOf(IBGE, "rs"), TJRS);
    const merged = mergeSeats(ORIGIN_SEATS, seats, "tjrs", TJRS.url);
    // The list's other codes are gone (this cut of it has two); 0010 and 3001 stay where they were.
    expect(merged.filter((seat) => seat.court === "tjrs").map((seat) => seat.origin)).toEqual([
      "0010",
      "3001",
    ]);
    expect(merged.filter((seat) => seat.court !== "tjrs")).toEqual(
      ORIGIN_SEATS.filter((seat) => seat.court !== "tjrs"),
    );
    // Refreshed from the whole of its own entries, the table is unchanged.
    const tjrs = ORIGIN_SEATS.filter((seat) => seat.court === "tjrs" && seat.url === TJRS.url);
    expect(mergeSeats(ORIGIN_SEATS, tjrs, "tjrs", TJRS.url)).toEqual(ORIGIN_SEATS);
    // A new code goes after the last entry it replaces.
    const added = { ...tjrs[0], origin: "0170" } as (typeof tjrs)[0];
    const grown = mergeSeats(ORIGIN_SEATS, [...tjrs, added], "tjrs", TJRS.url);
    const last = ORIGIN_SEATS.map((seat) => seat.url === TJRS.url).lastIndexOf(true);
    expect(grown[last + 1]).toEqual(added);
    // A code read elsewhere (TJDFT 0001, DataJud's own record) is not overwritten by a list.
    const tjdft = {
      ...seats[0],
      court: "tjdft",
      tribunal: "07",
      origin: "0001",
    } as (typeof seats)[0];
    expect(mergeSeats(ORIGIN_SEATS, [tjdft], "tjdft", TJRS.url)).toHaveLength(ORIGIN_SEATS.length);
    expect(seatOfCaseNumber("07223914020178070001")?.municipality.name).toBe("Brasília");
  });
});
