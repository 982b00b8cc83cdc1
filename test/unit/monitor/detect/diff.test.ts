import { describe, expect, it } from "vitest";
import type { InstanceRecord } from "../../../../src/datajud/instance-record.js";
import { normalizeInstanceRecord } from "../../../../src/datajud/normalize.js";
import {
  diffCase,
  isRealChange,
  type StoredInstance,
} from "../../../../src/monitor/detect/diff.js";
import { loadRecordedCases } from "../../../support/fixtures.js";
import { storedMovements, testMovement } from "../../../support/movement.js";

const recorded = loadRecordedCases();
const tjdft = recorded.indices.tjdft ?? [];

function record(index: number): InstanceRecord {
  const doc = tjdft[index];
  if (!doc) throw new Error("missing fixture");
  return normalizeInstanceRecord(doc, "tjdft");
}

function stored(r: InstanceRecord): StoredInstance {
  return { recordId: r.id, record: r, movements: storedMovements(r.movements) };
}

function withMovement(r: InstanceRecord, code: number, dateTime: string): InstanceRecord {
  const movement = testMovement({
    id: `new-${code}-${dateTime}`,
    code,
    name: "Sentença",
    dateTime,
  });
  return {
    ...r,
    movements: [...r.movements, movement],
    movementCount: r.movementCount + 1,
    latestMovement: movement,
  };
}

describe("diffCase", () => {
  it("finds nothing when DataJud returns what we stored", () => {
    const r = record(0);

    const diff = diffCase([stored(r)], [r]);

    expect(isRealChange(diff)).toBe(false);
    expect(diff.recordsDiffer).toBe(false);
  });

  it("reads a name repaired, recased or respaced as the same class, subject and court unit", () => {
    const before = record(0);
    const mangle = (name: string): string =>
      Buffer.from(name.toUpperCase(), "utf8").toString("latin1").replace(/ /g, "  ");
    const old = {
      ...before,
      class: before.class && { ...before.class, name: mangle(before.class.name) },
      subjects: before.subjects.map((s) => ({ ...s, name: mangle(s.name) })),
      courtUnit: before.courtUnit && { ...before.courtUnit, name: mangle(before.courtUnit.name) },
    };

    const diff = diffCase([{ ...stored(before), record: old }], [before]);

    expect(diff.kinds).toEqual([]);
    expect(diff.fieldChanges).toEqual([]);
  });

  it("reports only the movements we have not seen", () => {
    const before = record(0);
    const after = withMovement(before, 193, "2025-10-01T12:00:00.000Z");

    const diff = diffCase([stored(before)], [after]);

    expect(diff.kinds).toEqual(["new_movements"]);
    expect(diff.newMovements.map((m) => m.movement.code)).toEqual([193]);
    expect(diff.newMovements[0]?.instance).toBe("G1");
  });

  it("treats a moved update time with the same content as no change", () => {
    const before = record(0);
    const touched = {
      ...before,
      lastUpdatedAt: "2026-01-01T00:00:00.000Z",
      indexedAt: "2026-01-02T00:00:00.000Z",
    };

    const diff = diffCase([stored(before)], [touched]);

    expect(isRealChange(diff)).toBe(false);
    expect(diff.recordsDiffer).toBe(true);
  });

  it("reports a new instance with its movements", () => {
    const je = record(1);
    const tr = record(2);

    const diff = diffCase([stored(je)], [je, tr]);

    expect(diff.kinds).toContain("new_instance");
    expect(diff.newInstances).toEqual(["TR"]);
    expect(diff.newMovements).toHaveLength(tr.movements.length);
  });

  it("reports class, subjects, court unit and secrecy changes field by field", () => {
    const before = record(0);
    const after: InstanceRecord = {
      ...before,
      class: { code: 7, name: "Procedimento Comum Cível" },
      subjects: [...before.subjects, { code: 1, name: "Outro" }],
      courtUnit: { code: 1, name: "Outra Vara", municipalityCode: null },
      secrecyLevel: 1,
    };

    const diff = diffCase([stored(before)], [after]);

    expect(diff.kinds.sort()).toEqual([
      "class_changed",
      "court_unit_changed",
      "secrecy_changed",
      "subjects_changed",
    ]);
    expect(diff.fieldChanges.find((f) => f.field === "secrecyLevel")).toMatchObject({
      before: 0,
      after: 1,
    });
  });

  it("does not treat subject order as a change", () => {
    const before: InstanceRecord = {
      ...record(0),
      subjects: [
        { code: 1, name: "A" },
        { code: 2, name: "B" },
      ],
    };
    const after: InstanceRecord = {
      ...before,
      subjects: [
        { code: 2, name: "B" },
        { code: 1, name: "A" },
      ],
    };

    expect(isRealChange(diffCase([stored(before)], [after]))).toBe(false);
  });

  it("notes an instance DataJud stopped returning without calling it a change", () => {
    const je = record(1);
    const tr = record(2);

    const diff = diffCase([stored(je), stored(tr)], [je]);

    expect(isRealChange(diff)).toBe(false);
    expect(diff.missingInstances).toEqual(["TR"]);
  });
});
