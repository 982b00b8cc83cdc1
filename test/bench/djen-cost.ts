import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Cron } from "croner";
import { loadConfig } from "../../src/config/load-config.js";
import { silentLogger } from "../../src/log.js";
import {
  askDueBetweenSweeps,
  type BetweenSweepsDeps,
} from "../../src/monitor/publications/between-sweeps.js";
import type { PublicationGateway } from "../../src/monitor/publications/djen-gateway.js";
import {
  type PublicationsDeps,
  watchPublications,
} from "../../src/monitor/publications/watch-publications.js";
import { NOTHING_MAILED } from "../../src/monitor/run-report.js";
import type { SweepDeps } from "../../src/monitor/sweep.js";
import type { PlanSettings } from "../../src/policy/djen-plan.js";
import { closeDatabase, openDatabase } from "../../src/store/database.js";
import { startRun } from "../../src/store/runs.js";
import { isWorkingDay } from "../../src/time/judicial-calendar.js";
import { dateInZone } from "../../src/time/zoned-time.js";
import type { WatchedCase, WatchedOab } from "../../src/watchlist/parse-watchlist.js";
import { FakeClock } from "../fakes/fake-clock.js";
import { caseNumber } from "./bench-data.js";

/*
 * What DJEN costs and how stale it leaves a case, on the default schedule, today's plan and the
 * due-time plan side by side: the real plan, phase and asking between sweeps, with the real
 * database, on a fake clock, against a DJEN that answers every request in the limiter's pace
 * (djen.requestsPerMinute over its 61-s window), one request per case number and seven per
 * registration (its suffix variants). Two weeks are run; the second is measured, so a first look
 * at everything (the baseline) is behind it.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TZ = "America/Sao_Paulo";
/** Monday 29 September 2025, 00:00 in São Paulo: two working weeks with no holiday. */
const START = Date.UTC(2025, 8, 29, 3);
const REQUESTS_PER_OAB = 7;

export interface DjenCost {
  /** DJEN requests sent inside sweeps, per sweep (second week). */
  perSweep: number;
  /** DJEN requests per working day (second week). */
  perBusinessDay: number;
  /** Worst age of a case number's last complete look at any moment of a working day. */
  worstCaseWaitMs: number;
  worstOabWaitMs: number;
}

export interface DjenCostRow {
  cases: number;
  registrations: number;
  today: DjenCost;
  planned: DjenCost;
  settings: PlanSettings;
  requestsPerMinute: number;
  maxMinutesPerSweep: number;
}

/** The end of the last working-day stretch at or before `ms` (São Paulo), or null before `from`. */
function lastWorkingInstant(ms: number, from: number): number | null {
  let t = ms;
  while (t > from) {
    if (isWorkingDay(dateInZone(t - 1, TZ))) return t;
    // Back to the start of that São Paulo day.
    const dayStart = Date.parse(`${dateInZone(t - 1, TZ)}T00:00:00-03:00`);
    t = dayStart;
  }
  return null;
}

/** The oldest a source's last complete look got at any working-day moment of [from, to]. */
function worstWait(looks: readonly number[], from: number, to: number): number {
  let worst = 0;
  const times = [...looks].sort((a, b) => a - b);
  for (let i = 0; i < times.length; i++) {
    const at = times[i] ?? 0;
    const next = Math.min(times[i + 1] ?? to, to);
    if (next <= from) continue;
    const until = lastWorkingInstant(next, Math.max(at, from));
    if (until !== null) worst = Math.max(worst, until - at);
  }
  return worst;
}

async function simulate(
  cases: number,
  registrations: number,
  settings: PlanSettings | null,
  config: {
    requestsPerMinute: number;
    maxMinutesPerSweep: number;
    cron: string;
    windowDays: number;
  },
): Promise<DjenCost> {
  const dir = mkdtempSync(join(tmpdir(), "monitor-bench-djen-"));
  const db = openDatabase(join(dir, "monitor.db"));
  const clock = new FakeClock({ now: START });
  const paceMs = 61_000 / config.requestsPerMinute;
  const looks = new Map<string, number[]>();
  let requests: Array<{ at: number; n: number; inSweep: boolean }> = [];
  let inSweep = false;
  const gateway: PublicationGateway = {
    read: async (sources) => {
      const n = sources.cnjNumbers.length + sources.oab.length * REQUESTS_PER_OAB;
      requests.push({ at: clock.now(), n, inSweep });
      clock.set(clock.now() + n * paceMs);
      const keys = [...sources.cnjNumbers, ...sources.oab];
      for (const key of keys) looks.get(key)?.push(clock.now());
      return [
        ...sources.cnjNumbers.map((key) => ({ kind: "case" as const, key })),
        ...sources.oab.map((key) => ({ kind: "oab" as const, key })),
      ].map((s) => ({ ...s, complete: true, publications: [], error: null }));
    },
  };
  const watched = Array.from(
    { length: cases },
    (_, i) => ({ digits: caseNumber(i).digits }) as WatchedCase,
  );
  const oab = Array.from(
    { length: registrations },
    (_, i) => ({ key: `${100_000 + i}/SP` }) as WatchedOab,
  );
  for (const c of watched) looks.set(c.digits, []);
  for (const o of oab) looks.set(o.key, []);
  const phase: PublicationsDeps = {
    gateway,
    windowDays: config.windowDays,
    maxMinutesPerSweep: config.maxMinutesPerSweep,
    // DJEN's rate is simulated on the fake clock, one answer after another.
    concurrency: 1,
    // Today's plan: every source at every sweep, nothing between sweeps.
    plan: settings ?? { caseEveryHours: 0, oabEveryHours: 0 },
    requests: () => requests.reduce((sum, r) => sum + r.n, 0),
  };
  const sweepDeps = {
    db,
    clock,
    logger: silentLogger(),
    publications: phase,
  } as unknown as SweepDeps;
  const between: BetweenSweepsDeps = {
    db,
    clock,
    random: Math.random,
    logger: silentLogger(),
    publications: phase,
    watchlist: () => ({ cases: watched, oab }),
    report: {
      publications: () => ({}),
      deliver: async () => NOTHING_MAILED,
    },
    host: { hostname: () => "bench", pid: 1, isAlive: () => true, every: () => () => undefined },
  };
  const cron = new Cron(config.cron, { timezone: TZ, paused: true });
  const end = START + 14 * DAY;
  const measuredFrom = START + 7 * DAY;
  let sweepsMeasured = 0;
  try {
    let nextSweep = cron.nextRun(new Date(START - 1))?.getTime() ?? Number.POSITIVE_INFINITY;
    while (clock.now() < end) {
      if (clock.now() >= nextSweep) {
        const startedAt = new Date(clock.now()).toISOString();
        const id = startRun(db, { startedAt, trigger: "schedule" });
        if (clock.now() >= measuredFrom) sweepsMeasured++;
        inSweep = true;
        await watchPublications(
          sweepDeps,
          { id, startedAt, write: true, signal: new AbortController().signal, requestsBefore: 0 },
          { selected: watched, oab, watchlist: watched },
        );
        inSweep = false;
        // A tick that comes while a sweep still runs is skipped.
        nextSweep = cron.nextRun(new Date(clock.now()))?.getTime() ?? Number.POSITIVE_INFINITY;
        continue;
      }
      if (settings === null) {
        clock.set(Math.min(nextSweep, end));
        continue;
      }
      const step = await askDueBetweenSweeps(between, new AbortController().signal);
      if (step.waitMs > 0) clock.set(Math.min(clock.now() + step.waitMs, nextSweep, end));
    }
  } finally {
    cron.stop();
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  }
  requests = requests.filter((r) => r.at >= measuredFrom && r.at < end);
  const businessDays = Array.from({ length: 7 }, (_, d) =>
    dateInZone(measuredFrom + d * DAY + 12 * HOUR, TZ),
  ).filter(isWorkingDay);
  const onBusinessDays = requests
    .filter((r) => businessDays.includes(dateInZone(r.at, TZ)))
    .reduce((sum, r) => sum + r.n, 0);
  const worst = (keys: readonly string[]): number =>
    Math.max(0, ...keys.map((k) => worstWait(looks.get(k) ?? [], measuredFrom, end)));
  return {
    perSweep:
      sweepsMeasured === 0
        ? 0
        : requests.filter((r) => r.inSweep).reduce((sum, r) => sum + r.n, 0) / sweepsMeasured,
    perBusinessDay: onBusinessDays / Math.max(1, businessDays.length),
    worstCaseWaitMs: worst(watched.map((c) => c.digits)),
    worstOabWaitMs: worst(oab.map((o) => o.key)),
  };
}

/** The default configuration's DJEN settings and schedule, as config/default.yaml ships them. */
function defaults(): {
  settings: PlanSettings;
  requestsPerMinute: number;
  maxMinutesPerSweep: number;
  cron: string;
  windowDays: number;
} {
  const loaded = loadConfig({ env: {}, cwd: tmpdir() });
  if (!loaded.ok) throw new Error(loaded.errors.join("; "));
  const { djen, schedule } = loaded.config;
  return {
    settings: { caseEveryHours: djen.caseEveryHours, oabEveryHours: djen.oabEveryHours },
    requestsPerMinute: djen.requestsPerMinute,
    maxMinutesPerSweep: djen.maxMinutesPerSweep,
    cron: schedule.cron,
    windowDays: djen.windowDays,
  };
}

export async function djenCostRows(
  sizes: readonly number[],
  registrations: number,
): Promise<DjenCostRow[]> {
  const config = defaults();
  const rows: DjenCostRow[] = [];
  for (const cases of sizes) {
    const today = await simulate(cases, registrations, null, config);
    const planned = await simulate(cases, registrations, config.settings, config);
    rows.push({ cases, registrations, today, planned, ...config });
    process.stderr.write(`done: DJEN plan, ${cases} cases\n`);
  }
  return rows;
}

function hours(ms: number): string {
  return ms >= 2 * DAY ? `${(ms / DAY).toFixed(1)} days` : `${(ms / HOUR).toFixed(1)} h`;
}

export function djenCostTable(rows: readonly DjenCostRow[]): {
  header: string[];
  body: string[][];
} {
  const pair = (a: string, b: string): string => `${a} / ${b}`;
  return {
    header: [
      "cases + registrations",
      "DJEN requests per sweep, today / planned",
      "per business day, today / planned",
      "worst wait between complete looks, case numbers, today / planned",
      "registrations, today / planned",
    ],
    body: rows.map((r) => [
      `${r.cases.toLocaleString("en")} + ${r.registrations}`,
      pair(r.today.perSweep.toFixed(0), r.planned.perSweep.toFixed(0)),
      pair(r.today.perBusinessDay.toFixed(0), r.planned.perBusinessDay.toFixed(0)),
      pair(hours(r.today.worstCaseWaitMs), hours(r.planned.worstCaseWaitMs)),
      pair(hours(r.today.worstOabWaitMs), hours(r.planned.worstOabWaitMs)),
    ]),
  };
}
