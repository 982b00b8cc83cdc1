import { describe, expect, it } from "vitest";
import { movementTable } from "../../../src/cli/export-table.js";
import { csvField, tableCsv } from "../../../src/cli/spreadsheet.js";
import { publicationFacts } from "../../../src/djen/publication-facts.js";
import type { HistoryPublication } from "../../../src/mcp/history-schemas.js";
import type { MovementRow } from "../../../src/store/movements.js";
import { testMovement, testMovementRow } from "../../support/movement.js";

const HEADER =
  '"case","court","label","instance","date","code","name","complements","first_seen_at","date_as_sent","source","document_type","court_unit","published_on_estimate","counting_starts_on_estimate","last_day_estimate","session","deadline_rule","days_skipped","cancelled","cancellation_reason","in_watchlist","disposition","djen_id","certificate_url","link","text","earlier_versions","title","listing","no_longer_listed_at"';

const TEXT = "Fica a parte intimada para se manifestar em 5 (cinco) dias.";

// Tue 30/09/2025 -> published Wed 01/10, counts from Thu 02/10; 5 business days: 2,3,6,7,8/10.
const FACTS = publicationFacts(
  {
    court: "TJDFT",
    courtUnit: "1ª Vara Cível de Ceilândia",
    kind: "Intimação",
    documentType: "Despacho",
    className: "PROCEDIMENTO COMUM CÍVEL",
    availableOn: "2025-09-30",
    medium: "D",
    caseNumber: "07133834320258070006",
    recipients: [],
    lawyers: [],
  },
  { text: TEXT },
);

function publication(patch: Partial<HistoryPublication> = {}): HistoryPublication {
  return {
    djenId: "1002",
    cnjNumber: "0713383-43.2025.8.07.0006",
    ...FACTS,
    firstSeenAt: "2025-09-30T14:00:00.000Z",
    foundBy: ["case:07133834320258070006"],
    disposition: "alert",
    cancelled: null,
    text: TEXT,
    textChars: TEXT.length,
    link: null,
    certificateUrl: "https://djen.example/api/v1/comunicacao/h/certidao",
    ...patch,
  };
}

const SAO_PAULO = "America/Sao_Paulo";

function row(patch: Partial<MovementRow> = {}): MovementRow {
  const data = testMovement({
    id: "m1",
    code: 193,
    name: "Julgamento",
    dateTime: "2025-11-20T00:15:00",
    dateTimeRaw: "2025-11-20T00:15:00.000Z",
    complements: [{ code: 1, name: "tipo", value: "procedente", description: null }],
  });
  return testMovementRow(data, { changeId: 3, ...patch });
}

describe("movement CSV", () => {
  it("quotes every text field as RFC 4180 does, and leaves numbers bare", () => {
    expect(csvField('Silva, "Souza"\r\nx')).toBe('"Silva, ""Souza""\r\nx"');
    expect(csvField("plain")).toBe('"plain"');
    expect(csvField(null)).toBe("");
    expect(csvField(193)).toBe("193");
  });

  it("never lets a spreadsheet read court text as a formula", () => {
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField("+1")).toBe('"\'+1"');
    expect(csvField("@cmd")).toBe('"\'@cmd"');
    expect(csvField(' "=cmd"')).toBe('" ""\'=cmd"""');
  });

  // The campaign's payloads: pt-BR Excel split the bare field on `;` and ran the second cell.
  const PAYLOADS = [
    "Despacho;=cmd|' /C calc'!A0;",
    "Juntada; +SUM(1,2)",
    "Decisão\t-2+3",
    'Vista;"=HYPERLINK(""http://x"")"',
    "Ato, @SUM(A1)",
    "linha\n=1+1",
    "fim;\r\n-1",
  ];

  /** Each cell a spreadsheet splitting on `delimiter` sees, quotes honoured only at a cell's start. */
  function spreadsheetCells(line: string, delimiter: string): string[] {
    const cells: string[] = [];
    let i = 0;
    while (i <= line.length) {
      let cell = "";
      if (line[i] === '"') {
        i += 1;
        while (i < line.length && !(line[i] === '"' && line[i + 1] !== '"')) {
          cell += line[i];
          i += line[i] === '"' ? 2 : 1;
        }
        i += 1;
      }
      while (i < line.length && line[i] !== delimiter) cell += line[i++];
      cells.push(cell);
      i += 1;
    }
    return cells;
  }

  it("neutralises a formula in every cell however a spreadsheet splits the row: `,`, `;` or tab", () => {
    const csv = tableCsv(
      movementTable(
        PAYLOADS.map((name) => ({
          number: "1000123-59.2024.5.02.0001",
          court: "trt2",
          label: name,
          movement: row({ name }),
        })),
      ),
      SAO_PAULO,
    );

    for (const delimiter of [",", ";", "\t"]) {
      // Split on every line break too: a field split on the wrong delimiter loses its quotes.
      const cells = csv
        .slice(1)
        .split(/\r\n|\r|\n/)
        .flatMap((line) => spreadsheetCells(line, delimiter));
      const formulas = cells.filter((cell) => /^[ "]*[=+\-@]/.test(cell));
      expect({ delimiter, formulas }).toEqual({ delimiter, formulas: [] });
    }
    // Quotes ignored altogether: still no piece starts a formula.
    const pieces = csv.slice(1).split(/[,;\t\r\n]/);
    expect(pieces.filter((piece) => /^[ "]*[=+\-@]/.test(piece))).toEqual([]);
    expect(csv.startsWith("\uFEFF")).toBe(true);
  });

  it("writes a BOM, a header and one CRLF row per movement, dated as the court recorded it, first seen in São Paulo time", () => {
    const csv = tableCsv(
      movementTable([
        {
          number: "1000123-59.2024.5.02.0001",
          court: "trt2",
          label: "Reclamação, João",
          movement: row(),
        },
      ]),
      SAO_PAULO,
    );

    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(csv.slice(1).split("\r\n")).toEqual([
      HEADER,
      '"1000123-59.2024.5.02.0001","trt2","Reclamação, João","G1","2025-11-20 00:15:00",193,"Julgamento","tipo: procedente","2025-11-21 07:00:00","2025-11-20T00:15:00.000Z","datajud",,,,,,,,,,,,,,,,,,"Julgamento","listed",',
      "",
    ]);
  });

  it("writes a corrected movement's earlier forms last, as the court recorded them", () => {
    const before = testMovement({
      id: "pub",
      code: 92,
      name: "Publicação",
      dateTime: "2025-11-05T00:00:00",
      complements: [],
    });

    const table = movementTable([
      {
        number: "1000123-59.2024.5.02.0001",
        court: "trt2",
        label: null,
        movement: row(),
        earlier: [before],
      },
    ]);

    const line = tableCsv(table, SAO_PAULO).split("\r\n")[1] ?? "";
    expect(line.endsWith(`,"05/11/2025 00:00 · Publicação","Julgamento","listed",`)).toBe(true);
  });

  it("shows our own instants in the schedule's zone, never UTC", () => {
    const table = movementTable([
      { number: "1000123-59.2024.5.02.0001", court: "trt2", label: null, movement: row() },
    ]);

    const manaus = tableCsv(table, "America/Manaus").split("\r\n")[1];

    expect(manaus).toContain(',"2025-11-21 06:00:00",');
  });

  it("writes DJEN publications after the movements: date of disponibilização, kind, estimates, cancellation", () => {
    const table = movementTable(
      [{ number: "1000123-59.2024.5.02.0001", court: "trt2", label: null, movement: row() }],
      [
        {
          label: "Despejo",
          inWatchlist: true,
          availableOnAsSent: "30/09/2025",
          publication: publication({
            cancelled: { seenAt: "2025-10-01T15:00:00.000Z", reason: "Publicada por engano" },
          }),
        },
        {
          label: null,
          inWatchlist: false,
          availableOnAsSent: "2025-09-30",
          publication: publication({
            djenId: "1003",
            cnjNumber: null,
            kind: null,
            text: "=cmd\nsegunda linha",
          }),
        },
      ],
    );

    const lines = tableCsv(table, SAO_PAULO).slice(1).split("\r\n");
    expect(lines[0]).toBe(HEADER);
    const rule = csvField(FACTS.rule.title);
    expect(lines[2]).toBe(
      `"0713383-43.2025.8.07.0006","tjdft","Despejo",,"2025-09-30",,"Intimação",,"2025-09-30 11:00:00","30/09/2025","djen","Despacho","1ª Vara Cível de Ceilândia","2025-10-01","2025-10-02","2025-10-08",,${rule},,"yes","Publicada por engano","yes","alert","1002","https://djen.example/api/v1/comunicacao/h/certidao",,"${TEXT}",,"Intimação",,`,
    );
    expect(lines[3]).toBe(
      `,"tjdft",,,"2025-09-30",,"Publicação",,"2025-09-30 11:00:00","2025-09-30","djen","Despacho","1ª Vara Cível de Ceilândia","2025-10-01","2025-10-02","2025-10-08",,${rule},,"no",,"no","alert","1003","https://djen.example/api/v1/comunicacao/h/certidao",,"'=cmd\nsegunda linha",,"Publicação",,`,
    );
    expect(lines).toHaveLength(5);
  });

  it("keeps a movement DataJud stopped listing, marked hidden or deleted with the instant it went", () => {
    const gone = row({ disappearedAt: "2025-12-01T13:00:00.000Z" });
    const table = movementTable([
      { number: "1", court: "trt2", label: null, movement: gone, listing: "hidden" },
      { number: "1", court: "trt2", label: null, movement: gone },
    ]);

    const [hidden, deleted] = tableCsv(table, SAO_PAULO).split("\r\n").slice(1);

    expect(hidden?.endsWith(`,"Julgamento","hidden","2025-12-01 10:00:00"`)).toBe(true);
    expect(deleted?.endsWith(`,"Julgamento","deleted","2025-12-01 10:00:00"`)).toBe(true);
  });
});
