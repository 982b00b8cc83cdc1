import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../../src/log.js";
import type {
  DataJudGateway,
  FingerprintedCase,
  ReadCase,
} from "../../../../src/monitor/detect/datajud-gateway.js";
import { type DetectDeps, detectChanges } from "../../../../src/monitor/detect/detect.js";
import { openRun, type SweepRun } from "../../../../src/monitor/run.js";
import { getCase } from "../../../../src/store/cases.js";
import { listChecks } from "../../../../src/store/checks.js";
import { closeDatabase, type Db, openDatabase } from "../../../../src/store/database.js";
import { parseWatchlist, type WatchedCase } from "../../../../src/watchlist/parse-watchlist.js";
import { FakeClock, fakeSystem } from "../../../fakes/fake-clock.js";
import { makeTempDir } from "../../../support/temp-dir.js";

/*
 * The judging half of detection (detect.ts), against a gateway that answers as the test says:
 * what each answer means for each case's check. Which request goes when is batch-scheduler.ts's.
 */

const A = "0713383-43.2025.8.07.0006";
const B = "0708123-34.2024.8.07.0001";
const C = "0712345-63.2025.8.07.0016";
const NOW = Date.parse("2026-03-04T15:00:00.000Z");

type Answer<T> = (index: string, numbers: readonly string[]) => T[];

let db: Db;
let clock: FakeClock;

beforeEach(() => {
  db = openDatabase(`${makeTempDir("detect-")}/monitor.db`);
  clock = new FakeClock({ now: NOW });
});

afterEach(() => {
  closeDatabase(db);
});

function watched(...numbers: string[]): WatchedCase[] {
  const parsed = parseWatchlist(
    `cases:\n${numbers.map((n) => `  - number: "${n}"\n`).join("")}`,
    "watchlist.yaml",
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.watchlist.cases;
}

function fingerprintOf(cnjNumber: string, index: string, fingerprint: string): FingerprintedCase {
  return {
    cnjNumber,
    court: index,
    found: true,
    fingerprint,
    instances: [],
    provenance: { index: `api_publica_${index}`, url: "http://fake", fetchedAt: "2026-03-04" },
  };
}

function missingFrom(cnjNumber: string, index: string): FingerprintedCase {
  return { ...fingerprintOf(cnjNumber, index, ""), found: false, fingerprint: null };
}

function gateway(answers: {
  fingerprint: Answer<FingerprintedCase> | Error;
  read?: Answer<ReadCase>;
}): DataJudGateway {
  return {
    fingerprint: async (index, numbers) => {
      if (answers.fingerprint instanceof Error) throw answers.fingerprint;
      return answers.fingerprint(index, numbers);
    },
    read: async (index, numbers) => answers.read?.(index, numbers) ?? [],
  };
}

/** As if a sweep had read each case in full today, storing its fingerprint `fp-<number>`. */
function markSeen(cases: readonly WatchedCase[]): void {
  for (const c of cases) {
    db.prepare(
      `UPDATE cases SET first_seen_at = @at, last_full_read_at = @at, last_fingerprint = @fp
       WHERE digits = @digits AND court = @court`,
    ).run({
      at: new Date(NOW).toISOString(),
      fp: `fp-${c.number}`,
      digits: c.digits,
      court: c.court,
    });
  }
}

async function detect(
  cases: readonly WatchedCase[],
  answers: Parameters<typeof gateway>[0],
): Promise<Record<string, { outcome: string; error: string | null }>> {
  const deps: DetectDeps = {
    db,
    clock,
    logger: silentLogger(),
    gateway: gateway(answers),
    settings: { fullRereadDays: 7, notFoundThreshold: 3, concurrency: 2, batchSize: 2 },
  };
  const signal = new AbortController().signal;
  const run: SweepRun = openRun(
    { ...deps, datajudRequests: () => 0, random: Math.random, host: fakeSystem(clock) },
    { watchlist: cases, dryRun: false, trigger: "manual" },
    signal,
  );
  const detected = await detectChanges(deps, run, cases, false);
  return Object.fromEntries(
    detected.cases.map((c) => [c.number, { outcome: c.outcome, error: c.error }]),
  );
}

describe("detectChanges: what an answer means for each case", () => {
  it("fails every case of a request DataJud did not answer, and each case its answer left out", async () => {
    const cases = watched(A, B, C);

    const refused = await detect(cases, { fingerprint: new Error("socket hang up") });
    markSeen(cases);
    const partial = await detect(cases, {
      fingerprint: (index, numbers) =>
        numbers.filter((n) => n !== B).map((n) => fingerprintOf(n, index, `fp-${n}`)),
    });

    expect(Object.values(refused).map((r) => r.outcome)).toEqual(["failed", "failed", "failed"]);
    expect(refused[A]?.error).toContain("socket hang up");
    expect(partial[B]).toEqual({
      outcome: "failed",
      error: expect.stringContaining("did not include this case"),
    });
    expect(partial[A]).toEqual({ outcome: "unchanged", error: null });
  });

  it("reads what moved; a record gone between its fingerprint and its read is a failed check, not news", async () => {
    const cases = watched(A);
    const fingerprint: Answer<FingerprintedCase> = (index, numbers) =>
      numbers.map((n) => fingerprintOf(n, index, "fp-1"));
    const reads: string[][] = [];

    const first = await detect(cases, {
      fingerprint,
      read: (index, numbers) => {
        reads.push([...numbers]);
        return numbers.map((n) => ({
          cnjNumber: n,
          court: index,
          found: false,
          records: [],
          provenance: { index: `api_publica_${index}`, url: "http://fake", fetchedAt: "x" },
          error: null,
        }));
      },
    });

    expect(reads).toEqual([[A]]);
    expect(first[A]).toEqual({
      outcome: "failed",
      error: expect.stringContaining("returned the case's fingerprint but not its record"),
    });
  });

  it("reads a whole answer missing every case seen before as a broken answer, not as cases gone", async () => {
    const cases = watched(A, B);
    await detect(cases, { fingerprint: new Error("not yet") });
    markSeen(cases);

    const emptied = await detect(cases, {
      fingerprint: (index, numbers) => numbers.map((n) => missingFrom(n, index)),
    });

    expect(Object.values(emptied).map((r) => r.outcome)).toEqual(["failed", "failed"]);
    expect(emptied[A]?.error).toContain("read as a broken DataJud answer");
    const row = getCase(db, cases[0]?.digits ?? "", "tjdft");
    expect(listChecks(db, row?.id ?? -1, 1)[0]?.outcome).toBe("failed");
  });
});
