import readXlsxFile from "read-excel-file/node";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../../src/cli/command.js";
import { type ExportTable, movementTable } from "../../../src/cli/export-table.js";
import { tableCsv, tableXlsx, writeTable, XLSX_MAX_ROWS } from "../../../src/cli/spreadsheet.js";
import type { MovementRow } from "../../../src/store/movements.js";
import { testMovement, testMovementRow } from "../../support/movement.js";

function movement(dateTime: string | null, raw: string | null): MovementRow {
  const data = testMovement({ id: "m1", code: 92, name: "Publicação", dateTime, dateTimeRaw: raw });
  return testMovementRow(data);
}

const TABLE: ExportTable = movementTable([
  {
    number: "0708123-34.2024.8.07.0001",
    court: "tjdft",
    label: "Condomínio Solar x Construtora Alfa",
    movement: movement("2025-11-04T00:15:00", "2025-11-04T00:15:00.000Z"),
  },
  {
    number: "0708123-34.2024.8.07.0001",
    court: "tjdft",
    label: '=HYPERLINK("http://x")\u0007',
    movement: movement("2025-11-05", "20251105"),
  },
]);

async function readBack(
  table: ExportTable,
  timeZone: string,
): Promise<{ sheet: string; rows: unknown[][] }> {
  const bytes = await tableXlsx(table, { timeZone, sheet: "0708123-34.2024.8.07.0001" });
  const [first] = await readXlsxFile(bytes);
  return { sheet: first?.sheet ?? "", rows: first?.data ?? [] };
}

describe("tableXlsx: a workbook a Brazilian spreadsheet opens with real dates", () => {
  it("writes the header and text as text, codes as numbers", async () => {
    const { sheet, rows } = await readBack(TABLE, "America/Sao_Paulo");

    expect(sheet).toBe("0708123-34.2024.8.07.0001");
    expect(rows[0]).toEqual(TABLE.columns);
    expect(rows[1]?.slice(0, 4)).toEqual([
      "0708123-34.2024.8.07.0001",
      "tjdft",
      "Condomínio Solar x Construtora Alfa",
      "G1",
    ]);
    expect(rows[1]?.[5]).toBe(92);
    expect(rows[1]?.[6]).toBe("Publicação");
    expect(rows[1]?.[9]).toBe("2025-11-04T00:15:00.000Z");
  });

  it("writes DataJud's dates as date cells holding the court's own digits, never shifted", async () => {
    const { rows } = await readBack(TABLE, "America/Sao_Paulo");

    // The date cell shows 04/11/2025 00:15 in any zone: its digits are the court's.
    expect(rows[1]?.[4]).toEqual(new Date(Date.UTC(2025, 10, 4, 0, 15, 0)));
    expect(rows[2]?.[4]).toEqual(new Date(Date.UTC(2025, 10, 5)));
  });

  it("writes our own instants as date cells in the schedule's zone, never UTC", async () => {
    const saoPaulo = await readBack(TABLE, "America/Sao_Paulo");
    const manaus = await readBack(TABLE, "America/Manaus");

    // 10:00 UTC is 07:00 in São Paulo and 06:00 in Manaus.
    expect(saoPaulo.rows[1]?.[8]).toEqual(new Date(Date.UTC(2025, 10, 21, 7, 0, 0)));
    expect(manaus.rows[1]?.[8]).toEqual(new Date(Date.UTC(2025, 10, 21, 6, 0, 0)));
  });

  it("keeps court text a string (never a formula) and drops characters a workbook cannot hold", async () => {
    const { rows } = await readBack(TABLE, "America/Sao_Paulo");

    expect(rows[2]?.[2]).toBe('=HYPERLINK("http://x")');
  });

  it("writes the same rows as the CSV", async () => {
    const { rows } = await readBack(TABLE, "America/Sao_Paulo");
    const csvRows = tableCsv(TABLE, "America/Sao_Paulo").slice(1).trim().split("\r\n");

    expect(rows).toHaveLength(csvRows.length);
    expect(csvRows[1]).toContain(
      ',"2025-11-04 00:15:00",92,"Publicação","","2025-11-21 07:00:00",',
    );
  });

  it("turns a case number or a name with characters a sheet's name cannot have into one it can", async () => {
    const bytes = await tableXlsx(TABLE, {
      timeZone: "UTC",
      sheet: "a/b:c*d?e[f]g\\h and more than thirty-one",
    });

    const [first] = await readXlsxFile(bytes);

    expect(first?.sheet).toBe("a-b-c-d-e-f-g-h and more than t");
  });
});

describe("writeTable", () => {
  function io(stdoutIsTty: boolean): CliIo & { bytes: () => Buffer } {
    const chunks: Buffer[] = [];
    return {
      argv: [],
      env: {},
      cwd: "/",
      stdout: {
        write: (c: string | Uint8Array) => chunks.push(Buffer.from(c)),
        isTTY: stdoutIsTty,
      },
      stderr: { write: () => true },
      signal: new AbortController().signal,
      bytes: () => Buffer.concat(chunks),
    };
  }

  it("refuses to write a workbook's bytes to a terminal, and says how to save it", async () => {
    const out = io(true);

    await expect(
      writeTable(out, TABLE, "xlsx", { timeZone: "America/Sao_Paulo", sheet: "x" }),
    ).rejects.toThrow(/redirect it, as in > export\.xlsx/);
    expect(out.bytes()).toHaveLength(0);
  });

  it("writes a workbook to a file or pipe, and CSV with its BOM anywhere", async () => {
    const piped = io(false);
    const terminal = io(true);

    await writeTable(piped, TABLE, "xlsx", { timeZone: "America/Sao_Paulo", sheet: "x" });
    await writeTable(terminal, TABLE, "csv", { timeZone: "America/Sao_Paulo", sheet: "x" });

    // An .xlsx file is a zip archive.
    expect(piped.bytes().subarray(0, 2).toString("latin1")).toBe("PK");
    expect([...terminal.bytes().subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it("refuses a workbook past XLSX_MAX_ROWS with the CSV alternative, and writes nothing", async () => {
    const piped = io(false);
    const [row] = TABLE.rows;
    const rows = function* () {
      for (let i = 0; i <= XLSX_MAX_ROWS; i++) yield row ?? [];
    };
    const big = { columns: TABLE.columns, rows: { [Symbol.iterator]: rows } };

    await expect(
      writeTable(piped, big, "xlsx", { timeZone: "UTC", sheet: "x", fewerRows: "--since DATE" }),
    ).rejects.toThrow(
      "--format xlsx writes at most 25,000 rows and this has more: use --format csv (Excel and LibreOffice open it), or fewer rows with --since DATE",
    );
    expect(piped.bytes()).toHaveLength(0);
  });
});
