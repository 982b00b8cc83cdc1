/**
 * One monitor process running one sweep, wired as `monitor run-once` wires it (HTTP client, the
 * MCP server in process, the gateway, the store). A fresh process per scenario, so its peak RSS
 * is that scenario's alone, and its limiter starts empty like a scheduled sweep hours after the last.
 */
import { boundHeapGrowth } from "../../src/cli/heap.js";
import { CaseReader } from "../../src/datajud/case-reader.js";
import { DataJudHttpClient, DEFAULT_DATAJUD_CONCURRENCY } from "../../src/datajud/http-client.js";
import { silentLogger } from "../../src/log.js";
import { connectInProcess } from "../../src/mcp/in-process-client.js";
import { createDataJudServer } from "../../src/mcp/server.js";
import { mcpGateway } from "../../src/monitor/detect/datajud-gateway.js";
import { runSweep, type SweepEvent } from "../../src/monitor/sweep.js";
import { closeDatabase, openDatabase } from "../../src/store/database.js";
import { realSystem } from "../../src/system.js";
import { type Clock, systemClock } from "../../src/time/clock.js";
import { watchlistOf } from "./bench-data.js";

export interface SweepResult {
  checked: number;
  changed: number;
  failed: number;
  requests: number;
  /** Wall time on the real clock (run.ts scales it back when the client's time ran faster). */
  seconds: number;
  /** Peak resident set of this whole process, in bytes. */
  peakRss: number;
  /** Resident set just before the sweep started (code, SQLite, the watchlist), in bytes. */
  startRss: number;
  /** Each retried request: index, error kind and message. */
  retries: string[];
}

// As every monitor process does first (src/cli/main.ts), so the peak is the monitor's.
boundHeapGrowth();

const url = process.env.BENCH_URL ?? "";
const dbPath = process.env.BENCH_DB ?? "";
const cases = Number(process.env.BENCH_CASES ?? "0");
/** DataJud requests in flight at once: datajud.concurrency. */
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? String(DEFAULT_DATAJUD_CONCURRENCY));

/**
 * The DataJud client's time runs this many times faster than the wall clock (its limiter window,
 * backoff pauses, deadlines, the concurrency's growth window): with the fake's latency divided by
 * the same factor, a sweep plays out as it would at full scale, only shorter. 1: real time.
 */
const timeScale = Number(process.env.BENCH_TIME_SCALE ?? "1");

function scaledClock(scale: number): Clock {
  if (scale === 1) return systemClock;
  const origin = performance.now();
  const epoch = Date.now();
  return {
    now: () => epoch + (performance.now() - origin) * scale,
    sleep: (ms, signal) => systemClock.sleep(ms / scale, signal),
  };
}

const watchlist = watchlistOf(cases);
// Retries are part of a sweep's cost: the bench reports each one, with why.
const retries: string[] = [];
const http = new DataJudHttpClient({
  baseUrl: url,
  apiKey: "bench",
  requestsPerMinute: Number(process.env.BENCH_RPM ?? "120"),
  concurrency,
  clock: scaledClock(timeScale),
  random: Math.random,
  onEvent: (event) => {
    if (event.type === "retry")
      retries.push(`${event.index} ${event.error.kind}: ${event.error.message}`);
  },
});
const connection = await connectInProcess(createDataJudServer({ reader: new CaseReader(http) }));
const db = openDatabase(dbPath);
const startRss = process.memoryUsage().rss;
const started = performance.now();
const report = await runSweep(
  {
    db,
    gateway: mcpGateway(connection.client, { timeoutMs: 600_000 }),
    clock: systemClock,
    random: Math.random,
    host: realSystem,
    logger: silentLogger(),
    settings: { fullRereadDays: 7, notFoundThreshold: 3, concurrency, batchSize: 100 },
    datajudRequests: () => http.requestCount,
    // BENCH_TRACE=1: each batch asked and answered, with its time since the sweep started and
    // the process's memory then (RSS, heap used / heap total, MB): where a peak builds up.
    ...(process.env.BENCH_TRACE === "1"
      ? {
          onEvent: (event: SweepEvent) => {
            if (event.type === "case-checked") return;
            const at = ((performance.now() - started) / 1000).toFixed(2);
            const m = process.memoryUsage();
            const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);
            const memory = `rss ${mb(m.rss)} heap ${mb(m.heapUsed)}/${mb(m.heapTotal)}`;
            process.stderr.write(`${at} s ${memory} ${JSON.stringify(event)}\n`);
          },
        }
      : {}),
  },
  { watchlist, force: process.env.BENCH_FORCE === "1", dryRun: false, trigger: "manual" },
);
const seconds = (performance.now() - started) / 1000;
await connection.close();
closeDatabase(db);
const result: SweepResult = {
  checked: report.checked,
  changed: report.changed,
  failed: report.failed,
  requests: report.datajudRequests,
  seconds,
  // maxRSS is in KiB: the kernel's own high-water mark, no sampling gaps.
  peakRss: process.resourceUsage().maxRSS * 1024,
  startRss,
  retries,
};
process.send?.(result, () => process.exit(0));
