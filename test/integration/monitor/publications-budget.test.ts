import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/log.js";
import type {
  DjenWindow,
  PublicationGateway,
  PublicationSource,
} from "../../../src/monitor/publications/djen-gateway.js";
import { watchPublications } from "../../../src/monitor/publications/watch-publications.js";
import type { SweepRun } from "../../../src/monitor/run.js";
import type { SweepDeps } from "../../../src/monitor/sweep.js";
import { closeDatabase, type Db, openDatabase } from "../../../src/store/database.js";
import { listDjenSources } from "../../../src/store/djen-sources.js";
import { startRun } from "../../../src/store/runs.js";
import type { WatchedCase, WatchedOab } from "../../../src/watchlist/parse-watchlist.js";
import { FakeClock } from "../../fakes/fake-clock.js";

/*
 * djen.maxMinutesPerSweep: a sweep stops asking DJEN when its time is up, counts what it left as
 * deferred (not failed), and the next sweep asks those first, from the day of their last complete
 * answer. The gateway is a fake that takes one minute of the fake clock per call.
 */

const MINUTE = 60_000;
const START = Date.UTC(2025, 9, 6, 13, 0);

let dir: string;
let db: Db;
let clock: FakeClock;
let calls: Array<{ cnjNumbers: readonly string[]; oab: readonly string[]; window: DjenWindow }>;

const gateway: PublicationGateway = {
  read: async (sources, window) => {
    calls.push({ ...sources, window });
    await clock.advance(MINUTE);
    return [
      ...sources.cnjNumbers.map((key) => ({ kind: "case" as const, key })),
      ...sources.oab.map((key) => ({ kind: "oab" as const, key })),
    ].map((s): PublicationSource => ({ ...s, complete: true, publications: [], error: null }));
  },
};

/** 25 case numbers (three calls of up to ten) and one registration. */
const cases = Array.from(
  { length: 25 },
  (_, i) => ({ digits: String(i).padStart(20, "0") }) as WatchedCase,
);
const oab = [{ key: "123456/SP" } as WatchedOab];

function deps(maxMinutesPerSweep: number): SweepDeps {
  return {
    db,
    clock,
    logger: silentLogger(),
    publications: {
      gateway,
      windowDays: 2,
      maxMinutesPerSweep,
      concurrency: 1,
      // Every source due at every sweep: what is measured here is the time limit alone.
      plan: { caseEveryHours: 0, oabEveryHours: 0 },
      requests: () => calls.length,
    },
  } as unknown as SweepDeps;
}

function run(): SweepRun {
  const startedAt = new Date(clock.now()).toISOString();
  const id = startRun(db, { startedAt, trigger: "manual" });
  return { id, startedAt, write: true, signal: new AbortController().signal, requestsBefore: 0 };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "monitor-djen-budget-"));
  db = openDatabase(join(dir, "monitor.db"));
  clock = new FakeClock({ now: START });
  calls = [];
});

afterEach(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

describe("DJEN's time per sweep", () => {
  it("stops when the time is up, defers the rest, and asks those first next sweep", async () => {
    const first = await watchPublications(deps(3), run(), {
      selected: cases,
      oab,
      watchlist: cases,
    });
    const firstCalls = calls.length;
    // Two days later: the deferred registration was never answered, so its baseline comes first.
    clock.set(START + 2 * 24 * 60 * MINUTE);
    const second = await watchPublications(deps(3), run(), {
      selected: cases,
      oab,
      watchlist: cases,
    });
    const secondCalls = calls.slice(firstCalls);

    expect(first.report).toMatchObject({ checked: 25, failed: 0, deferred: 1 });
    expect(firstCalls).toBe(3);
    // The registration left unasked goes first, then the numbers answered longest ago.
    expect(second.report).toMatchObject({ checked: 21, failed: 0, deferred: 5 });
    expect(secondCalls[0]?.oab).toEqual(["123456/SP"]);
    expect(secondCalls[1]?.cnjNumbers).toEqual(cases.slice(0, 10).map((c) => c.digits));
    // Answered two days ago: asked from that day, so nothing made available meanwhile is missed.
    expect(secondCalls[1]?.window).toEqual({ from: "2025-10-06", to: "2025-10-08" });
    expect(listDjenSources(db)).toHaveLength(26);
  });

  it("asks everything when the limit is 0", async () => {
    const result = await watchPublications(deps(0), run(), {
      selected: cases,
      oab,
      watchlist: cases,
    });

    expect(result.report).toMatchObject({ checked: 26, deferred: 0 });
    expect(calls).toHaveLength(4);
  });
});
