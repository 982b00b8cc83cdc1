import { describe, expect, it } from "vitest";
import { csvField, movementsCsv } from "../../../src/cli/movement-csv.js";
import type { MovementRow } from "../../../src/store/movements.js";
import { testMovement } from "../../support/movement.js";

function row(patch: Partial<MovementRow> = {}): MovementRow {
  const data = testMovement({
    id: "m1",
    code: 193,
    name: "Julgamento",
    dateTime: "2025-11-20T00:15:00",
    dateTimeRaw: "2025-11-20T00:15:00.000Z",
    complements: [{ code: 1, name: "tipo", value: "procedente", description: null }],
  });
  return {
    id: 1,
    caseId: 1,
    instanceId: 1,
    instance: "G1",
    movementId: "m1",
    occurrence: 1,
    code: 193,
    name: "Julgamento",
    dateTime: data.dateTime,
    data,
    firstSeenAt: "2025-11-21T10:00:00.000Z",
    changeId: 3,
    disappearedAt: null,
    ...patch,
  };
}

describe("movement CSV", () => {
  it("quotes commas, quotes and line breaks as RFC 4180 does", () => {
    expect(csvField('Silva, "Souza"\r\nx')).toBe('"Silva, ""Souza""\r\nx"');
    expect(csvField("plain")).toBe("plain");
    expect(csvField(null)).toBe("");
    expect(csvField(193)).toBe("193");
  });

  it("never lets a spreadsheet read court text as a formula", () => {
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("@cmd")).toBe("'@cmd");
  });

  it("writes a header and one CRLF row per movement, dated as the court recorded it", () => {
    const csv = movementsCsv([
      {
        number: "1000123-59.2024.5.02.0001",
        court: "trt2",
        label: "Reclamação, João",
        movement: row(),
      },
    ]);

    expect(csv.split("\r\n")).toEqual([
      "case,court,label,instance,date,code,name,complements,first_seen_at,date_as_sent",
      '1000123-59.2024.5.02.0001,trt2,"Reclamação, João",G1,2025-11-20 00:15:00,193,Julgamento,tipo: procedente,2025-11-21T10:00:00.000Z,2025-11-20T00:15:00.000Z',
      "",
    ]);
  });
});
