import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { insertChange } from "../../../src/store/changes.js";
import type { Db } from "../../../src/store/database.js";
import { upsertInstance } from "../../../src/store/instances.js";
import {
  insertMovements,
  knownMovementIds,
  latestMovementTimes,
  listMovements,
} from "../../../src/store/movements.js";
import { caseRecord, movement, type StoreWithCase, storeWithCase } from "./store-fixtures.js";

const T1 = "2026-03-01T10:00:00.000Z";
const T2 = "2026-03-02T10:00:00.000Z";

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

describe("insertMovements", () => {
  it("stores a movement read twice only once and returns only the new ones", () => {
    const { instanceId } = upsertInstance(db, {
      caseId,
      record: caseRecord(),
      fingerprint: "fp1",
      at: T1,
      changeId: null,
    });
    const m1 = movement("m1", "2026-02-01T12:00:00-03:00");
    const m2 = movement("m2", "2026-02-05T09:00:00-03:00");

    const first = insertMovements(db, {
      caseId,
      instanceId,
      movements: [m1],
      at: T1,
      changeId: null,
    });
    const second = insertMovements(db, {
      caseId,
      instanceId,
      movements: [m1, m2, m2],
      at: T2,
      changeId: null,
    });

    expect(first).toEqual([m1]);
    expect(second).toEqual([m2]);
    expect(listMovements(db, caseId)).toHaveLength(2);
    expect(knownMovementIds(db, instanceId)).toEqual(new Set(["m1", "m2"]));
  });

  it("keeps the same movement separately per instance", () => {
    const { g1, g2 } = twoInstances();
    const m = movement("same", "2026-02-01T12:00:00-03:00");

    insertMovements(db, {
      caseId,
      instanceId: g1.instanceId,
      movements: [m],
      at: T1,
      changeId: null,
    });
    const inG2 = insertMovements(db, {
      caseId,
      instanceId: g2.instanceId,
      movements: [m],
      at: T1,
      changeId: null,
    });

    expect(inG2).toEqual([m]);
    expect(
      listMovements(db, caseId)
        .map((row) => row.instance)
        .sort(),
    ).toEqual(["G1", "G2"]);
  });

  it("lists newest first with undated movements last, honouring the limit", () => {
    const { instanceId } = upsertInstance(db, {
      caseId,
      record: caseRecord(),
      fingerprint: "fp1",
      at: T1,
      changeId: null,
    });
    const changeId = insertChange(db, {
      caseId,
      runId,
      detectedAt: T2,
      kinds: ["new_movements"],
      details: {},
      newMovements: 1,
    });
    insertMovements(db, {
      caseId,
      instanceId,
      movements: [
        movement("old", "2026-01-01T10:00:00-03:00"),
        movement("undated", null),
        // 14:00Z is later than 10:00-03:00 (13:00Z) even though it sorts lower as text.
        movement("utc", "2026-01-01T14:00:00Z"),
      ],
      at: T1,
      changeId: null,
    });
    insertMovements(db, {
      caseId,
      instanceId,
      movements: [movement("new", "2026-03-01T10:00:00-03:00")],
      at: T2,
      changeId,
    });

    const all = listMovements(db, caseId);
    const top = listMovements(db, caseId, { limit: 1 });

    expect(all.map((m) => m.movementId)).toEqual(["new", "utc", "old", "undated"]);
    expect(all[0]).toMatchObject({ changeId, firstSeenAt: T2, code: 123, name: "movement new" });
    expect(all[0]?.data).toEqual(movement("new", "2026-03-01T10:00:00-03:00"));
    expect(top.map((m) => m.movementId)).toEqual(["new"]);
  });
});

describe("latestMovementTimes", () => {
  it("gives each case its newest dated movement across instances, by instant", () => {
    const { g1, g2 } = twoInstances();
    insertMovements(db, {
      caseId,
      instanceId: g1.instanceId,
      movements: [movement("old", "2026-01-01T09:00:00Z"), movement("undated", null)],
      at: T1,
      changeId: null,
    });
    insertMovements(db, {
      caseId,
      instanceId: g2.instanceId,
      movements: [
        // 14:00Z is later than 10:00-03:00 (13:00Z) even though it sorts lower as text.
        movement("utc", "2026-01-01T14:00:00Z"),
        movement("local", "2026-01-01T10:00:00-03:00"),
      ],
      at: T1,
      changeId: null,
    });

    const latest = latestMovementTimes(db);

    expect(latest).toEqual(new Map([[caseId, "2026-01-01T14:00:00Z"]]));
  });

  it("leaves out cases with no movement or only undated ones", () => {
    const { instanceId } = upsertInstance(db, {
      caseId,
      record: caseRecord(),
      fingerprint: "a",
      at: T1,
      changeId: null,
    });
    const before = latestMovementTimes(db);
    insertMovements(db, {
      caseId,
      instanceId,
      movements: [movement("undated", null)],
      at: T1,
      changeId: null,
    });

    const after = latestMovementTimes(db);

    expect(before.size).toBe(0);
    expect(after.size).toBe(0);
  });
});
