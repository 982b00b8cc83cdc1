import { describe, expect, it } from "vitest";
import type { InstanceRecord } from "../../../../src/datajud/instance-record.js";
import { normalizeInstanceRecord } from "../../../../src/datajud/normalize.js";
import {
  correctionsOf,
  diffCase,
  fieldChangesOf,
  isRealChange,
  lateMovementsOf,
  type StoredInstance,
} from "../../../../src/monitor/detect/diff.js";
import { newestDate } from "../../../../src/policy/late-records.js";
import { emptyMovementPlan } from "../../../../src/store/movements.js";
import { loadRecordedCases } from "../../../support/fixtures.js";
import { storedMovements, testMovement } from "../../../support/movement.js";
import { loadRealHits, REAL, realHit } from "../../../support/real-datajud.js";

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
  it("tells a movement first listed long after its date, behind known ones, as a late record", () => {
    const r = record(0);
    const newest = newestDate(r.movements) ?? "";
    const old = withMovement(r, 92, "2015-01-10T10:00:00");
    const recent = withMovement(old, 11010, "2026-02-20T10:00:00");

    const diff = diffCase([stored(r)], [recent], "2026-03-01T12:00:00.000Z");
    const unjudged = diffCase([stored(r)], [recent]);

    expect(newest > "2015-01-10").toBe(true);
    expect(diff.lateMovements.map((m) => m.movement.code)).toEqual([92]);
    expect(diff.newMovements.map((m) => m.movement.code)).toEqual([92, 11010]);
    expect(diff.kinds).toEqual(["new_movements", "late_movements"]);
    expect(unjudged.lateMovements).toEqual([]);
    expect(unjudged.kinds).toEqual(["new_movements"]);
  });

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

describe("diffCase: corrections of known movements", () => {
  const hits = loadRealHits();
  type Raw = {
    codigo?: number;
    dataHora?: string;
    complementosTabelados?: Array<Record<string, unknown>>;
  };

  function tjto(edit: (movements: Raw[]) => void = () => {}): InstanceRecord {
    const hit = realHit(hits, "tjto", REAL.tjtoMojibake, "G1");
    edit(hit._source.movimentos as Raw[]);
    return normalizeInstanceRecord(hit, "tjto");
  }

  function find(movements: Raw[], codigo: number, dataHora: string): Raw {
    const m = movements.find((x) => x.codigo === codigo && x.dataHora === dataHora);
    if (m === undefined) throw new Error(`no ${codigo} at ${dataHora}`);
    return m;
  }

  const HEARING = [12740, "2017-12-18T15:57:44.000Z"] as const;

  it("reports a hearing designada now cancelada as a correction, before and after", () => {
    const before = tjto();
    const after = tjto((ms) => {
      const situation = find(ms, ...HEARING).complementosTabelados?.[0];
      if (situation) Object.assign(situation, { nome: "cancelada", valor: 11 });
    });

    const diff = diffCase([stored(before)], [after]);

    expect(diff.kinds).toEqual(["corrected_movements"]);
    expect(diff.newMovements).toEqual([]);
    expect(
      diff.corrections.map((c) => [
        c.kind,
        c.before.complements[0]?.name,
        c.after.complements[0]?.name,
      ]),
    ).toEqual([["amended", "designada", "cancelada"]]);
  });

  it("reports a disponibilização re-dated to the next day as a correction, not as news", () => {
    const tjal = (dataHora: string): InstanceRecord => {
      const hit = realHit(hits, "tjal", "00016632020118020049", "G1");
      find(hit._source.movimentos as Raw[], 1061, "2024-01-16T13:41:41.000Z").dataHora = dataHora;
      return normalizeInstanceRecord(hit, "tjal");
    };
    const before = tjal("2024-01-16T13:41:41.000Z");

    const diff = diffCase([stored(before)], [tjal("2024-01-17T13:41:41.000Z")]);

    expect(diff.kinds).toEqual(["corrected_movements"]);
    expect(diff.newMovements).toEqual([]);
    expect(diff.corrections.map((c) => [c.kind, c.before.dateTime, c.after.dateTime])).toEqual([
      ["redated", "2024-01-16T13:41:41", "2024-01-17T13:41:41"],
    ]);
  });

  it("keeps a complement added to a known movement quiet: nothing read before became untrue", () => {
    const before = tjto();
    const after = tjto((ms) => {
      find(ms, ...HEARING).complementosTabelados?.push({
        codigo: 5,
        valor: 1,
        nome: "urgente",
        descricao: "prioridade",
      });
    });

    const diff = diffCase([stored(before)], [after]);

    expect(isRealChange(diff)).toBe(false);
    expect(diff.corrections).toEqual([]);
    expect(diff.instances[0]?.plan.amended.map((a) => a.reported)).toEqual([false]);
  });
});

describe("diffCase's pieces", () => {
  it("fieldChangesOf lists class, subjects, court unit and secrecy in that order, with both values", () => {
    const before = record(0);
    const after: InstanceRecord = {
      ...before,
      secrecyLevel: 2,
      courtUnit: { code: 9, name: "Outra Vara", municipalityCode: 5300108 },
      class: { code: 7, name: "Procedimento Comum Cível" },
    };

    const changes = fieldChangesOf(before, after);

    expect(changes.map((c) => [c.instance, c.field, c.after])).toEqual([
      ["G1", "class", { code: 7, name: "Procedimento Comum Cível" }],
      ["G1", "courtUnit", { code: 9, name: "Outra Vara", municipalityCode: 5300108 }],
      ["G1", "secrecyLevel", 2],
    ]);
    expect(changes[0]?.before).toEqual(before.class);
    expect(fieldChangesOf(before, { ...before, subjects: [...before.subjects].reverse() })).toEqual(
      [],
    );
  });

  it("correctionsOf keeps the corrections marked as news, amended before re-dated", () => {
    const r = record(0);
    const [first, second] = r.movements;
    if (first === undefined || second === undefined) throw new Error("fixture too short");
    const moved = { ...second, dateTime: "2030-01-01T00:00:00" };
    const plan = {
      ...emptyMovementPlan(),
      redated: [{ rowId: 2, movement: moved, before: second, reported: true }],
      amended: [
        { rowId: 1, movement: first, before: first, reported: false },
        { rowId: 3, movement: second, before: first, reported: true },
      ],
    };

    expect(correctionsOf(r, plan)).toEqual([
      { instance: "G1", recordId: r.id, kind: "amended", before: first, after: second },
      { instance: "G1", recordId: r.id, kind: "redated", before: second, after: moved },
    ]);
  });

  it("lateMovementsOf judges against the newest movement the case knew, and nothing without the sweep's instant", () => {
    const known = testMovement({ id: "k", code: 11, dateTime: "2025-06-01T10:00:00" });
    const stale = testMovement({ id: "s", code: 92, dateTime: "2025-01-10T10:00:00" });
    const fresh = testMovement({ id: "f", code: 193, dateTime: "2025-09-01T10:00:00" });
    const r = record(0);
    const storedCase: StoredInstance[] = [
      { recordId: r.id, record: r, movements: storedMovements([known]) },
    ];
    const news = [stale, fresh].map((movement) => ({ instance: "G1", recordId: r.id, movement }));

    // 01/10/2025: the stale one is 263 days old and older than 01/06; the fresh one is newer.
    expect(lateMovementsOf(storedCase, news, "2025-10-01T12:00:00.000Z")).toEqual([news[0]]);
    expect(lateMovementsOf(storedCase, news, undefined)).toEqual([]);
    expect(lateMovementsOf([], news, "2025-10-01T12:00:00.000Z")).toEqual([]);
  });
});
