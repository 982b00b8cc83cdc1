import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { type MonitorHandles, openMonitor, type Runtime } from "../../src/cli/runtime.js";
import { loadConfig } from "../../src/config/load-config.js";
import { silentLogger } from "../../src/log.js";
import type { RunReport } from "../../src/monitor/run-report.js";
import { runSweep } from "../../src/monitor/sweep.js";
import { parseWatchlist, type Watchlist } from "../../src/watchlist/parse-watchlist.js";
import { type FakeClock, fakeSystem } from "../fakes/fake-clock.js";
import type { FakeDataJud } from "../fakes/fake-datajud.js";
import { type FakeDjen, startFakeDjen } from "../fakes/fake-djen.js";
import { type SmtpSink, startSmtpSink } from "../fakes/smtp-sink.js";
import { startDataJud } from "./cli-harness.js";
import { makeTempDir } from "./temp-dir.js";

/**
 * The set-up the sweep tests with DJEN on share (support/sweep-harness.ts is DataJud alone): a temp directory with a watchlist and a config
 * file, the recorded cases in a fake DataJud, a fake DJEN, an SMTP sink, and the real monitor
 * (openMonitor: MCP, clients, SQLite, outbox) on a fake clock. Every DJEN source is due at every
 * sweep unless `env` says otherwise (the plan is tested on its own).
 */

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface DjenSweepOptions {
  /** The temp directory's prefix. */
  prefix: string;
  /** The fake DataJud's API key. */
  apiKey: string;
  /** The watchlist's YAML. */
  watchlist: string;
  /** The config file's YAML; default: a From address and nothing else. */
  config?: string;
  /** Variables added to (or replacing) the harness's environment. */
  env?: Record<string, string>;
  /** The test's fake clock (auto-advancing, so the monitor's waits pass at once). */
  clock: FakeClock;
}

export interface DjenSweep {
  dir: string;
  dbPath: string;
  datajud: FakeDataJud;
  djen: FakeDjen;
  sink: SmtpSink;
  clock: FakeClock;
  /** The monitor's environment: what `cliInProcess` takes to run a command on the same state. */
  env: Record<string, string>;
  monitor: MonitorHandles;
  watchlist: Watchlist;
  /** One scheduled sweep at the clock's time, over the watchlist's cases, OABs and parties. */
  sweep(): Promise<RunReport>;
  /** The e-mails the sink received from the `count`th on, parsed. */
  mailsSince(count: number): Promise<Mail[]>;
  /** Closes the monitor and opens it again on the same files and clock (a restart). */
  reopen(): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_CONFIG = 'mail:\n  from: "Monitor <monitor@monitor.example.com>"\n';

export async function startDjenSweep(options: DjenSweepOptions): Promise<DjenSweep> {
  const dir = makeTempDir(options.prefix);
  const [datajud, djen, sink] = await Promise.all([
    startDataJud(options.apiKey),
    startFakeDjen(),
    startSmtpSink(),
  ]);
  const watchlistPath = join(dir, "watchlist.yaml");
  writeFileSync(watchlistPath, options.watchlist);
  writeFileSync(join(dir, "monitor.yaml"), options.config ?? DEFAULT_CONFIG);
  const parsed = parseWatchlist(options.watchlist, watchlistPath);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const watchlist = parsed.watchlist;
  const dbPath = join(dir, "monitor.db");
  const env: Record<string, string> = {
    MONITOR_CONFIG: join(dir, "monitor.yaml"),
    MONITOR_WATCHLIST: watchlistPath,
    MONITOR_DB: dbPath,
    DATAJUD_BASE_URL: datajud.url,
    DATAJUD_API_KEY: datajud.apiKey,
    DATAJUD_MAX_ATTEMPTS: "1",
    DJEN_BASE_URL: djen.url,
    DJEN_MAX_ATTEMPTS: "1",
    DJEN_CASE_EVERY_HOURS: "0",
    DJEN_OAB_EVERY_HOURS: "0",
    SMTP_URL: sink.url(),
    MONITOR_LOG_LEVEL: "silent",
    ...options.env,
  };
  const loaded = loadConfig({ cwd: dir, env });
  if (!loaded.ok) throw new Error(loaded.errors.join("\n"));
  const runtime: Runtime = { config: loaded.config, secrets: [], logger: silentLogger() };
  const clock = options.clock;
  const open = () =>
    openMonitor(runtime, { watchlist: () => watchlist, system: fakeSystem(clock) });

  const harness: DjenSweep = {
    dir,
    dbPath,
    datajud,
    djen,
    sink,
    clock,
    env,
    monitor: await open(),
    watchlist,
    sweep: () =>
      runSweep(harness.monitor.sweep, {
        watchlist: watchlist.cases,
        oab: watchlist.oab,
        parties: watchlist.parties ?? [],
        force: false,
        dryRun: false,
        trigger: "schedule",
      }),
    mailsSince: async (count) =>
      Promise.all(
        sink.messages.slice(count).map(async (m) => {
          const mail = await simpleParser(m.raw);
          return {
            to: m.to.join(","),
            subject: mail.subject ?? "",
            text: typeof mail.text === "string" ? mail.text : "",
            html: typeof mail.html === "string" ? mail.html : "",
          };
        }),
      ),
    reopen: async () => {
      await harness.monitor.close();
      harness.monitor = await open();
    },
    close: async () => {
      await harness.monitor.close();
      await Promise.all([datajud.close(), djen.close(), sink.close()]);
    },
  };
  return harness;
}
