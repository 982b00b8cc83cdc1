import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { insertChange } from "../../../src/store/changes.js";
import type { Db } from "../../../src/store/database.js";
import {
  listInstances,
  listInstanceVersions,
  touchFingerprint,
  upsertInstance,
} from "../../../src/store/instances.js";
import { caseRecord, type StoreWithCase, storeWithCase } from "./store-fixtures.js";

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
  it("creates version 1 and reads the record back intact", () => {
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
    expect(stored?.record).toEqual(record);
    expect(listInstanceVersions(db, result.instanceId).map((v) => v.version)).toEqual([1]);
  });

  it("keeps a version's fields but not its movement list, which lives in movements", () => {
    const record = caseRecord();

    const result = upsertInstance(db, {
      caseId,
      record,
      fingerprint: "fp1",
      at: T1,
      changeId: null,
    });
    const [version] = listInstanceVersions(db, result.instanceId);

    expect(record.movements.length).toBeGreaterThan(0);
    expect(version?.record).toEqual({ ...record, movements: [] });
    expect(listInstances(db, caseId)[0]?.record.movements).toEqual(record.movements);
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
