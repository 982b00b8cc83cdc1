/**
 * Years of history for the "cost grows with cases, not with history" figures. Every simulated
 * sweep is a real `runSweep` (so checks, runs, changes, versions and movements are written by the
 * production code) on a clock that jumps through the default schedule (3 sweeps a weekday), and
 * the daemon's daily retention job (unchanged checks folded, 180 days kept) runs between days.
 * Only DataJud is replaced: a gateway that answers from memory, because HTTP and MCP costs are
 * what the other rows measure.
 * Each case gets a new movement with a fixed chance per sweep (BENCH_MOVES_PER_MONTH, default 2).
 */
import { statSync } from "node:fs";
import { silentLogger } from "../../src/log.js";
import { pruneOldChecks } from "../../src/monitor/retention.js";
import { runSweep, type SweepDeps } from "../../src/monitor/sweep.js";
import { closeDatabase, openDatabase } from "../../src/store/database.js";
import { realSystem } from "../../src/system.js";
import type { Clock } from "../../src/time/clock.js";
import { seededRandom, watchlistOf } from "./bench-data.js";
import { memoryGateway } from "./memory-gateway.js";

export interface HistoryResult {
  sweeps: number;
  movements: number;
  /** The database file after the first sweep (the baseline), checkpointed. */
  baselineBytes: number;
  dbBytes: number;
  simulateSeconds: number;
  /** One sweep with nothing new, timed after the history is in place. */
  unchangedSeconds: number;
  /** One sweep where 1% of the cases have a new movement. */
  changedSeconds: number;
  peakRss: number;
}

const dbPath = process.env.BENCH_DB ?? "";
const cases = Number(process.env.BENCH_CASES ?? "1000");
const years = Number(process.env.BENCH_YEARS ?? "1");
const movesPerMonth = Number(process.env.BENCH_MOVES_PER_MONTH ?? "2");
const RETENTION_DAYS = 180;
const DAY = 86_400_000;
const SWEEP_HOURS_UTC = [10, 15, 20]; // 07:00, 12:00, 17:00 in São Paulo
const SWEEPS_PER_YEAR = 261 * SWEEP_HOURS_UTC.length;

let now = Date.UTC(2025, 0, 6); // a Monday
const clock: Clock = {
  now: () => now,
  sleep: async (ms) => {
    now += ms;
  },
};

const watchlist = watchlistOf(cases);
/** Movements each case gained beyond the initial ones. */
const extra = new Array<number>(cases).fill(0);
const gateway = memoryGateway(watchlist, extra, () => now);

const db = openDatabase(dbPath);
const deps: SweepDeps = {
  db,
  gateway,
  clock,
  logger: silentLogger(),
  settings: { fullRereadDays: 7, notFoundThreshold: 3, concurrency: 8, batchSize: 100 },
  datajudRequests: () => 0,
  random: seededRandom(7),
  host: realSystem,
};
const sweep = (): Promise<unknown> =>
  runSweep(deps, { watchlist, force: false, dryRun: false, trigger: "schedule" });

const random = seededRandom(years);
const chance = (movesPerMonth * 12) / SWEEPS_PER_YEAR;
const started = performance.now();
let sweeps = 0;
let movements = 0;
let baselineBytes = 0;
const end = now + years * 365 * DAY;
for (let day = now; day < end; day += DAY) {
  const weekday = new Date(day).getUTCDay();
  if (weekday !== 0 && weekday !== 6) {
    for (const hour of SWEEP_HOURS_UTC) {
      now = day + hour * 3_600_000;
      if (sweeps > 0) {
        for (let i = 0; i < cases; i++) {
          if (random() < chance) {
            extra[i] = (extra[i] ?? 0) + 1;
            movements++;
          }
        }
      }
      await sweep();
      sweeps++;
      if (sweeps === 1) {
        db.pragma("wal_checkpoint(TRUNCATE)");
        baselineBytes = statSync(dbPath).size;
      }
    }
  }
  now = day + DAY + 6 * 3_600_000; // 03:17 in São Paulo, near enough
  // The daemon's daily job: fold unchanged checks, delete what is past the retention.
  pruneOldChecks(db, now, RETENTION_DAYS, silentLogger());
}
const simulateSeconds = (performance.now() - started) / 1000;

now += DAY;
let t = performance.now();
await sweep();
const unchangedSeconds = (performance.now() - t) / 1000;
for (let i = 0; i < cases; i += 100) extra[i] = (extra[i] ?? 0) + 1;
now += 3_600_000;
t = performance.now();
await sweep();
const changedSeconds = (performance.now() - t) / 1000;

db.pragma("wal_checkpoint(TRUNCATE)");
closeDatabase(db);
const result: HistoryResult = {
  sweeps,
  movements,
  baselineBytes,
  dbBytes: statSync(dbPath).size,
  simulateSeconds,
  unchangedSeconds,
  changedSeconds,
  peakRss: process.resourceUsage().maxRSS * 1024,
};
process.send?.(result, () => process.exit(0));
