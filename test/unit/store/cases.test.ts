import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  findCasesByNumber,
  getCase,
  getCaseById,
  listCases,
  syncWatchedCases,
  updateCaseAfterCheck,
  type WatchedCaseInput,
} from "../../../src/store/cases.js";
import { closeDatabase, type Db, openDatabase } from "../../../src/store/database.js";

const T1 = "2026-03-01T10:00:00.000Z";
const T2 = "2026-03-02T10:00:00.000Z";

const despejo: WatchedCaseInput = {
  number: "0713383-43.2025.8.07.0006",
  digits: "07133834320258070006",
  court: "tjdft",
  label: "Silva x Souza",
  watchers: ["ana@example.com"],
};
const recurso: WatchedCaseInput = {
  number: "1035289-48.2022.8.26.0602",
  digits: "10352894820228260602",
  court: "stj",
  label: null,
  watchers: ["escritorio@example.com"],
};

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "store-cases-"));
  db = openDatabase(join(dir, "monitor.db"));
});

afterEach(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

describe("syncWatchedCases", () => {
  it("inserts new cases as watched with no check history", () => {
    syncWatchedCases(db, [despejo, recurso], T1);

    const rows = listCases(db);

    expect(rows.map((r) => [r.number, r.court, r.watched])).toEqual([
      [despejo.number, "tjdft", true],
      [recurso.number, "stj", true],
    ]);
    expect(rows[0]).toMatchObject({
      label: "Silva x Souza",
      watchers: ["ana@example.com"],
      createdAt: T1,
      firstSeenAt: null,
      lastCheckedAt: null,
      lastOutcome: null,
      consecutiveFailures: 0,
      consecutiveNotFound: 0,
      goneAt: null,
    });
  });

  it("updates label and watchers of known cases without creating new rows", () => {
    syncWatchedCases(db, [despejo], T1);
    const before = getCase(db, despejo.digits, "tjdft");

    syncWatchedCases(db, [{ ...despejo, label: "renamed", watchers: ["b@example.com"] }], T2);
    const after = getCase(db, despejo.digits, "tjdft");

    expect(after?.id).toBe(before?.id);
    expect(after).toMatchObject({ label: "renamed", watchers: ["b@example.com"], createdAt: T1 });
    expect(listCases(db)).toHaveLength(1);
  });

  it("marks a removed case unwatched, keeps its history, and re-watches it when it returns", () => {
    syncWatchedCases(db, [despejo, recurso], T1);
    const id = getCase(db, despejo.digits, "tjdft")?.id ?? -1;
    updateCaseAfterCheck(db, id, { lastCheckedAt: T1, lastOutcome: "unchanged", firstSeenAt: T1 });

    syncWatchedCases(db, [recurso], T2);
    const watchedAfterRemoval = listCases(db, { watchedOnly: true }).map((r) => r.court);
    const removed = getCaseById(db, id);
    syncWatchedCases(db, [recurso, despejo], T2);

    expect(watchedAfterRemoval).toEqual(["stj"]);
    expect(removed).toMatchObject({ watched: false, lastOutcome: "unchanged", firstSeenAt: T1 });
    expect(getCaseById(db, id)?.watched).toBe(true);
    expect(listCases(db)).toHaveLength(2);
  });

  it("unwatches everything for an empty watchlist", () => {
    syncWatchedCases(db, [despejo, recurso], T1);

    syncWatchedCases(db, [], T2);

    expect(listCases(db, { watchedOnly: true })).toEqual([]);
    expect(listCases(db)).toHaveLength(2);
  });

  it("keeps one row per (number, court)", () => {
    const sameNumberOtherCourt = { ...despejo, court: "stj" };

    syncWatchedCases(db, [despejo, sameNumberOtherCourt], T1);

    expect(findCasesByNumber(db, despejo.digits).map((r) => r.court)).toEqual(["tjdft", "stj"]);
    expect(findCasesByNumber(db, "00000000000000000000")).toEqual([]);
  });
});

describe("updateCaseAfterCheck", () => {
  it("sets only the given fields, including explicit nulls", () => {
    syncWatchedCases(db, [despejo], T1);
    const id = getCase(db, despejo.digits, "tjdft")?.id ?? -1;
    updateCaseAfterCheck(db, id, {
      lastCheckedAt: T1,
      lastOutcome: "failed",
      lastError: "timeout",
      consecutiveFailures: 2,
      goneAt: T1,
    });

    updateCaseAfterCheck(db, id, {
      lastCheckedAt: T2,
      lastOutcome: "changed",
      lastChangedAt: T2,
      lastFingerprint: "fp-2",
      lastError: null,
      consecutiveFailures: 0,
      goneAt: null,
    });
    updateCaseAfterCheck(db, id, {});

    expect(getCaseById(db, id)).toMatchObject({
      lastCheckedAt: T2,
      lastOutcome: "changed",
      lastChangedAt: T2,
      lastFingerprint: "fp-2",
      lastError: null,
      consecutiveFailures: 0,
      goneAt: null,
      label: "Silva x Souza",
    });
  });

  it("returns undefined for unknown cases", () => {
    expect(getCase(db, despejo.digits, "tjdft")).toBeUndefined();
    expect(getCaseById(db, 12345)).toBeUndefined();
  });
});
