import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { normalizeInstanceRecord } from "../../../../src/datajud/normalize.js";
import { silentLogger } from "../../../../src/log.js";
import type { FingerprintedCase } from "../../../../src/monitor/detect/datajud-gateway.js";
import {
  type CheckContext,
  recordFailure,
  recordNotFound,
  recordRead,
} from "../../../../src/monitor/detect/record-check.js";
import { type CaseRow, getCase, syncWatchedCases } from "../../../../src/store/cases.js";
import { listChecks } from "../../../../src/store/checks.js";
import { closeDatabase, type Db, openDatabase } from "../../../../src/store/database.js";
import { startRun } from "../../../../src/store/runs.js";
import { parseWatchlist, type WatchedCase } from "../../../../src/watchlist/parse-watchlist.js";
import { FakeClock } from "../../../fakes/fake-clock.js";
import { type FixtureDoc, loadRecordedCases } from "../../../support/fixtures.js";
import { makeTempDir } from "../../../support/temp-dir.js";

/*
 * What one case's check writes (record-check.ts): each outcome's check row and counters, a read's
 * change with its movements in one transaction, and nothing at all on a dry run.
 */

const recorded = loadRecordedCases();
const NUMBER = recorded.numbers.tjdftDespejo;
const NOW = Date.parse("2026-03-04T15:00:00.000Z");

let db: Db;
let kase: WatchedCase;
let runId: number;

beforeEach(() => {
  db = openDatabase(`${makeTempDir("record-check-")}/monitor.db`);
  const parsed = parseWatchlist(`cases:\n  - number: "${NUMBER}"\n`, "watchlist.yaml");
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  kase = parsed.watchlist.cases[0] as WatchedCase;
  const at = new Date(NOW).toISOString();
  syncWatchedCases(db, [{ ...kase, watchers: [] }], at);
  runId = startRun(db, { startedAt: at, trigger: "manual" });
});

afterEach(() => {
  closeDatabase(db);
});

function context(write = true): CheckContext {
  return {
    db,
    clock: new FakeClock({ now: NOW }),
    logger: silentLogger(),
    settings: { notFoundThreshold: 2 },
    runId: write ? runId : null,
    write,
  };
}

function row(): CaseRow | undefined {
  return getCase(db, kase.digits, kase.court);
}

function fingerprint(found = true): FingerprintedCase {
  return {
    cnjNumber: NUMBER,
    court: "tjdft",
    found,
    fingerprint: found ? "fp" : null,
    instances: [],
    provenance: { index: "api_publica_tjdft", url: "http://fake", fetchedAt: "2026-03-04" },
  };
}

function docs(): FixtureDoc[] {
  return (recorded.indices.tjdft ?? []).filter((d) => d._source.numeroProcesso === kase.digits);
}

function readOf(hits: readonly FixtureDoc[]) {
  return {
    cnjNumber: NUMBER,
    court: "tjdft",
    found: true,
    records: hits.map((h) => normalizeInstanceRecord(h, "tjdft")),
    provenance: fingerprint().provenance,
    error: null,
  };
}

function count(table: "changes" | "movements" | "instances"): number {
  return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
}

describe("record-check", () => {
  it("counts failures and clean not-found answers, and declares a case seen before gone only at the threshold", () => {
    recordRead(context(), kase, row(), fingerprint(), readOf(docs()), "tjdft");
    recordFailure(context(), kase, row(), new Error("socket hang up"));
    recordFailure(context(), kase, row(), new Error("socket hang up"));
    const failing = row();
    recordNotFound(context(), kase, row(), fingerprint(false));
    const once = row();
    recordNotFound(context(), kase, row(), fingerprint(false));

    expect(failing?.consecutiveFailures).toBe(2);
    expect(failing?.lastError).toBe("socket hang up");
    expect([once?.consecutiveFailures, once?.consecutiveNotFound, once?.goneAt]).toEqual([
      0,
      1,
      null,
    ]);
    expect(row()?.goneAt).toBe(new Date(NOW).toISOString());
    expect(listChecks(db, row()?.id ?? -1, 10).map((c) => c.outcome)).toEqual([
      "not_found",
      "not_found",
      "failed",
      "failed",
      "baseline",
    ]);
  });

  it("stores a first read as the baseline, and a later movement as a change with it, together", () => {
    const hits = docs();
    const later = structuredClone(hits);
    const first = later[0];
    if (first === undefined) throw new Error("the fixture has no record of the case");
    (first._source.movimentos as unknown[]).push({
      codigo: 219,
      nome: "Procedência",
      dataHora: "2026-03-03T12:00:00.000Z",
    });

    const baseline = recordRead(context(), kase, row(), fingerprint(), readOf(hits), "tjdft");
    const movementsAfterBaseline = count("movements");
    const changed = recordRead(context(), kase, row(), fingerprint(), readOf(later), "tjdft");

    expect(baseline.outcome).toBe("baseline");
    expect(changed).toMatchObject({ outcome: "changed", newMovements: 1 });
    expect(count("changes")).toBe(1);
    expect(count("movements")).toBe(movementsAfterBaseline + 1);
    expect(row()?.lastOutcome).toBe("changed");
  });

  it("writes nothing on a dry run, and reports the same", () => {
    const read = recordRead(context(false), kase, row(), fingerprint(), readOf(docs()), "tjdft");
    const failed = recordFailure(context(false), kase, row(), new Error("down"));

    expect([read.outcome, failed.outcome]).toEqual(["baseline", "failed"]);
    expect([count("instances"), count("movements"), count("changes")]).toEqual([0, 0, 0]);
    expect(row()?.lastCheckedAt).toBeNull();
  });
});
