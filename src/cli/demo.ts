import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { loadConfig, type MonitorConfig } from "../config/load-config.js";
import { countText } from "../datajud/glossary.js";
import { readEml } from "../demo/eml-text.js";
import { createRecordedDataJud, type RecordedDataJud } from "../demo/recorded-datajud.js";
import { createRecordedDjen, type RecordedDjen, redated } from "../demo/recorded-djen.js";
import {
  baselineState,
  type DjenSampleItem,
  djenSample,
  laterState,
  SAMPLE_WATCHLIST,
} from "../demo/recordings.js";
import type { RunReport } from "../monitor/run-report.js";
import { runSweep } from "../monitor/sweep.js";
import { caseKeysInFile } from "../store/cases.js";
import type { System } from "../system.js";
import { addDays } from "../time/calendar-date.js";
import { dateInZone } from "../time/zoned-time.js";
import { loadWatchlist, type Watchlist } from "../watchlist/parse-watchlist.js";
import { formatPositionedError } from "../yaml/positioned-error.js";
import { type CliIo, type Command, EXIT, programOf, systemOf } from "./command.js";
import { renderRunReport } from "./run-once.js";
import { cliLogger, type MonitorHandles, openMonitor, type Runtime } from "./runtime.js";
import { type LiveProgress, liveProgress } from "./sweep-progress.js";

/** The demo would mix its sample cases into a database that follows real ones. */
export class DemoRefusedError extends Error {
  override readonly name = "DemoRefusedError";
}

/** Refuses a configured database that holds cases other than the demo's own. */
function assertDemoDatabase(path: string, sample: ReadonlySet<string>): void {
  if (!existsSync(path)) return;
  const foreign = caseKeysInFile(path).find(
    (row) => !sample.has(`${row.digits}@${row.court}`),
  )?.digits;
  if (foreign !== undefined) {
    throw new DemoRefusedError(
      `MONITOR_DB (${path}) already follows other cases; the demo would add its sample cases to it. Unset MONITOR_DB, or point it at a new file`,
    );
  }
}

/**
 * Noon of Fri 07/11/2025 in São Paulo, the day the later recordings end (their last update is
 * 07/11 09:00): the demo plays that day, so its sentence and decisions are news whose periods
 * run, as they were for the lawyer who got them, not history whose periods ended long ago.
 */
const RECORDING_DAY = Date.UTC(2025, 10, 7, 15, 0);

/** The process's system with its clock moved to the recordings' day; time still passes. */
function onRecordingDay(system: System): System {
  const offset = system.clock.now() - RECORDING_DAY;
  return {
    ...system,
    clock: { now: () => system.clock.now() - offset, sleep: (ms, s) => system.clock.sleep(ms, s) },
  };
}

/** Sent to the in-memory DataJud only; the recorded answers check it like the real API would. */
const DEMO_KEY = "demo-offline-key";

export interface DemoResult {
  /** The private directory holding the watchlist (and the database and outbox, by default). */
  dir: string;
  watchlist: string;
  db: string;
  outboxDir: string;
  baseline: RunReport;
  later: RunReport;
  /** .eml files the second sweep wrote, sorted. */
  alerts: string[];
  /** The .eml file of the DJEN publication alert the second sweep wrote, if any. */
  publicationAlert: string | null;
  elapsedMs: number;
}

function pathFrom(io: CliIo, name: string): string | undefined {
  const value = io.env[name];
  if (value === undefined || value === "") return undefined;
  return isAbsolute(value) ? value : resolve(io.cwd, value);
}

function emlStamps(dir: string): Map<string, number> {
  const stamps = new Map<string, number>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return stamps;
  }
  for (const name of names) {
    if (name.endsWith(".eml")) stamps.set(name, statSync(join(dir, name)).mtimeMs);
  }
  return stamps;
}

/**
 * The real sweep, end to end, on recorded data: the config loader, the MCP client and server, the
 * HTTP client (its fetch answered in memory), SQLite, the rules summarizer, the outbox and the
 * .eml mailer. The configuration is built from scratch, so nothing of the user's own setup (keys,
 * SMTP, config files) is read; only MONITOR_DB and MONITOR_OUTBOX_DIR are honoured.
 */
export async function runDemo(io: CliIo): Promise<DemoResult> {
  const started = performance.now();
  const setup = await prepareDemo(io);
  const { config, watchlist } = setup;
  const runtime: Runtime = {
    config,
    secrets: setup.secrets,
    ...cliLogger(io, config, setup.secrets, "demo"),
  };
  const system = onRecordingDay(systemOf(io));
  const sources = recordedSources(system);
  const progress: { shown: LiveProgress | null } = { shown: null };
  const monitor = await openMonitor(runtime, {
    watchlist: () => watchlist,
    fetch: sources.datajud.fetch,
    djenFetch: sources.djen.fetch,
    system,
    onDataJudEvent: (event) => progress.shown?.onDataJud(event),
    onDjenEvent: (event) => progress.shown?.onDjen(event),
  });
  try {
    const sweep = () => demoSweep(monitor, { runtime, system, watchlist, progress, io });
    const baseline = await sweep();
    sources.toLaterDay();
    const before = emlStamps(config.paths.outboxDir);
    const later = await sweep();
    monitor.reportDrift();
    const alerts = [...emlStamps(config.paths.outboxDir)]
      .filter(([name, stamp]) => before.get(name) !== stamp)
      .map(([name]) => join(config.paths.outboxDir, name))
      .sort();
    const publicationAlert =
      byRecipient(alerts).find((a) => isPublicationAlert(a.eml))?.path ?? null;
    return {
      dir: setup.dir,
      watchlist: setup.watchlistPath,
      db: config.paths.db,
      outboxDir: config.paths.outboxDir,
      baseline,
      later,
      alerts,
      publicationAlert,
      elapsedMs: performance.now() - started,
    };
  } finally {
    await monitor.close();
  }
}

/**
 * The demo's private directory with its sample watchlist, and its configuration built from
 * scratch; refused (the directory removed) when the configured database follows other cases.
 */
async function prepareDemo(io: CliIo): Promise<{
  dir: string;
  watchlistPath: string;
  config: MonitorConfig;
  secrets: string[];
  watchlist: Watchlist;
}> {
  const dir = mkdtempSync(join(tmpdir(), "datajud-monitor-demo-"));
  const watchlistPath = join(dir, "watchlist.yaml");
  writeFileSync(watchlistPath, SAMPLE_WATCHLIST, { mode: 0o600 });
  const loaded = loadConfig({
    env: {
      MONITOR_WATCHLIST: watchlistPath,
      MONITOR_DB: pathFrom(io, "MONITOR_DB") ?? join(dir, "monitor.db"),
      MONITOR_OUTBOX_DIR: pathFrom(io, "MONITOR_OUTBOX_DIR") ?? join(dir, "outbox"),
      DATAJUD_API_KEY: DEMO_KEY,
      // The demo's "later day" comes a minute later: every DJEN source is asked at each sweep.
      DJEN_CASE_EVERY_HOURS: "0",
      DJEN_OAB_EVERY_HOURS: "0",
      MONITOR_LOG_LEVEL: io.env.MONITOR_LOG_LEVEL ?? "error",
    },
    cwd: dir,
  });
  if (!loaded.ok) {
    rmSync(dir, { recursive: true, force: true });
    throw new DemoRefusedError(loaded.errors.join("; "));
  }
  const { config } = loaded;
  const watchlist = await loadWatchlist(watchlistPath);
  if (!watchlist.ok) {
    throw new Error(
      `the demo watchlist is invalid: ${watchlist.errors.map(formatPositionedError).join("; ")}`,
    );
  }
  try {
    assertDemoDatabase(
      config.paths.db,
      new Set(watchlist.watchlist.cases.map((c) => `${c.digits}@${c.court}`)),
    );
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, watchlistPath, config, secrets: loaded.secrets, watchlist: watchlist.watchlist };
}

/**
 * DataJud and DJEN answered from the recordings, at their baseline until `toLaterDay`. DJEN's
 * sample dates move to the day the demo runs, so its window (yesterday, today) holds them.
 */
export function recordedSources(system: System): {
  datajud: RecordedDataJud;
  djen: RecordedDjen;
  toLaterDay: () => void;
} {
  const datajud = createRecordedDataJud({ apiKey: DEMO_KEY, state: baselineState() });
  const today = dateInZone(system.clock.now());
  const onDemoDay = (items: readonly DjenSampleItem[]) =>
    items.map((s) => redated(s.item, addDays(today, -s.availableDaysAgo)));
  const sample = djenSample();
  const djen = createRecordedDjen();
  djen.load(onDemoDay(sample.baseline));
  return {
    datajud,
    djen,
    toLaterDay: () => {
      datajud.indices.load(laterState());
      djen.load(onDemoDay([...sample.later, ...sample.baseline]));
    },
  };
}

/** One sweep of the sample watchlist; on a terminal, its progress is drawn on stderr while it runs. */
async function demoSweep(
  monitor: MonitorHandles,
  context: {
    runtime: Runtime;
    system: System;
    watchlist: Watchlist;
    progress: { shown: LiveProgress | null };
    io: CliIo;
  },
): Promise<RunReport> {
  const { progress } = context;
  progress.shown = liveProgress(context.runtime.live, context.system);
  const shown = progress.shown;
  try {
    return await runSweep(
      shown === null ? monitor.sweep : { ...monitor.sweep, onEvent: (e) => shown.onSweep(e) },
      {
        watchlist: context.watchlist.cases,
        oab: context.watchlist.oab,
        force: false,
        dryRun: false,
        trigger: "demo",
        signal: context.io.signal,
      },
    );
  } finally {
    shown?.stop();
    progress.shown = null;
  }
}

function indent(text: string, prefix = "  "): string {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => (line === "" ? prefix.trimEnd() : `${prefix}${line}`))
    .join("\n");
}

/**
 * The alerts read, first recipient's address first: copies of one alert differ only in whom they
 * go to, and their file names (random Message-IDs) must not decide which copy the demo prints.
 */
function byRecipient(
  paths: readonly string[],
): { path: string; eml: ReturnType<typeof readEml> }[] {
  return paths
    .map((path) => ({ path, eml: readEml(readFileSync(path, "utf8")) }))
    .sort((a, b) => (a.eml.to ?? "").localeCompare(b.eml.to ?? "") || a.path.localeCompare(b.path));
}

/** A DJEN publication's alert ("Intimação no DJEN: ..."), one per recipient of the item. */
function isPublicationAlert(eml: ReturnType<typeof readEml>): boolean {
  return /\bno DJEN\b/.test(eml.subject ?? "");
}

/** The alert of the first case that changed, so the text shown does not depend on file names. */
function alertToShow(result: DemoResult): { path: string; eml: ReturnType<typeof readEml> } | null {
  // Every recipient's copy of the publication alert is left out, not only the one shown in 5.
  const read = byRecipient(result.alerts).filter((a) => !isPublicationAlert(a.eml));
  for (const c of result.later.cases) {
    if (c.outcome !== "changed") continue;
    const match = read.find((a) => a.eml.text?.includes(c.number));
    if (match) return match;
  }
  return read[0] ?? null;
}

/** An e-mail's recipient, subject and text part, under a heading. */
function emlLines(heading: string, eml: ReturnType<typeof readEml>): string[] {
  return [
    heading,
    "",
    `  To: ${eml.to ?? "?"}`,
    `  Subject: ${eml.subject ?? "?"}`,
    "",
    indent(eml.text ?? "(no text part)", "  | "),
    "",
  ];
}

function modelLine(report: RunReport): string {
  return `  ${countText(report.llmCalls, "model call", "model calls")}`;
}

export function renderDemo(result: DemoResult): string {
  const courts = new Set(result.baseline.cases.map((c) => c.court));
  const out = [
    "datajud-monitor demo: the real sweep on recorded DataJud answers and sample DJEN items (no network, no keys)",
    "",
    `  watchlist  ${result.watchlist} (${result.baseline.cases.length} cases in ${courts.size} courts)`,
    `  database   ${result.db}`,
    `  outbox     ${result.outboxDir}`,
    "",
    "1. First sweep: every case is new, so each gets a baseline and nobody is e-mailed; what DJEN",
    "   already holds for the cases (publications) is recorded the same way.",
    "",
    indent(renderRunReport(result.baseline)),
    modelLine(result.baseline),
    "",
    "2. A later day in DataJud (recorded): some cases moved, and DJEN has a new intimação. Second sweep:",
    "",
    indent(renderRunReport(result.later)),
    `${modelLine(result.later)} (no ANTHROPIC_API_KEY: summaries by the rules engine)`,
    "",
  ];
  const shown = alertToShow(result);
  if (shown === null) {
    out.push("3. No alert was written (was this database already used by an earlier demo?).", "");
  } else {
    const { path, eml } = shown;
    out.push("3. Alerts written as .eml files (open them in any mail client):", "");
    for (const alert of result.alerts) out.push(`  ${alert}`);
    out.push("", ...emlLines(`4. The text part of ${path}:`, eml));
  }
  if (result.publicationAlert !== null) {
    const eml = readEml(readFileSync(result.publicationAlert, "utf8"));
    out.push(...emlLines(`5. The DJEN publication alert, ${result.publicationAlert}:`, eml));
  }
  out.push(
    `Done in ${(result.elapsedMs / 1000).toFixed(1)} s. The files stay in ${result.dir}; delete it when done.`,
  );
  return `${out.join("\n")}\n`;
}

export const demoCommand: Command = {
  name: "demo",
  summary: "The whole job offline on bundled recorded DataJud data; alerts as .eml files",
  usage: "datajud-monitor demo",
  details: [
    "Sweeps a sample watchlist of six recorded cases, applies a later recorded state in which three",
    "moved and DJEN published an intimação, sweeps again, and prints both run reports, the alert",
    "files, one case alert's text and the publication alert's text.",
    "Needs no network and no keys, and reads none of your configuration: a private temporary",
    "directory holds the database and the outbox (MONITOR_DB and MONITOR_OUTBOX_DIR, if set, are used",
    "instead).",
    "Exit codes: 0 every case of both sweeps checked, 1 a check failed or the demo was stopped, 2 the",
    "configured database holds other cases or the sample did not load.",
  ],
  options: {},
  async run(_args, io) {
    let result: DemoResult;
    try {
      result = await runDemo(io);
    } catch (error) {
      if (!(error instanceof DemoRefusedError)) throw error;
      io.stderr.write(`${programOf(io)} demo: ${error.message}\n`);
      return EXIT.usage;
    }
    io.stdout.write(renderDemo(result));
    const ok =
      result.later.failed === 0 && result.baseline.failed === 0 && !result.later.interrupted;
    return ok ? EXIT.ok : EXIT.failures;
  },
};
