import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Movement } from "../../../src/datajud/instance-record.js";
import { movementId } from "../../../src/datajud/movement-identity.js";
import { movementHint } from "../../../src/datajud/tpu-hints.js";
import { insertChange } from "../../../src/store/changes.js";
import type { Db } from "../../../src/store/database.js";
import { upsertInstance } from "../../../src/store/instances.js";
import {
  applyMovementPlan,
  emptyMovementPlan,
  latestMovementTimes,
  listMovementEvents,
  listMovements,
  listMovementVersions,
  listStoredMovements,
  type MovementPlan,
} from "../../../src/store/movements.js";
import { caseRecord, movement, type StoreWithCase, storeWithCase } from "./store-fixtures.js";

const T1 = "2026-03-01T10:00:00.000Z";
const T2 = "2026-03-02T10:00:00.000Z";
const T3 = "2026-03-04T10:00:00.000Z";

let db: Db;
let caseId: number;
let runId: number;
let store: StoreWithCase;

beforeEach(() => {
  store = storeWithCase("store-movements-", T1);
  ({ db, caseId, runId } = store);
});

afterEach(() => {
  store.close();
});

function plan(patch: Partial<MovementPlan>): MovementPlan {
  return { ...emptyMovementPlan(), ...patch };
}

/** Stores movements as new, the way a read that found them does. */
function insertMovements(input: {
  instanceId: number;
  movements: Movement[];
  at: string;
  changeId: number | null;
}): void {
  applyMovementPlan(db, {
    caseId,
    instanceId: input.instanceId,
    plan: plan({ movements: input.movements, added: input.movements }),
    at: input.at,
    changeId: input.changeId,
  });
}

function copy(m: Movement, occurrence: number): Movement {
  return { ...m, occurrence, id: movementId(m.identity, occurrence) };
}

function instance(): number {
  return upsertInstance(db, {
    caseId,
    record: caseRecord(),
    fingerprint: "fp1",
    at: T1,
    changeId: null,
  }).instanceId;
}

/** The case's first-instance and appeal records. */
function twoInstances(): Record<"g1" | "g2", { instanceId: number }> {
  const g1 = upsertInstance(db, {
    caseId,
    record: caseRecord(),
    fingerprint: "a",
    at: T1,
    changeId: null,
  });
  const g2 = upsertInstance(db, {
    caseId,
    record: caseRecord({ id: "TJDFT_G2_x", instance: "G2" }),
    fingerprint: "b",
    at: T1,
    changeId: null,
  });
  return { g1, g2 };
}

describe("applyMovementPlan", () => {
  it("stores every copy of a repeated movement as its own row, counted as DataJud counts", () => {
    const instanceId = instance();
    const expiry = movement("expiry", "2026-02-01T23:59:59", "Decurso de Prazo");

    insertMovements({
      instanceId,
      movements: [copy(expiry, 1), copy(expiry, 2), copy(expiry, 3)],
      at: T1,
      changeId: null,
    });

    const rows = listMovements(db, caseId);
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r.occurrence).sort()).toEqual([1, 2, 3]);
    expect(new Set(rows.map((r) => r.movementId)).size).toBe(3);
    expect(listStoredMovements(db, instanceId).map((r) => r.identity)).toEqual([
      expiry.identity,
      expiry.identity,
      expiry.identity,
    ]);
  });

  it("keeps the same movement separately per instance", () => {
    const { g1, g2 } = twoInstances();
    const m = movement("same", "2026-02-01T12:00:00");

    insertMovements({ instanceId: g1.instanceId, movements: [m], at: T1, changeId: null });
    insertMovements({ instanceId: g2.instanceId, movements: [m], at: T1, changeId: null });

    expect(
      listMovements(db, caseId)
        .map((row) => row.instance)
        .sort(),
    ).toEqual(["G1", "G2"]);
  });

  it("keeps every form of a corrected movement, the first as first seen, and records a disappearance and return", () => {
    const instanceId = instance();
    const publication = movement("pub", "2026-02-01T00:15:00", "Publicação");
    const expiry = movement("exp", "2026-02-02T23:59:59", "Decurso de Prazo");
    insertMovements({ instanceId, movements: [publication, expiry], at: T1, changeId: null });
    const [pubRow, expRow] = listStoredMovements(db, instanceId);
    const amended = { ...publication, name: "Publicação no DJe" };

    applyMovementPlan(db, {
      caseId,
      instanceId,
      plan: plan({
        amended: [{ rowId: pubRow?.rowId ?? 0, movement: amended, before: publication }],
        disappeared: [{ rowId: expRow?.rowId ?? 0, movement: expiry }],
      }),
      at: T2,
      changeId: null,
    });
    const redated = { ...amended, dateTime: "2026-02-02T00:15:00" };
    const changeId = insertChange(db, {
      caseId,
      runId,
      detectedAt: T3,
      kinds: ["corrected_movements"],
      details: {},
      newMovements: 0,
    });
    applyMovementPlan(db, {
      caseId,
      instanceId,
      plan: plan({
        redated: [
          { rowId: pubRow?.rowId ?? 0, movement: redated, before: amended, reported: true },
        ],
      }),
      at: T3,
      changeId,
    });
    const listed = listMovements(db, caseId);
    const all = listMovements(db, caseId, { includeDisappeared: true });
    applyMovementPlan(db, {
      caseId,
      instanceId,
      plan: plan({ reappeared: [{ rowId: expRow?.rowId ?? 0, movement: expiry }] }),
      at: "2026-03-03T10:00:00.000Z",
      changeId: null,
    });

    expect(listed.map((m) => m.name)).toEqual(["Publicação no DJe"]);
    expect(all.find((m) => m.name === "Decurso de Prazo")?.disappearedAt).toBe(T2);
    expect(listMovements(db, caseId).map((m) => [m.name, m.dateTime, m.versions])).toEqual(
      [
        ["Publicação no DJe", "2026-02-02T00:15:00", 3],
        ["Decurso de Prazo", "2026-02-02T23:59:59", 0],
      ].sort((a, b) => String(b[1]).localeCompare(String(a[1]))),
    );
    expect(
      listMovementVersions(db, caseId).map((v) => [
        v.version,
        v.kind,
        v.data.name,
        v.dateTime,
        v.recordedAt,
        v.changeId,
      ]),
    ).toEqual([
      [1, "first", "Publicação", "2026-02-01T00:15:00", T1, null],
      [2, "amended", "Publicação no DJe", "2026-02-01T00:15:00", T2, null],
      [3, "redated", "Publicação no DJe", "2026-02-02T00:15:00", T3, changeId],
    ]);
    expect(
      listMovementEvents(db, caseId).map((e) => [e.kind, e.movement.name, e.before?.name]),
    ).toEqual([
      ["disappeared", "Decurso de Prazo", undefined],
      ["reappeared", "Decurso de Prazo", undefined],
    ]);
  });

  it("refreshes a kept or re-keyed row to the fresh form, and writes nothing where it is already that form", () => {
    const instanceId = instance();
    const hearing = movement("hearing", "2026-02-01T14:00:00", "Audiência");
    insertMovements({ instanceId, movements: [hearing], at: T1, changeId: null });
    const [row] = listStoredMovements(db, instanceId);
    const rowId = row?.rowId ?? 0;
    const writes = (): number =>
      db.prepare<[], { n: number }>("SELECT total_changes() AS n").get()?.n ?? 0;
    const keep = (kept: MovementPlan["kept"], rekeyed: MovementPlan["rekeyed"] = []): void =>
      applyMovementPlan(db, {
        caseId,
        instanceId,
        plan: plan({ kept, rekeyed }),
        at: T2,
        changeId: null,
      });

    const before = writes();
    keep([{ rowId, movement: hearing }]);
    const identical = writes() - before;
    keep(
      [],
      [{ rowId, movement: { ...hearing, id: "rekeyed:1", name: "Audiência de conciliação" } }],
    );

    expect(identical).toBe(0);
    expect(listStoredMovements(db, instanceId).map((m) => [m.movementId, m.data.name])).toEqual([
      ["rekeyed:1", "Audiência de conciliação"],
    ]);
    expect(listMovements(db, caseId)[0]?.firstSeenAt).toBe(T1);
    expect(listMovementEvents(db, caseId)).toEqual([]);
  });

  it("stores copies filled in after the upgrade as first seen with the row they were collapsed into", () => {
    const instanceId = instance();
    const expiry = movement("exp", "2026-02-02T23:59:59", "Decurso de Prazo");

    applyMovementPlan(db, {
      caseId,
      instanceId,
      plan: plan({
        filled: [{ movement: copy(expiry, 2), firstSeenAt: "2025-01-01T10:00:00.000Z" }],
      }),
      at: T2,
      changeId: null,
    });

    expect(listMovements(db, caseId)).toEqual([
      expect.objectContaining({
        occurrence: 2,
        firstSeenAt: "2025-01-01T10:00:00.000Z",
        changeId: null,
      }),
    ]);
  });

  it("lists newest first with undated movements last, honouring the limit", () => {
    const instanceId = instance();
    const changeId = insertChange(db, {
      caseId,
      runId,
      detectedAt: T2,
      kinds: ["new_movements"],
      details: {},
      newMovements: 1,
    });
    const fresh = movement("new", "2026-03-01T10:00:00");
    insertMovements({
      instanceId,
      movements: [
        movement("old", "2026-01-01T10:00:00"),
        movement("undated", null),
        // Written before the upgrade: a wall clock labelled Z, ordered with the others.
        movement("legacy", "2026-01-01T14:00:00.000Z"),
      ],
      at: T1,
      changeId: null,
    });
    insertMovements({ instanceId, movements: [fresh], at: T2, changeId });

    const all = listMovements(db, caseId);
    const top = listMovements(db, caseId, { limit: 1 });

    expect(all.map((m) => m.data.name)).toEqual([
      "movement new",
      "movement legacy",
      "movement old",
      "movement undated",
    ]);
    expect(all[0]).toMatchObject({ changeId, firstSeenAt: T2, code: 123, name: "movement new" });
    // Stored without its glossary hint, which is the TPU's reading of its code, derived when read.
    expect(all[0]?.data).toEqual({ ...fresh, hint: movementHint(123) });
    expect(top.map((m) => m.data.name)).toEqual(["movement new"]);
  });
});

describe("latestMovementTimes", () => {
  it("gives each case its newest dated movement DataJud still lists, across instances", () => {
    const { g1, g2 } = twoInstances();
    const newest = movement("newest", "2026-01-02T08:00:00");
    insertMovements({
      instanceId: g1.instanceId,
      movements: [movement("old", "2026-01-01T09:00:00"), movement("undated", null), newest],
      at: T1,
      changeId: null,
    });
    insertMovements({
      instanceId: g2.instanceId,
      movements: [movement("g2", "2026-01-01T14:00:00")],
      at: T1,
      changeId: null,
    });
    const newestRow = listStoredMovements(db, g1.instanceId).find((r) => r.data.id === "newest");
    const before = latestMovementTimes(db);
    applyMovementPlan(db, {
      caseId,
      instanceId: g1.instanceId,
      plan: plan({ disappeared: [{ rowId: newestRow?.rowId ?? 0, movement: newest }] }),
      at: T2,
      changeId: null,
    });

    const after = latestMovementTimes(db);

    expect(before).toEqual(new Map([[caseId, "2026-01-02T08:00:00"]]));
    expect(after).toEqual(new Map([[caseId, "2026-01-01T14:00:00"]]));
  });

  it("leaves out cases with no movement or only undated ones", () => {
    const instanceId = instance();
    const before = latestMovementTimes(db);
    insertMovements({ instanceId, movements: [movement("undated", null)], at: T1, changeId: null });

    const after = latestMovementTimes(db);

    expect(before.size).toBe(0);
    expect(after.size).toBe(0);
  });
});
