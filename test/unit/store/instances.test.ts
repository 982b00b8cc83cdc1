import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Movement } from "../../../src/datajud/instance-record.js";
import { movementHint } from "../../../src/datajud/tpu-hints.js";
import { insertChange } from "../../../src/store/changes.js";
import type { Db } from "../../../src/store/database.js";
import {
  instanceRecords,
  listInstances,
  listInstanceVersions,
  touchFingerprint,
  upsertInstance,
} from "../../../src/store/instances.js";
import {
  applyMovementPlan,
  emptyMovementPlan,
  listStoredMovements,
} from "../../../src/store/movements.js";
import { caseRecord, movement, type StoreWithCase, storeWithCase } from "./store-fixtures.js";

const T1 = "2026-03-01T10:00:00.000Z";
const T2 = "2026-03-02T10:00:00.000Z";
const T3 = "2026-03-03T10:00:00.000Z";

let db: Db;
let caseId: number;
let runId: number;
let store: StoreWithCase;

beforeEach(() => {
  store = storeWithCase("store-instances-", T1);
  ({ db, caseId, runId } = store);
});

afterEach(() => {
  store.close();
});

describe("upsertInstance", () => {
  it("creates version 1 and reads the record's fields back intact, without its movements", () => {
    const record = caseRecord();

    const result = upsertInstance(db, {
      caseId,
      record,
      fingerprint: "fp1",
      at: T1,
      changeId: null,
    });
    const [stored] = listInstances(db, caseId);

    expect(result).toMatchObject({ version: 1, created: true, changed: true });
    expect(stored).toMatchObject({
      id: result.instanceId,
      instance: "G1",
      recordId: record.id,
      fingerprint: "fp1",
      version: 1,
      firstSeenAt: T1,
      updatedAt: T1,
    });
    expect(record.movements.length).toBeGreaterThan(0);
    expect(stored?.record).toEqual({ ...record, movements: [], latestMovement: null });
    expect(listInstanceVersions(db, result.instanceId).map((v) => v.record)).toEqual([
      stored?.record,
    ]);
  });

  it("stores each movement once, in movements, and rebuilds the whole record from it", () => {
    const later = movement("m2", "2026-02-03T09:00:00");
    const undated = movement("m0", null);
    const gone = movement("m9", "2026-02-04T09:00:00");
    const earlier = movement("m1", "2026-02-01T12:00:00");
    const record = caseRecord({ movements: [undated, earlier, later] });
    const { instanceId } = upsertInstance(db, {
      caseId,
      record,
      fingerprint: "fp1",
      at: T1,
      changeId: null,
    });
    // Stored in another order than normalize.ts lists them; one DataJud no longer lists.
    const plan = { ...emptyMovementPlan(), added: [later, gone, earlier, undated] };
    applyMovementPlan(db, { caseId, instanceId, plan, at: T1, changeId: null });
    const [row] = listStoredMovements(db, instanceId).filter((m) => m.movementId === "m9");
    applyMovementPlan(db, {
      caseId,
      instanceId,
      plan: { ...emptyMovementPlan(), disappeared: [{ rowId: row?.rowId ?? -1, movement: gone }] },
      at: T2,
      changeId: null,
    });

    const [rebuilt] = instanceRecords(db, caseId);

    // Each with its glossary hint derived from its code (stored without it).
    const withHint = (m: Movement): Movement => ({ ...m, hint: movementHint(m.code) });
    expect(rebuilt).toEqual({
      ...record,
      movements: [undated, earlier, later].map(withHint),
      latestMovement: withHint(later),
    });
  });

  it("keeps the version for an identical record but moves the fingerprint", () => {
    const first = upsertInstance(db, {
      caseId,
      record: caseRecord(),
      fingerprint: "fp1",
      at: T1,
      changeId: null,
    });

    const again = upsertInstance(db, {
      caseId,
      record: caseRecord(),
      fingerprint: "fp2",
      at: T2,
      changeId: null,
    });

    expect(again).toEqual({
      instanceId: first.instanceId,
      version: 1,
      created: false,
      changed: false,
    });
    expect(listInstances(db, caseId)[0]).toMatchObject({
      fingerprint: "fp2",
      updatedAt: T2,
      firstSeenAt: T1,
    });
    expect(listInstanceVersions(db, first.instanceId)).toHaveLength(1);
  });

  it("bumps the version and keeps every distinct record when the record changes", () => {
    const first = upsertInstance(db, {
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
      kinds: ["class_changed"],
      details: {},
      newMovements: 0,
    });
    const changed = caseRecord({ class: { code: 7, name: "Procedimento Comum Cível" } });

    const second = upsertInstance(db, {
      caseId,
      record: changed,
      fingerprint: "fp2",
      at: T2,
      changeId,
    });
    const versions = listInstanceVersions(db, first.instanceId);

    expect(second).toEqual({
      instanceId: first.instanceId,
      version: 2,
      created: false,
      changed: true,
    });
    expect(listInstances(db, caseId)[0]?.record.class?.name).toBe("Procedimento Comum Cível");
    expect(versions.map((v) => [v.version, v.record.class?.code, v.changeId])).toEqual([
      [1, 1116, null],
      [2, 7, changeId],
    ]);
  });

  it("moves moved_at only when DataJud's update time of the record changed", () => {
    const upsert = (patch: Parameters<typeof caseRecord>[0], at: string): void => {
      upsertInstance(db, {
        caseId,
        record: caseRecord(patch),
        fingerprint: at,
        at,
        changeId: null,
      });
    };
    const movedAt = (): string | undefined =>
      db
        .prepare<[number], { movedAt: string }>(
          "SELECT moved_at AS movedAt FROM instances WHERE case_id = ?",
        )
        .get(caseId)?.movedAt;

    upsert({}, T1);
    const first = movedAt();
    // Another class under the same lastUpdatedAt: a new version, but DataJud's update did not move.
    upsert({ class: { code: 7, name: "Procedimento Comum Cível" } }, T2);
    const sameUpdate = movedAt();
    upsert({ class: { code: 8, name: "Outra" }, lastUpdatedAt: "2026-03-02T09:00:00" }, T3);

    expect([first, sameUpdate, movedAt()]).toEqual([T1, T1, T3]);
    expect(listInstances(db, caseId)[0]?.version).toBe(3);
  });

  it("keeps one row per DataJud document of the case", () => {
    upsertInstance(db, {
      caseId,
      record: caseRecord(),
      fingerprint: "fp1",
      at: T1,
      changeId: null,
    });

    upsertInstance(db, {
      caseId,
      record: caseRecord({ id: "TJDFT_G2_07133834320258070006", instance: "G2" }),
      fingerprint: "fpg2",
      at: T2,
      changeId: null,
    });

    expect(listInstances(db, caseId).map((i) => i.instance)).toEqual(["G1", "G2"]);
  });

  it("touchFingerprint changes only the fingerprint", () => {
    const { instanceId } = upsertInstance(db, {
      caseId,
      record: caseRecord(),
      fingerprint: "fp1",
      at: T1,
      changeId: null,
    });

    touchFingerprint(db, instanceId, "fp9", T3);

    expect(listInstances(db, caseId)[0]).toMatchObject({
      fingerprint: "fp9",
      version: 1,
      updatedAt: T3,
    });
  });
});
