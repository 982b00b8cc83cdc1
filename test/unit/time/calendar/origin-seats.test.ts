import { describe, expect, it } from "vitest";
import {
  calendarsWith,
  estimatePublication,
  type PublicationLike,
  seatOfUnitName,
} from "../../../../src/deadlines/publication-estimate.js";
import {
  ORIGIN_SEATS,
  parseOriginSeats,
  seatOfCaseNumber,
} from "../../../../src/time/calendar/origin-seats.js";

describe("the seat a CNJ number's origin segment names", () => {
  // Each entry sampled against the pairing its source states (origin-seats.json, `source`).
  it("reads each shipped entry as its source pairs number and unit", () => {
    // TJSP: a Vara Cível Central number (foro 0100) is the capital's Foro Central.
    expect(seatOfCaseNumber("0001234-56.2023.8.26.0100")).toMatchObject({
      court: "tjsp",
      municipality: { ibge: 3550308, name: "São Paulo" },
      uf: "sp",
    });
    // TJRJ: '41ª Vara Cível da Capital' under 8.19.0001.
    expect(seatOfCaseNumber("30593435720268190001")).toMatchObject({
      court: "tjrj",
      municipality: { ibge: 3304557, name: "Rio de Janeiro" },
    });
    // TJRS: foro 0001, Foro Central de Porto Alegre.
    expect(seatOfCaseNumber("5001234-56.2024.8.21.0001")).toMatchObject({
      court: "tjrs",
      municipality: { ibge: 4314902, name: "Porto Alegre" },
    });
    // TRF3: 2009.61.00.054545-X became 0054545-YZ.2009.4.03.6100 (61 JFSP, 00 São Paulo).
    expect(seatOfCaseNumber("0054545-00.2009.4.03.6100")).toMatchObject({
      court: "trf3",
      municipality: { ibge: 3550308 },
      uf: "sp",
    });
    // TRF5: 83 the Seção Judiciária de Pernambuco, 00 Recife.
    expect(seatOfCaseNumber("0013996-35.2011.4.05.8300")).toMatchObject({
      court: "trf5",
      municipality: { ibge: 2611606, name: "Recife" },
      uf: "pe",
    });
  });

  // A sample of the lists, each checked by hand against the line of its source quoted above it.
  it("reads the TJSP's foros as its list pairs code, foro and comarca", () => {
    // jjesusfilho/tjsp data/codigos.rda: "08 | 26 | Campinas | 114 | Foro de Campinas".
    expect(seatOfCaseNumber("1001234-56.2024.8.26.0114")).toMatchObject({
      municipality: { ibge: 3509502, name: "Campinas" },
      uf: "sp",
    });
    // "08 | 26 | São Paulo | 2 | Foro Regional II - Santo Amaro": a foro regional of the capital.
    expect(seatOfCaseNumber("0001234-56.2023.8.26.0002")?.municipality.ibge).toBe(3550308);
    // "08 | 26 | Mogi das Cruzes | 91 | Foro Distrital de Brás Cubas": Brás Cubas is a district
    // of Mogi das Cruzes, no municipality of its own.
    expect(seatOfCaseNumber("0001234-56.2023.8.26.0091")?.municipality.name).toBe(
      "Mogi das Cruzes",
    );
    // "08 | 26 | Itapecerica da Serra | 177 | Foro Distrital de Embu-Guaçu": a foro distrital
    // sits in its own municipality, not the comarca's.
    expect(seatOfCaseNumber("0001234-56.2023.8.26.0177")?.municipality).toEqual({
      ibge: 3515103,
      name: "Embu-Guaçu",
    });
    // DataJud's records agree: 00104905620258260309 is '06 CIVEL DE JUNDIAI'
    // ("08 | 26 | Jundiaí | 309 | Foro de Jundiaí"), 10535655720248260053 '16 FAZENDA PUBLICA
    // DE CENTRAL' ("08 | 26 | São Paulo | 53 | Foro Central - Fazenda Pública/Acidentes").
    expect(seatOfCaseNumber("00104905620258260309")?.municipality.name).toBe("Jundiaí");
    expect(seatOfCaseNumber("10535655720248260053")?.municipality.name).toBe("São Paulo");
    // Every one of the source's 388 foros is placed (0100 by its own entry).
    expect(ORIGIN_SEATS.filter((seat) => seat.court === "tjsp")).toHaveLength(388);
  });

  it("reads the TJRS's foros, the capital's regional ones among them", () => {
    // courtsbr/scraperTJRS comarcas_tjrs: "Caxias do Sul | Foro de Caxias do Sul | 0010 | 010".
    expect(seatOfCaseNumber("5001234-56.2024.8.21.0010")?.municipality).toEqual({
      ibge: 4305108,
      name: "Caxias do Sul",
    });
    // "Porto Alegre | Foro Regional do Partenon | 3001 | 001".
    expect(seatOfCaseNumber("5001234-56.2024.8.21.3001")?.municipality.ibge).toBe(4314902);
    // "Santana do Livramento | Foro de Santana do Livramento | 0025": IBGE spells it Sant'Ana.
    expect(seatOfCaseNumber("5001234-56.2024.8.21.0025")?.municipality.ibge).toBe(4317103);
  });

  it("reads the federal seções at their capital and the subseções at their city", () => {
    // jjesusfilho/trf1 trf1_codigo: "Seção Judiciária de Mato Grosso | MT | 3600"; a seção sits
    // in the state's capital (CF art. 110; Lei 5.010/1966 art. 3).
    expect(seatOfCaseNumber("1001234-56.2026.4.01.3600")).toMatchObject({
      court: "trf1",
      municipality: { ibge: 5103403, name: "Cuiabá" },
      uf: "mt",
    });
    // "Seção Judiciária do Distrito Federal | DF | 3400".
    expect(seatOfCaseNumber("1001234-56.2026.4.01.3400")?.municipality.ibge).toBe(5300108);
    // "Subseção Judiciária de Tefé (AM) | TFE | 3202"; the DataJud wiki's example
    // 00008323520184013202 is 'JEF Adj - Tefé'.
    expect(seatOfCaseNumber("00008323520184013202")?.municipality).toEqual({
      ibge: 1304203,
      name: "Tefé",
    });
    // Minas Gerais (38xx) left the TRF1 for the TRF6 (Lei 14.226/2021): not placed.
    expect(seatOfCaseNumber("1001234-56.2020.4.01.3800")).toBeNull();
    // jjesusfilho/trf3 trf3_distribuidores: "Ribeirão Preto (2ª Subseção) | 6102",
    // "Campo Grande (1ª Subseção) | 6001".
    expect(seatOfCaseNumber("5001234-56.2024.4.03.6102")?.municipality.name).toBe("Ribeirão Preto");
    expect(seatOfCaseNumber("5001234-56.2024.4.03.6001")).toMatchObject({
      municipality: { ibge: 5002704, name: "Campo Grande" },
      uf: "ms",
    });
  });

  it("reads the pairings DataJud's own records make", () => {
    // tjal 00016632020118020049: 'Foro de Penedo - 3ª Vara Cível de Penedo', IBGE 2706703.
    expect(seatOfCaseNumber("00016632020118020049")?.municipality.name).toBe("Penedo");
    // tjdft 07223914020178070001: 'VARA DE EXECUÇÃO FISCAL DO DF', IBGE 5300108.
    expect(seatOfCaseNumber("07223914020178070001")?.municipality.ibge).toBe(5300108);
  });

  it("knows nothing of a code it does not list, nor of a malformed number", () => {
    // TJSP 0023 is in no list read here.
    expect(seatOfCaseNumber("0001234-56.2023.8.26.0023")).toBeNull();
    // The same digits under another court: 8.19.0100 is not the TJSP's Foro Central.
    expect(seatOfCaseNumber("0001234-56.2023.8.19.0100")).toBeNull();
    expect(seatOfCaseNumber("123")).toBeNull();
    expect(seatOfCaseNumber(null)).toBeNull();
  });

  it("refuses a table whose IBGE code is not of the state it names, or a code listed twice", () => {
    const seat = ORIGIN_SEATS[0];
    expect(() =>
      parseOriginSeats({
        about: "",
        seats: [{ ...seat, municipality: { ibge: 3304557, name: "x" } }],
      }),
    ).toThrow(/not of that state/u);
    expect(() => parseOriginSeats({ about: "", seats: [seat, seat] })).toThrow(/listed twice/u);
  });
});

function intimacao(court: string, caseNumber: string, availableOn: string): PublicationLike {
  return {
    court,
    kind: "Intimação",
    documentType: "Despacho",
    className: "Procedimento Comum Cível",
    medium: "D",
    availableOn,
    caseNumber,
    recipients: [],
    lawyers: [{}],
  };
}

const TEXT = "Intime-se a parte autora para, no prazo de 5 (cinco) dias, manifestar-se.";

describe("publications dated at the seat the number names when DataJud gives none", () => {
  it("TJRS 0001: Porto Alegre's 02/02 moves the publication (Lei 11.419/2006 art. 4 §3)", () => {
    // Made available Fri 30/01/2026. Mon 02/02 is Nossa Senhora dos Navegantes in Porto Alegre
    // (municipal-days.ts): published Tue 03/02, counting from Wed 04/02 (CPC art. 224 §3);
    // 5 business days (CPC art. 219): 04, 05, 06, 09, 10/02. Without the seat: 09/02, a day early.
    const estimate = estimatePublication(
      intimacao("TJRS", "5001234-56.2026.8.21.0001", "2026-01-30"),
      TEXT,
      calendarsWith(),
    );
    expect(estimate.publishedOn).toBe("2026-02-03");
    expect(estimate.countingStartsOn).toBe("2026-02-04");
    expect(estimate.lastDay).toBe("2026-02-10");
    expect(estimate.notes[0]).toMatch(/^sede pelo número do processo: Porto Alegre \(RS\)/u);
    expect(estimate.skippedDays.some((day) => day.from === "2026-02-02")).toBe(true);
  });

  it("TRF5 8300: Pernambuco's Data Magna (06/03, Lei PE 16.059/2017) in a six-state region", () => {
    // Made available Thu 05/03/2026; Fri 06/03 closed in Pernambuco: published Mon 09/03,
    // counting from Tue 10/03; 5 business days: 10, 11, 12, 13, 16/03.
    const estimate = estimatePublication(
      intimacao("TRF5", "0013996-35.2026.4.05.8300", "2026-03-05"),
      TEXT,
      calendarsWith(),
    );
    expect(estimate.publishedOn).toBe("2026-03-09");
    expect(estimate.lastDay).toBe("2026-03-16");
    expect(estimate.notes[0]).toContain("Recife (PE)");
  });

  it("TRF1 3600, newly placed: Cuiabá's 08/04 (Lei municipal 1.077/1968) in a 13-state region", () => {
    // Made available Tue 07/04/2026 (after Holy Week, Lei 5.010/1966 art. 62). Wed 08/04 is the
    // founding of Cuiabá, a municipal holiday: published Thu 09/04 (Lei 11.419/2006 art. 4 §3),
    // counting from Fri 10/04 (§4); 5 business days: 10, 13, 14, 15, 16/04. Without the seat:
    // published 08/04, last day 15/04, a day early.
    const estimate = estimatePublication(
      intimacao("TRF1", "1001234-56.2026.4.01.3600", "2026-04-07"),
      TEXT,
      calendarsWith(),
    );
    expect(estimate.publishedOn).toBe("2026-04-09");
    expect(estimate.countingStartsOn).toBe("2026-04-10");
    expect(estimate.lastDay).toBe("2026-04-16");
    expect(estimate.notes[0]).toMatch(
      /^sede pelo número do processo: Cuiabá \(MT\), código de origem 3600/u,
    );
    expect(estimate.skippedDays.some((day) => day.from === "2026-04-08")).toBe(true);
  });

  it("DataJud's seat, when given, wins over the number's", () => {
    // 4304606 Canoas is no capital: its municipal days are unknown, and 02/02 works there.
    const estimate = estimatePublication(
      intimacao("TJRS", "5001234-56.2026.8.21.0001", "2026-01-30"),
      TEXT,
      calendarsWith(),
      { municipality: 4304606 },
    );
    expect(estimate.publishedOn).toBe("2026-02-02");
    expect(estimate.notes.some((note) => note.startsWith("sede pelo número"))).toBe(false);
  });
});

describe("the seat DJEN's unit name names, where neither DataJud nor the number does", () => {
  it("reads 'Comarca de <capital>', 'Comarca da Capital' and a labour unit of a capital", () => {
    expect(seatOfUnitName("tjrs", "1ª Vara Cível da Comarca de Porto Alegre")).toBe(4314902);
    expect(seatOfUnitName("tjrj", "Cartório da 41ª Vara Cível da Comarca da Capital")).toBe(
      3304557,
    );
    // TRT11 sits in Amazonas and Roraima: the unit's city gives the state too.
    expect(seatOfUnitName("trt11", "1ª Vara do Trabalho de Manaus")).toBe(1302603);
    expect(seatOfUnitName("trt11", "Vara do Trabalho de Boa Vista")).toBe(1400100);
  });

  it("reads nothing it cannot place: another city, a capital of another state, a bare foro", () => {
    expect(seatOfUnitName("tjsp", "Comarca de Campinas - 1ª Vara Cível")).toBeNull();
    expect(seatOfUnitName("tjsp", "1ª Vara Cível da Comarca de Porto Alegre")).toBeNull();
    expect(seatOfUnitName("tjsp", "Foro Central Cível - 12ª Vara Cível")).toBeNull();
    // "Comarca da Capital" in a region of several states names no one capital.
    expect(seatOfUnitName("trf5", "Comarca da Capital")).toBeNull();
    expect(seatOfUnitName("tjrs", null)).toBeNull();
  });

  it("dates a TJRS item by its unit when the number's origin is not in the table", () => {
    // Origin 0162 is not in origin-seats.json; the unit says Porto Alegre: made available Fri
    // 30/01/2026, published Tue 03/02 (02/02 Navegantes), 5 days to 10/02 as above.
    const estimate = estimatePublication(
      {
        ...intimacao("TJRS", "5009876-12.2026.8.21.0162", "2026-01-30"),
        courtUnit: "3ª Vara Cível da Comarca de Porto Alegre",
      },
      TEXT,
      calendarsWith(),
    );
    expect(estimate.publishedOn).toBe("2026-02-03");
    expect(estimate.lastDay).toBe("2026-02-10");
    expect(estimate.notes[0]).toBe("sede pelo nome da unidade no DJEN: Porto Alegre (RS)");
  });
});
