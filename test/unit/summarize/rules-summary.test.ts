import { describe, expect, it } from "vitest";
import type { InstanceRecord, Movement } from "../../../src/datajud/instance-record.js";
import { normalizeInstanceRecord } from "../../../src/datajud/normalize.js";
import { CaseSummary } from "../../../src/summarize/case-summary.js";
import { rulesSummary, statusCategoryOf } from "../../../src/summarize/rules-summary.js";
import { loadRecordedCases } from "../../support/fixtures.js";
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
  it("reads an appeal judged on the second instance as decided, from both instances' timelines", () => {
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
