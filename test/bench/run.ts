/**
 * `npm run bench`: DataJud requests, wall time and peak RSS of sweeps against the loopback fake
 * DataJud, and the database's size after years of simulated history. Figures, not assertions:
 * the test suite never times anything, and this file is outside test/unit and test/integration.
 *
 *   npm run bench -- --sizes 1000,5000,10000 --latency 0 --changed 0.01 --years 1,10
 *   npm run bench -- --sizes 1000,5000 --latency 1000-3000 --years ""
 *   npm run bench -- --sizes "" --years "" --watchlist-cases "" --hostile 100000,10000000,50000000
 *   npm run bench -- --sizes "" --years "" --watchlist-cases "" --hostile "" --compare-latency 2000
 *   npm run bench -- --sizes "" --years "" --watchlist-cases "" --hostile "" --compare-latency "" --djen-sizes 200,1000,5000
 *   npm run bench -- --sizes "" --years "" --watchlist-cases "" --hostile "" --compare-latency "" --djen-sizes "" --export-cases "" --djen-latency 15000
 *
 * The metrics rows (`--metrics-cases N`, `--metrics-clients`; "" skips them) fill a database with a
 * first sweep of N cases, start the daemon on it in a child (daemon-process.ts: its HTTP server,
 * no sweep due), and time GET /metrics one after another, first alone, then while that many MCP
 * clients call get_case on /mcp as fast as they are answered (a flood), and print p50 and p99.
 *
 * The DJEN latency rows (`--djen-latency MS`, `--djen-latency-minutes`; "" skips them) ask the
 * fake DJEN, answering every request after MS on the real clock, for that many minutes, once one
 * call at a time and once at djen.concurrency's default, and print the requests a minute each
 * sent (djen-latency.ts).
 *
 * The export rows (`--export-cases`, `--export-movements`; "" skips them) fill a database with one
 * baseline sweep of that many cases and movements each, then run `monitor export` in each format
 * in a fresh child (export-process.ts) writing to a file, and print each one's peak RSS.
 *
 * The DJEN rows (`--djen-sizes`, `--djen-registrations`; "" skips them) run two weeks of the
 * default schedule on a fake clock, DJEN answering at its rate, with today's plan (every source at
 * every sweep, nothing between sweeps) and the due-time plan side by side (djen-cost.ts).
 *
 * The latency comparison (`--compare-latency MS`, `--compare-sizes`; "" skips it) runs a first and
 * an unchanged sweep of each size at a fixed DataJud latency, once one request at a time and once
 * at the default concurrency, and prints them side by side, each as a ratio to the limit
 * max(requests / (rpm / 60 s), ceil(requests / concurrency) x latency). In real time by default:
 * at 2 s the sequential sweeps of the three sizes take about 17 minutes. `--time-scale N` runs
 * the DataJud side N times faster (the fake answers in latency / N, the client's clock, and so
 * its limiter window, runs N times fast), but the monitor's own work is not sped up, so it weighs
 * N times more in the printed figures: a quick look, not the figures for the README.
 *
 * Processes: the fake DataJud runs in a child (fake-process.ts) and every sweep in a fresh child
 * (sweep-process.ts), so a row's peak RSS is that monitor process alone, fake and bench excluded.
 */
import { type ChildProcess, fork } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../../src/config/load-config.js";
import { DEFAULT_DATAJUD_CONCURRENCY } from "../../src/datajud/http-client.js";
import { parseWatchlist } from "../../src/watchlist/parse-watchlist.js";
import { caseNumber } from "./bench-data.js";
import { djenCostRows, djenCostTable } from "./djen-cost.js";
import { djenCoverage } from "./djen-coverage.js";
import { djenLatencyRow } from "./djen-latency.js";
import type { ExportResult } from "./export-process.js";
import type { FakeCommand, FakeReply } from "./fake-process.js";
import type { HistoryResult } from "./history-process.js";
import type { SweepResult } from "./sweep-process.js";
import type { ValidateResult } from "./validate-process.js";

const HERE = import.meta.dirname;

interface Row {
  scenario: string;
  cases: number;
  requests: string;
  seconds: string;
  peakRssMb: string;
  /** The monitor process before its sweep: Node, tsx, the modules, the open database. */
  startRssMb: string;
  dbMb: string;
}

const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);

function child(file: string, env: Record<string, string>): ChildProcess {
  return fork(join(HERE, file), [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
}

/** The next message of `type` from a child; rejects if the child dies first. */
function next<T extends object>(proc: ChildProcess, type?: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: T): void => {
      if (type !== undefined && (message as { type?: unknown }).type !== type) return;
      proc.off("message", onMessage);
      proc.off("exit", onExit);
      resolve(message);
    };
    const onExit = (code: number | null): void => {
      proc.off("message", onMessage);
      reject(new Error(`bench child exited with ${code} before answering`));
    };
    proc.on("message", onMessage);
    proc.once("exit", onExit);
  });
}

async function ask<T extends FakeReply>(
  fake: ChildProcess,
  command: FakeCommand,
  type: T["type"],
): Promise<T> {
  const answer = next<T>(fake, type);
  fake.send(command);
  return answer;
}

/** CNJ's cap, which every bench sweep's client keeps to. */
const RATE_CAP_RPM = 120;

interface SweepOptions {
  force?: boolean;
  /** datajud.concurrency */
  concurrency?: number;
  /** See sweep-process.ts: the client's clock runs this many times faster. */
  timeScale?: number;
}

async function sweep(
  url: string,
  db: string,
  cases: number,
  options: SweepOptions = {},
): Promise<SweepResult> {
  const proc = child("sweep-process.ts", {
    BENCH_URL: url,
    BENCH_DB: db,
    BENCH_CASES: String(cases),
    BENCH_FORCE: options.force ? "1" : "",
    BENCH_CONCURRENCY: String(options.concurrency ?? DEFAULT_DATAJUD_CONCURRENCY),
    BENCH_TIME_SCALE: String(options.timeScale ?? 1),
    BENCH_RPM: String(RATE_CAP_RPM),
  });
  return next<SweepResult>(proc);
}

interface Latency {
  minMs: number;
  maxMs: number;
}

function parseLatency(text: string): Latency | null {
  const [min, max] = text.split("-").map(Number);
  if (min === undefined || !Number.isFinite(min) || min <= 0) return null;
  return { minMs: min, maxMs: max !== undefined && Number.isFinite(max) ? max : min };
}

async function measure(
  cases: number,
  changedShare: number,
  latency: Latency | null,
): Promise<Row[]> {
  const fake = child("fake-process.ts", { BENCH_CASES: String(cases) });
  const { url } = await next<Extract<FakeReply, { type: "ready" }>>(fake, "ready");
  if (latency) {
    await ask(fake, { type: "latency", ...latency, seed: cases, requests: 5_000 }, "latency-set");
  }
  const dir = mkdtempSync(join(tmpdir(), "monitor-bench-"));
  const db = join(dir, "monitor.db");
  const suffix = latency ? ` (${latency.minMs / 1000}-${latency.maxMs / 1000} s latency)` : "";
  const rows: Row[] = [];
  const run = async (scenario: string): Promise<void> => {
    const result = await sweep(url, db, cases);
    if (result.checked !== cases || result.failed > 0) {
      process.stderr.write(`warning: ${scenario} ${cases}: ${JSON.stringify(result)}\n`);
    }
    for (const retry of result.retries) {
      process.stderr.write(`retried: ${scenario}${suffix} ${cases}: ${retry}\n`);
    }
    rows.push({
      scenario: `${scenario}${suffix}`,
      cases,
      requests: String(result.requests),
      seconds: result.seconds.toFixed(1),
      peakRssMb: mb(result.peakRss),
      startRssMb: mb(result.startRss),
      dbMb: (statSync(db).size / 2 ** 20).toFixed(1),
    });
  };
  try {
    await run("baseline (first sweep)");
    await run("unchanged");
    if (changedShare > 0) {
      await ask(fake, { type: "change", share: changedShare, extra: 1 }, "changed");
      await run(`${+(changedShare * 100).toFixed(2)}% changed`);
    }
  } finally {
    fake.send({ type: "close" } satisfies FakeCommand);
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/**
 * Whatever DataJud or the operator sends, a sweep stays small: one case of five whose record has
 * `movements` movements, the first named with `nameBytes` characters; and `validate` of a
 * watchlist whose one label is `labelBytes` long.
 */
async function hostile(movements: number, nameBytes: number, labelBytes: number): Promise<Row[]> {
  const cases = 5;
  const fake = child("fake-process.ts", { BENCH_CASES: String(cases) });
  const { url } = await next<Extract<FakeReply, { type: "ready" }>>(fake, "ready");
  const dir = mkdtempSync(join(tmpdir(), "monitor-bench-hostile-"));
  const db = join(dir, "monitor.db");
  const rows: Row[] = [];
  const what = `${movements.toLocaleString("en")} movements, a ${mb(nameBytes)} MB name`;
  try {
    await ask(fake, { type: "hostile", movements, nameBytes }, "hostile-set");
    for (const scenario of [`first sweep: ${what}`, `forced re-read: ${what}`]) {
      const result = await sweep(url, db, cases, { force: scenario.startsWith("forced") });
      process.stderr.write(
        `hostile: ${scenario}: ${JSON.stringify({ ...result, retries: result.retries.length })}\n`,
      );
      rows.push({
        scenario: `${scenario} (${result.failed} failed)`,
        cases,
        requests: String(result.requests),
        seconds: result.seconds.toFixed(1),
        peakRssMb: mb(result.peakRss),
        startRssMb: mb(result.startRss),
        dbMb: (statSync(db).size / 2 ** 20).toFixed(1),
      });
    }
    const watchlist = join(dir, "watchlist.yaml");
    writeFileSync(
      watchlist,
      `cases:\n  - number: "${caseNumber(0).formatted}"\n    label: "${"x".repeat(labelBytes)}"\n`,
    );
    const proc = child("validate-process.ts", { BENCH_WATCHLIST: watchlist });
    const validated = await next<ValidateResult>(proc);
    process.stderr.write(`hostile: validate: ${JSON.stringify(validated)}\n`);
    rows.push({
      scenario: `validate a watchlist with a ${mb(labelBytes)} MB label (${validated.ok ? "accepted" : "refused"})`,
      cases: 1,
      requests: "-",
      seconds: validated.seconds.toFixed(2),
      peakRssMb: mb(validated.peakRss),
      startRssMb: "-",
      dbMb: "-",
    });
  } finally {
    fake.send({ type: "close" } satisfies FakeCommand);
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

async function history(cases: number, years: number): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "monitor-bench-history-"));
  try {
    const proc = child("history-process.ts", {
      BENCH_DB: join(dir, "monitor.db"),
      BENCH_CASES: String(cases),
      BENCH_YEARS: String(years),
    });
    const result = await next<HistoryResult>(proc);
    const perThousand = (bytes: number): string =>
      `${(bytes / 2 ** 20 / (cases / 1000)).toFixed(1)} per 1,000 cases`;
    return [
      {
        scenario: `${years} y history: DB after the first sweep (${perThousand(result.baselineBytes)})`,
        cases,
        requests: "-",
        seconds: "-",
        peakRssMb: "-",
        startRssMb: "-",
        dbMb: (result.baselineBytes / 2 ** 20).toFixed(1),
      },
      {
        scenario: `${years} y history: DB after ${result.sweeps} sweeps, ${result.movements} movements (${perThousand(result.dbBytes)})`,
        cases,
        requests: "-",
        seconds: result.simulateSeconds.toFixed(0),
        peakRssMb: mb(result.peakRss),
        startRssMb: "-",
        dbMb: (result.dbBytes / 2 ** 20).toFixed(1),
      },
      {
        scenario: `${years} y history: then one unchanged sweep`,
        cases,
        requests: "-",
        seconds: result.unchangedSeconds.toFixed(2),
        peakRssMb: "-",
        startRssMb: "-",
        dbMb: "-",
      },
      {
        scenario: `${years} y history: then one 1% changed sweep`,
        cases,
        requests: "-",
        seconds: result.changedSeconds.toFixed(2),
        peakRssMb: "-",
        startRssMb: "-",
        dbMb: "-",
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `monitor export` of `cases` cases with `movements` movements each, in each format, each in a
 * fresh process writing to a file (as `> export.csv` does): its peak RSS, time and output size.
 */
async function exports(cases: number, movements: number): Promise<string[][]> {
  const dir = mkdtempSync(join(tmpdir(), "monitor-bench-export-"));
  const env = { BENCH_DB: join(dir, "monitor.db"), BENCH_DIR: dir, BENCH_CASES: String(cases) };
  try {
    await next(
      child("export-process.ts", {
        ...env,
        BENCH_MODE: "seed",
        BENCH_MOVEMENTS: String(movements),
      }),
    );
    const body: string[][] = [];
    for (const format of ["csv", "json", "xlsx"]) {
      const file = join(dir, `export.${format}`);
      const fd = openSync(file, "w");
      const proc = fork(join(HERE, "export-process.ts"), [], {
        execArgv: ["--import", "tsx"],
        env: { ...process.env, ...env, BENCH_FORMAT: format },
        stdio: ["ignore", fd, "inherit", "ipc"],
      });
      const result = await next<ExportResult>(proc);
      closeSync(fd);
      const outcome =
        result.code === 0 ? "written" : `exit ${result.code}: ${result.stderr.trim()}`;
      body.push([
        format,
        cases.toLocaleString("en"),
        (cases * movements).toLocaleString("en"),
        result.seconds.toFixed(1),
        mb(result.peakRss),
        mb(result.startRss),
        (statSync(file).size / 2 ** 20).toFixed(1),
        outcome,
      ]);
    }
    return body;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Validating a big watchlist (what `monitor validate` and every reload do), with a label, a notify
 * list and ignore/urgent rules per case, in this process: time only.
 */
function watchlistYaml(cases: number): string {
  const lines = ["cases:"];
  for (let i = 0; i < cases; i++) lines.push(`  - number: "${caseNumber(i).formatted}"`);
  return `${lines.join("\n")}\n`;
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

/** `count` GETs of /metrics one after another, 100 ms apart: each one's time in ms, sorted. */
async function scrapeTimes(base: string, token: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    await res.text();
    if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return times.sort((a, b) => a - b);
}

interface Flood {
  calls: number;
  refused: number;
  stop(): Promise<void>;
}

/** `clients` MCP clients calling get_case on /mcp, each its next call as soon as answered. */
function floodGetCase(base: string, token: string, clients: number, cases: number): Flood {
  let running = true;
  const flood = { calls: 0, refused: 0 };
  const client = async (k: number): Promise<void> => {
    for (let i = k; running; i += clients) {
      const res = await fetch(`${base}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: i,
          method: "tools/call",
          params: { name: "get_case", arguments: { cnjNumber: caseNumber(i % cases).formatted } },
        }),
      }).catch(() => null);
      const text = (await res?.text()) ?? "";
      flood.calls += 1;
      if (text.includes("rate_limited")) flood.refused += 1;
    }
  };
  const loops = Array.from({ length: clients }, (_, k) => client(k));
  return {
    get calls() {
      return flood.calls;
    },
    get refused() {
      return flood.refused;
    },
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** GET /metrics alone and under a get_case flood, on the daemon over a first sweep of `cases`. */
async function metricsUnderFlood(
  cases: number,
  clients: number,
  scrapes: number,
): Promise<string[][]> {
  const fake = child("fake-process.ts", { BENCH_CASES: String(cases) });
  const { url } = await next<Extract<FakeReply, { type: "ready" }>>(fake, "ready");
  const dir = mkdtempSync(join(tmpdir(), "monitor-bench-metrics-"));
  const db = join(dir, "monitor.db");
  const token = "bench-metrics-token-0123456789abcdef";
  let daemon: ChildProcess | null = null;
  try {
    await sweep(url, db, cases);
    writeFileSync(join(dir, "watchlist.yaml"), watchlistYaml(cases));
    // No sweep comes due while the bench runs: what is measured is /metrics beside /mcp.
    writeFileSync(
      join(dir, "monitor.yaml"),
      'schedule:\n  cron: "0 0 1 1 *"\n  startJitterSeconds: 0\nhttp:\n  listen: "127.0.0.1:0"\n',
    );
    daemon = child("daemon-process.ts", {
      DATAJUD_BASE_URL: url,
      DATAJUD_API_KEY: "bench",
      DJEN_ENABLED: "false",
      MONITOR_CONFIG: join(dir, "monitor.yaml"),
      MONITOR_WATCHLIST: join(dir, "watchlist.yaml"),
      MONITOR_DB: db,
      MONITOR_OUTBOX_DIR: join(dir, "outbox"),
      MONITOR_LOG_LEVEL: "info",
      MCP_HTTP_TOKEN: token,
    });
    const { url: base } = await next<{ type: "listening"; url: string }>(daemon, "listening");
    const alone = await scrapeTimes(base, token, scrapes);
    const flood = floodGetCase(base, token, clients, cases);
    const started = performance.now();
    const flooded = await scrapeTimes(base, token, scrapes);
    const seconds = (performance.now() - started) / 1000;
    await flood.stop();
    const row = (what: string, times: number[], calls: string): string[] => [
      what,
      cases.toLocaleString("en"),
      String(times.length),
      percentile(times, 50).toFixed(0),
      percentile(times, 99).toFixed(0),
      (times.at(-1) ?? Number.NaN).toFixed(0),
      calls,
    ];
    return [
      row("alone", alone, "-"),
      row(
        `${clients} MCP clients calling get_case`,
        flooded,
        `${flood.calls} in ${seconds.toFixed(0)} s (${flood.refused} rate_limited)`,
      ),
    ];
  } finally {
    if (daemon !== null) {
      const exited = new Promise((resolve) => daemon?.once("exit", resolve));
      daemon.send({ type: "stop" });
      await exited;
    }
    fake.send({ type: "close" } satisfies FakeCommand);
    rmSync(dir, { recursive: true, force: true });
  }
}

function parseBigWatchlist(cases: number): Row {
  const lines = [
    "defaults:",
    "  notify: [escritorio@example.com]",
    '  ignore: [juntada, "mero expediente"]',
    "  urgent: [219, sentença]",
    "cases:",
  ];
  for (let i = 0; i < cases; i++) {
    lines.push(`  - number: "${caseNumber(i).formatted}"`);
    lines.push(`    label: "Caso ${i}"`, `    notify: [a${i % 50}@example.com]`);
    if (i % 10 === 0) lines.push("    ignore: [publicação]");
  }
  const text = `${lines.join("\n")}\n`;
  const started = performance.now();
  const result = parseWatchlist(text, "bench.yaml");
  const seconds = (performance.now() - started) / 1000;
  if (!result.ok) throw new Error(`bench watchlist invalid: ${result.errors[0]?.message}`);
  return {
    scenario: "validate the watchlist (parse, check digits, rules)",
    cases,
    requests: "-",
    seconds: seconds.toFixed(2),
    peakRssMb: "-",
    startRssMb: "-",
    dbMb: "-",
  };
}

/** One sweep of the latency comparison, at one concurrency. */
interface Timed {
  requests: number;
  /** Simulated seconds: the real wall time times the time scale. */
  seconds: number;
  /** The most requests the fake DataJud had in flight at once. */
  maxInFlight: number;
  concurrency: number;
  peakRss: number;
}

interface Compared {
  sweep: string;
  cases: number;
  sequential: Timed;
  concurrent: Timed;
}

/** max(requests / (rpm / 60 s), ceil(requests / concurrency) x latency), in seconds. */
function limitSeconds(timed: Timed, latencyMs: number): number {
  return Math.max(
    timed.requests / (RATE_CAP_RPM / 60),
    Math.ceil(timed.requests / timed.concurrency) * (latencyMs / 1000),
  );
}

/**
 * A first and an unchanged sweep of `cases` at a fixed DataJud latency, once one request at a
 * time and once at the default concurrency, each from an empty database against the same fake.
 */
async function compareLatency(
  cases: number,
  latencyMs: number,
  timeScale: number,
): Promise<Compared[]> {
  const fake = child("fake-process.ts", { BENCH_CASES: String(cases) });
  const { url } = await next<Extract<FakeReply, { type: "ready" }>>(fake, "ready");
  await ask(fake, { type: "fixed-latency", ms: latencyMs / timeScale }, "latency-set");
  const dir = mkdtempSync(join(tmpdir(), "monitor-bench-latency-"));
  const sweeps = ["first sweep", "unchanged"];
  const timed = new Map<number, Timed[]>();
  try {
    for (const concurrency of [1, DEFAULT_DATAJUD_CONCURRENCY]) {
      const db = join(dir, `monitor-${concurrency}.db`);
      const runs: Timed[] = [];
      for (const scenario of sweeps) {
        // The fake's peak of requests in flight restarts with each sweep.
        await ask(fake, { type: "stats" }, "stats");
        const result = await sweep(url, db, cases, { concurrency, timeScale });
        const stats = await ask<Extract<FakeReply, { type: "stats" }>>(
          fake,
          { type: "stats" },
          "stats",
        );
        const label = `${scenario} ${cases} at concurrency ${concurrency}`;
        if (result.checked !== cases || result.failed > 0) {
          process.stderr.write(`warning: ${label}: ${JSON.stringify(result)}\n`);
        }
        for (const retry of result.retries) process.stderr.write(`retried: ${label}: ${retry}\n`);
        runs.push({
          requests: result.requests,
          seconds: result.seconds * timeScale,
          maxInFlight: stats.maxInFlight,
          concurrency,
          peakRss: result.peakRss,
        });
      }
      timed.set(concurrency, runs);
    }
  } finally {
    fake.send({ type: "close" } satisfies FakeCommand);
    rmSync(dir, { recursive: true, force: true });
  }
  return sweeps.flatMap((scenario, i) => {
    const sequential = timed.get(1)?.[i];
    const concurrent = timed.get(DEFAULT_DATAJUD_CONCURRENCY)?.[i];
    return sequential && concurrent ? [{ sweep: scenario, cases, sequential, concurrent }] : [];
  });
}

function printComparison(rows: Compared[], latencyMs: number, timeScale: number): void {
  const at = DEFAULT_DATAJUD_CONCURRENCY;
  const timedCells = (t: Timed): string[] => {
    const limit = limitSeconds(t, latencyMs);
    return [limit.toFixed(0), `${t.seconds.toFixed(1)} (${(t.seconds / limit).toFixed(2)}x)`];
  };
  const header = [
    "sweep",
    "cases",
    "DataJud requests",
    "limit at 1, s",
    "wall at 1, s (x limit)",
    `limit at ${at}, s`,
    `wall at ${at}, s (x limit)`,
    `most in flight at ${at}`,
    "speed-up",
    `peak RSS at 1 / ${at}, MB`,
  ];
  const body = rows.map((r) => [
    r.sweep,
    r.cases.toLocaleString("en"),
    r.sequential.requests === r.concurrent.requests
      ? String(r.sequential.requests)
      : `${r.sequential.requests} / ${r.concurrent.requests}`,
    ...timedCells(r.sequential),
    ...timedCells(r.concurrent),
    String(r.concurrent.maxInFlight),
    `${(r.sequential.seconds / r.concurrent.seconds).toFixed(1)}x`,
    `${mb(r.sequential.peakRss)} / ${mb(r.concurrent.peakRss)}`,
  ]);
  const scaled =
    timeScale === 1
      ? "in real time"
      : `with time running ${timeScale}x faster (the fake answers in ${latencyMs / timeScale} ms, the client's clock runs ${timeScale}x: seconds shown are simulated, the real wall time times ${timeScale}; the monitor's own work is not sped up, so it weighs ${timeScale}x here)`;
  process.stdout.write(
    `\nDataJud latency ${latencyMs / 1000} s, ${RATE_CAP_RPM} requests per minute, concurrency 1 and ${at}, ${scaled}:\n\n`,
  );
  printCells(header, body);
}

function printTable(rows: Row[]): void {
  const header = [
    "scenario",
    "cases",
    "DataJud requests",
    "wall s",
    "peak RSS MB",
    "RSS before sweep MB",
    "DB MB",
  ];
  const body = rows.map((r) => [
    r.scenario,
    String(r.cases),
    r.requests,
    r.seconds,
    r.peakRssMb,
    r.startRssMb,
    r.dbMb,
  ]);
  printCells(header, body);
}

/** A Markdown table, each column as wide as its widest cell. */
function printCells(header: string[], body: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? "").length)));
  const line = (cells: string[]): string =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  process.stdout.write(`${line(header)}\n|${widths.map((w) => "-".repeat(w + 2)).join("|")}|\n`);
  for (const b of body) process.stdout.write(`${line(b)}\n`);
}

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "1000,5000,10000" },
    latency: { type: "string", default: "0" },
    changed: { type: "string", default: "0.01" },
    years: { type: "string", default: "1,10" },
    "history-cases": { type: "string", default: "1000" },
    "watchlist-cases": { type: "string", default: "10000" },
    /** movements,name bytes,label bytes; "" skips the hostile rows. */
    hostile: { type: "string", default: "100000,10000000,50000000" },
    /** DataJud's fixed latency in ms for the concurrency comparison; "" skips it. */
    "compare-latency": { type: "string", default: "2000" },
    "compare-sizes": { type: "string", default: "1000,5000,10000" },
    /** How much faster the comparison's time runs (1: real time). */
    "time-scale": { type: "string", default: "1" },
    /** Watched cases of the DJEN plan rows; "" skips them. */
    "djen-sizes": { type: "string", default: "200,1000,5000" },
    "djen-registrations": { type: "string", default: "20" },
    /** Cases of the export rows; "" skips them. */
    "export-cases": { type: "string", default: "5000" },
    /** Movements of each case in the export rows (29: the 144,000 rows at 5,000). */
    "export-movements": { type: "string", default: "29" },
    /** Cases of the /metrics-under-flood rows; "" skips them. */
    "metrics-cases": { type: "string", default: "5000" },
    "metrics-clients": { type: "string", default: "20" },
    "metrics-scrapes": { type: "string", default: "100" },
    /** DJEN's answer time in ms for the requests-a-minute rows; "" skips them. */
    "djen-latency": { type: "string", default: "15000" },
    "djen-latency-minutes": { type: "string", default: "2" },
    /** A monitor database to measure registration coverage on (djen-coverage.ts); "" skips it. */
    "djen-coverage": { type: "string", default: "" },
  },
});
const latency = parseLatency(String(values.latency));
const rows: Row[] = [];
for (const size of String(values["watchlist-cases"]).split(",").filter(Boolean).map(Number)) {
  rows.push(parseBigWatchlist(size));
}
for (const size of String(values.sizes).split(",").filter(Boolean).map(Number)) {
  rows.push(...(await measure(size, Number(values.changed), latency)));
  process.stderr.write(`done: ${size} cases\n`);
}
const [hostileMovements, hostileName, hostileLabel] = String(values.hostile)
  .split(",")
  .filter(Boolean)
  .map(Number);
if (hostileMovements !== undefined) {
  rows.push(...(await hostile(hostileMovements, hostileName ?? 0, hostileLabel ?? 0)));
  process.stderr.write("done: hostile sizes\n");
}
for (const years of String(values.years).split(",").filter(Boolean).map(Number)) {
  rows.push(...(await history(Number(values["history-cases"]), years)));
  process.stderr.write(`done: ${years} y history\n`);
}
if (rows.length > 0) printTable(rows);
const compareLatencyMs = Number(values["compare-latency"] || "0");
if (compareLatencyMs > 0) {
  const timeScale = Number(values["time-scale"]);
  const compared: Compared[] = [];
  for (const size of String(values["compare-sizes"]).split(",").filter(Boolean).map(Number)) {
    compared.push(...(await compareLatency(size, compareLatencyMs, timeScale)));
    process.stderr.write(
      `done: ${size} cases at ${compareLatencyMs} ms, concurrency 1 and default\n`,
    );
  }
  printComparison(compared, compareLatencyMs, timeScale);
}
const djenSizes = String(values["djen-sizes"]).split(",").filter(Boolean).map(Number);
if (djenSizes.length > 0) {
  const rows = await djenCostRows(djenSizes, Number(values["djen-registrations"]));
  const first = rows[0];
  if (first !== undefined) {
    process.stdout.write(
      `\nDJEN on the default schedule (${first.requestsPerMinute} requests a minute, djen.maxMinutesPerSweep ${first.maxMinutesPerSweep}; planned: case numbers every ${first.settings.caseEveryHours} h, registrations every ${first.settings.oabEveryHours} h on working days, asked between sweeps too), the second of two simulated weeks:\n\n`,
    );
    const table = djenCostTable(rows);
    printCells(table.header, table.body);
  }
}
for (const size of String(values["export-cases"]).split(",").filter(Boolean).map(Number)) {
  const movements = Number(values["export-movements"]);
  const body = await exports(size, movements);
  process.stdout.write(
    `\nmonitor export of ${size.toLocaleString("en")} cases, ${movements} movements each, to a file, each format in a fresh process:\n\n`,
  );
  printCells(
    [
      "format",
      "cases",
      "movement rows",
      "wall s",
      "peak RSS MB",
      "RSS before export MB",
      "file MB",
      "outcome",
    ],
    body,
  );
}
for (const size of String(values["metrics-cases"]).split(",").filter(Boolean).map(Number)) {
  const clients = Number(values["metrics-clients"]);
  const body = await metricsUnderFlood(size, clients, Number(values["metrics-scrapes"]));
  process.stdout.write(
    `\nGET /metrics of the daemon over a first sweep of ${size.toLocaleString("en")} cases, one after another, alone and under an MCP get_case flood:\n\n`,
  );
  printCells(
    ["/metrics", "cases", "scrapes", "p50 ms", "p99 ms", "max ms", "get_case calls meanwhile"],
    body,
  );
}
const djenLatencyMs = Number(values["djen-latency"] || "0");
if (djenLatencyMs > 0) {
  const minutes = Number(values["djen-latency-minutes"]);
  const defaults = loadConfig({ env: {}, cwd: tmpdir() });
  if (!defaults.ok) throw new Error(defaults.errors.join("; "));
  const atOnce = defaults.config.djen.concurrency;
  const body: string[][] = [];
  for (const concurrency of [1, atOnce]) {
    const row = await djenLatencyRow(djenLatencyMs, concurrency, minutes);
    process.stderr.write(`done: DJEN at ${djenLatencyMs} ms, concurrency ${concurrency}\n`);
    body.push([
      `${row.latencyMs / 1000} s`,
      String(row.concurrency),
      String(row.requestsPerMinute),
      String(row.requests),
      (row.requests / row.minutes).toFixed(1),
      String(row.maxInFlight),
    ]);
  }
  process.stdout.write(
    `\nDJEN answering every request after ${djenLatencyMs / 1000} s (real time), asked for ${minutes} minutes, one call at a time and at djen.concurrency's default:\n\n`,
  );
  printCells(
    [
      "DJEN latency",
      "calls at once",
      "requestsPerMinute",
      "requests sent",
      "requests a minute",
      "most in flight",
    ],
    body,
  );
}
const coverageDb = String(values["djen-coverage"]);
if (coverageDb !== "") {
  const c = djenCoverage(coverageDb);
  const share = (n: number, of: number): string =>
    of === 0 ? "-" : `${((100 * n) / of).toFixed(0)}%`;
  process.stdout.write(
    `\nDJEN coverage in ${coverageDb}: ${c.foundByCase} publications of watched case numbers found by their own query; ${c.alsoByRegistration} (${share(c.alsoByRegistration, c.foundByCase)}) also by a watched registration; in the ${c.coveredCases} case numbers a registration covers, ${c.onlyByCaseInCovered} publications only the case query found\n`,
  );
}
