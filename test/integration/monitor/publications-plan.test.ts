import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readStatus } from "../../../src/cli/status.js";
import { DJEN_UNREACHABLE_PREFIX, DjenError } from "../../../src/djen/errors.js";
import { toPublication } from "../../../src/djen/publication.js";
import { RawItem } from "../../../src/djen/raw-schemas.js";
import { silentLogger } from "../../../src/log.js";
import {
  askDueBetweenSweeps,
  type BetweenSweepsDeps,
  startBetweenSweeps,
} from "../../../src/monitor/publications/between-sweeps.js";
import type {
  DjenWindow,
  PublicationGateway,
  PublicationSource,
} from "../../../src/monitor/publications/djen-gateway.js";
import {
  type PublicationsDeps,
  watchPublications,
} from "../../../src/monitor/publications/watch-publications.js";
import type { SweepRun } from "../../../src/monitor/run.js";
import { NOTHING_MAILED } from "../../../src/monitor/run-report.js";
import type { SweepDeps } from "../../../src/monitor/sweep.js";
import { closeDatabase, type Db, openDatabase } from "../../../src/store/database.js";
import { getDjenSource } from "../../../src/store/djen-sources.js";
import { startRun } from "../../../src/store/runs.js";
import type { WatchedCase, WatchedOab } from "../../../src/watchlist/parse-watchlist.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { djenItem } from "../../fakes/fake-djen.js";
import { makeTempDir } from "../../support/temp-dir.js";

/*
 * The DJEN plan through the real phase and the real database, on a fake clock: sweeps at the
 * default schedule's hours and the daemon's asking between them, across a week; a day the server
 * was off; and the asking between sweeps paused by a sweep.
 */

const HOUR = 3_600_000;
/** Monday 6 October 2025, 00:00 in São Paulo (UTC-3). */
const MONDAY = Date.UTC(2025, 9, 6, 3);

let db: Db;
let clock: FakeClock;
let calls: Array<{
  at: number;
  cnjNumbers: readonly string[];
  oab: readonly string[];
  window: DjenWindow;
}>;
/** What the fake DJEN holds, by case number: items as DJEN sends them. */
let feed: Map<string, Array<Record<string, unknown>>>;

const gateway: PublicationGateway = {
  read: async (sources, window) => {
    calls.push({ at: clock.now(), ...sources, window });
    return [
      ...sources.cnjNumbers.map((key) => ({ kind: "case" as const, key })),
      ...sources.oab.map((key) => ({ kind: "oab" as const, key })),
    ].map(
      (s): PublicationSource => ({
        ...s,
        complete: true,
        publications: (s.kind === "case" ? (feed.get(s.key) ?? []) : [])
          .filter((item) => {
            const day = String(item.data_disponibilizacao);
            return day >= window.from && day <= window.to;
          })
          .flatMap((item) => {
            const parsed = toPublication(RawItem.parse(item), item, {
              baseUrl: "http://djen.test",
            });
            return parsed.ok ? [parsed.value] : [];
          }),
        error: null,
      }),
    );
  },
};

const cases = ["07133834320258070006", "10352894820228260602"].map(
  (digits) => ({ digits }) as WatchedCase,
);
const oab = [{ key: "123456/SP" } as WatchedOab];

function phase(): PublicationsDeps {
  return {
    gateway,
    windowDays: 2,
    maxMinutesPerSweep: 60,
    concurrency: 1,
    plan: { caseEveryHours: 8, oabEveryHours: 2 },
    requests: () => calls.length,
  };
}

function sweepDeps(): SweepDeps {
  return { db, clock, logger: silentLogger(), publications: phase() } as unknown as SweepDeps;
}

function run(): SweepRun {
  const startedAt = new Date(clock.now()).toISOString();
  const id = startRun(db, { startedAt, trigger: "schedule" });
  return { id, startedAt, write: true, signal: new AbortController().signal, requestsBefore: 0 };
}

function betweenDeps(): BetweenSweepsDeps {
  return {
    db,
    clock,
    random: Math.random,
    logger: silentLogger(),
    publications: phase(),
    watchlist: () => ({ cases, oab }),
    report: { publications: () => ({}), deliver: async () => NOTHING_MAILED },
    host: { hostname: () => "test", pid: 1, isAlive: () => true, every: () => () => undefined },
  };
}

beforeEach(() => {
  db = openDatabase(join(makeTempDir("monitor-djen-plan-"), "monitor.db"));
  clock = new FakeClock({ now: MONDAY });
  calls = [];
  feed = new Map();
});

afterEach(() => {
  closeDatabase(db);
});

/** São Paulo wall time, "ddd HH:MM". */
function sp(ms: number): string {
  const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  const local = new Date(ms - 3 * HOUR);
  return `${days[local.getUTCDay()]} ${String(local.getUTCHours()).padStart(2, "0")}:${String(local.getUTCMinutes()).padStart(2, "0")}`;
}

describe("the DJEN plan over a week", () => {
  it("asks each source when due, between sweeps and in them, and never one not due", async () => {
    // The default schedule: 07:00, 12:00 and 17:00 on weekdays; between them, the daemon's asking.
    const sweepHours = [7, 12, 17];
    const end = MONDAY + 7 * 24 * HOUR;
    const sweeps: number[] = [];
    for (let day = 0; day < 5; day++) {
      for (const h of sweepHours) sweeps.push(MONDAY + (day * 24 + h) * HOUR);
    }
    const deps = betweenDeps();
    while (clock.now() <= end) {
      const nextSweep = sweeps.find((t) => t >= clock.now()) ?? Number.POSITIVE_INFINITY;
      if (nextSweep === clock.now()) {
        await watchPublications(sweepDeps(), run(), { selected: cases, oab, watchlist: cases });
        clock.set(clock.now() + 1);
        continue;
      }
      const step = await askDueBetweenSweeps(deps, new AbortController().signal);
      if (step.waitMs > 0) {
        if (clock.now() >= end) break;
        clock.set(Math.min(clock.now() + step.waitMs, nextSweep, end));
      }
    }

    const looksAt = (key: string): string[] =>
      calls.filter((c) => [...c.cnjNumbers, ...c.oab].includes(key)).map((c) => sp(c.at));
    // Never answered at Monday 00:00: asked between sweeps at once, both numbers in one call; then
    // every 8 h (the sweeps find nothing due); Saturday and Sunday once; Monday 00:00 again.
    const weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri"].flatMap((d) =>
      ["00:00", "08:00", "16:00"].map((t) => `${d} ${t}`),
    );
    expect(looksAt(cases[0]?.digits ?? "")).toEqual([
      ...weekdays,
      "Sat 16:00",
      "Sun 16:00",
      "Mon 00:00",
    ]);
    expect(looksAt(cases[1]?.digits ?? "")).toEqual(looksAt(cases[0]?.digits ?? ""));
    expect(looksAt("123456/SP")).toHaveLength(60 + 2 + 1);
    // 18 looks at the two numbers, in one call each, and 63 at the registration: no call for a
    // source that was not due.
    expect(calls).toHaveLength(18 + 63);
  });

  it("finds, after a day the server was off, what was made available that day", async () => {
    // Tuesday 10:00: both numbers answered; then the server is off until Thursday 09:00.
    clock.set(MONDAY + 34 * HOUR);
    await watchPublications(sweepDeps(), run(), { selected: cases, oab: [], watchlist: cases });
    const [first] = cases;
    feed.set(first?.digits ?? "", [
      djenItem({ id: 9001, caseNumber: first?.digits ?? "", date: "2025-10-08" }),
    ]);
    clock.set(MONDAY + 3 * 24 * HOUR + 9 * HOUR);

    const after = await watchPublications(sweepDeps(), run(), {
      selected: cases,
      oab: [],
      watchlist: cases,
    });

    // Asked from Tuesday, the day of the last complete answer, not only yesterday and today.
    expect(calls.at(-1)?.window).toEqual({ from: "2025-10-07", to: "2025-10-09" });
    expect(after.report.failures).toEqual([]);
    expect(after.report).toMatchObject({ checked: 2, newPublications: 1 });
  });
});

describe("a sweep", () => {
  it("asks only what is due, saying when the rest is, unless run-once --case asks for them now", async () => {
    clock.set(MONDAY + 10 * HOUR);
    await watchPublications(sweepDeps(), run(), { selected: cases, oab: [], watchlist: cases });
    clock.set(MONDAY + 11 * HOUR);

    const due = await watchPublications(sweepDeps(), run(), {
      selected: cases,
      oab: [],
      watchlist: cases,
    });
    const now = await watchPublications(sweepDeps(), run(), {
      selected: cases.slice(0, 1),
      oab: [],
      watchlist: cases,
      everySelected: true,
    });

    // Answered Monday 10:00: due again 8 hours later, at 18:00 (21:00 UTC).
    expect(due.report).toMatchObject({
      checked: 0,
      notDue: 2,
      nextDueAt: "2025-10-06T21:00:00.000Z",
    });
    expect(now.report).toMatchObject({ checked: 1, notDue: 0 });
    expect(calls.at(-1)?.cnjNumbers).toEqual([cases[0]?.digits]);
  });
});

describe("asking between sweeps", () => {
  it("stops while a sweep runs and goes on after it", async () => {
    let release: (() => void) | null = null;
    const held: PublicationGateway = {
      read: (sources, window, signal) =>
        new Promise((resolve, reject) => {
          calls.push({ at: clock.now(), ...sources, window });
          signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
          release = () => resolve(gateway.read(sources, window));
        }),
    };
    const deps = { ...betweenDeps(), publications: { ...phase(), gateway: held } };
    const asking = startBetweenSweeps(deps);
    await clock.advance(0);
    const askedBeforePause = calls.length;

    await asking.pause();
    await clock.advance(HOUR);
    const askedWhilePaused = calls.length - askedBeforePause;
    asking.resume();
    await clock.advance(0);
    (release as (() => void) | null)?.();
    await clock.advance(0);
    await asking.stop();

    expect(askedBeforePause).toBe(1);
    expect(askedWhilePaused).toBe(0);
    expect(calls.length).toBeGreaterThan(askedBeforePause);
  });
});

describe("asking between sweeps while DJEN cannot be reached", () => {
  it("backs off, doubling from 10 minutes to 4 hours, says when it tries next, and starts over once DJEN answers", async () => {
    let reachable = false;
    const flaky: PublicationGateway = {
      read: async (sources, window, signal) => {
        if (reachable) return gateway.read(sources, window, signal);
        calls.push({ at: clock.now(), ...sources, window });
        throw new DjenError(
          "network",
          `${DJEN_UNREACHABLE_PREFIX} at http://djen.test: ECONNREFUSED`,
        );
      },
    };
    const deps = { ...betweenDeps(), publications: { ...phase(), gateway: flaky } };
    const start = MONDAY + 10 * HOUR;
    clock.set(start);
    const status = () =>
      readStatus(db, {
        watchlist: null,
        now: new Date(clock.now()),
        timezone: "America/Sao_Paulo",
        djen: { enabled: true, plan: phase().plan },
      }).djenUnreachable;
    const runFor = async (until: number): Promise<void> => {
      while (clock.now() < until) {
        const step = await askDueBetweenSweeps(deps, new AbortController().signal);
        clock.set(Math.min(clock.now() + Math.max(step.waitMs, 1), until));
      }
    };

    await runFor(start + 8 * HOUR);
    const minutes = calls.map((c) => (c.at - start) / 60_000);
    // Tries at 0, +10, +20, +40, +80, +160 minutes: one request each (the rest not sent), not 48.
    expect(minutes).toEqual([0, 10, 30, 70, 150, 310]);
    // One failed check per source per try, never "no publications".
    for (const [kind, key] of [
      ["case", cases[0]?.digits ?? ""],
      ["case", cases[1]?.digits ?? ""],
      ["oab", "123456/SP"],
    ] as const) {
      expect(getDjenSource(db, kind, key)).toMatchObject({
        lastOutcome: "failed",
        lastOkAt: null,
        consecutiveFailures: 6,
      });
    }
    // The next try: 4 h (the cap) after the sixth, at 10:00 + 550 min = 19:10 São Paulo.
    expect(status()).toMatchObject({
      trips: 6,
      retryAt: new Date(start + 550 * 60_000).toISOString(),
    });

    reachable = true;
    await runFor(start + 550 * 60_000 + 1);
    expect(calls.at(-1)?.at).toBe(start + 550 * 60_000);
    expect(status()).toBeNull();
    expect(getDjenSource(db, "oab", "123456/SP")?.lastOutcome).toBe("ok");

    // Down again: the wait starts over at 10 minutes.
    reachable = false;
    clock.set(start + 12 * HOUR);
    const tried = calls.length;
    await runFor(start + 12 * HOUR + 15 * 60_000);
    expect(calls.slice(tried).map((c) => (c.at - start - 12 * HOUR) / 60_000)).toEqual([0, 10]);
  });
});
