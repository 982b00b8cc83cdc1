/**
 * `monitor export` of a big history in a process of its own, so its peak RSS is the export's
 * alone. BENCH_MODE=seed fills BENCH_DB first: one baseline sweep (the production code writes
 * cases, instances and movements) of BENCH_CASES cases with BENCH_MOVEMENTS movements each,
 * DataJud answering from memory. BENCH_MODE=export runs `export --format BENCH_FORMAT` as the CLI
 * does, its stdout the file the parent opened.
 */

import { runCli } from "../../src/cli/run-cli.js";
import { silentLogger } from "../../src/log.js";
import { runSweep } from "../../src/monitor/sweep.js";
import { closeDatabase, openDatabase } from "../../src/store/database.js";
import { realSystem } from "../../src/system.js";
import { systemClock } from "../../src/time/clock.js";
import { INITIAL_MOVEMENTS, seededRandom, watchlistOf } from "./bench-data.js";
import { memoryGateway } from "./memory-gateway.js";

export interface ExportResult {
  code: number;
  seconds: number;
  /** Peak resident set of this whole process, in bytes (the kernel's high-water mark). */
  peakRss: number;
  /** Resident set just before the export (Node, tsx, the CLI's modules), in bytes. */
  startRss: number;
  stderr: string;
}

const dbPath = process.env.BENCH_DB ?? "";
const cases = Number(process.env.BENCH_CASES ?? "5000");

async function seed(): Promise<void> {
  const movements = Number(process.env.BENCH_MOVEMENTS ?? String(INITIAL_MOVEMENTS));
  const watchlist = watchlistOf(cases);
  const extra = new Array<number>(cases).fill(Math.max(0, movements - INITIAL_MOVEMENTS));
  const db = openDatabase(dbPath);
  try {
    await runSweep(
      {
        db,
        gateway: memoryGateway(watchlist, extra, () => Date.now()),
        clock: systemClock,
        logger: silentLogger(),
        settings: { fullRereadDays: 7, notFoundThreshold: 3, concurrency: 8, batchSize: 100 },
        datajudRequests: () => 0,
        random: seededRandom(7),
        host: realSystem,
      },
      { watchlist, force: false, dryRun: false, trigger: "manual" },
    );
  } finally {
    closeDatabase(db);
  }
}

async function exportOnce(): Promise<ExportResult> {
  let stderr = "";
  const startRss = process.memoryUsage().rss;
  const started = performance.now();
  const code = await runCli({
    argv: ["export", "--format", process.env.BENCH_FORMAT ?? "csv"],
    env: { PATH: process.env.PATH ?? "", MONITOR_DB: dbPath },
    cwd: process.env.BENCH_DIR ?? process.cwd(),
    stdout: process.stdout,
    stderr: { write: (chunk) => (stderr += String(chunk)) },
    signal: new AbortController().signal,
  });
  return {
    code,
    seconds: (performance.now() - started) / 1000,
    peakRss: process.resourceUsage().maxRSS * 1024,
    startRss,
    stderr,
  };
}

if (process.env.BENCH_MODE === "seed") {
  await seed();
  process.send?.({ seeded: true }, () => process.exit(0));
} else {
  const result = await exportOnce();
  process.send?.(result, () => process.exit(0));
}
