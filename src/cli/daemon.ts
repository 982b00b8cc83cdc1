import { Cron } from "croner";
import { acknowledgementsOn } from "../ack/ack-token.js";
import { acknowledgementRoutes } from "../ack/routes.js";
import { calendarHttpRoute } from "../calendar/http-route.js";
import { healthRoutes } from "../http/health.js";
import { HttpStartError, type Route } from "../http/server.js";
import { MonitorMetrics } from "../metrics/metrics.js";
import { mailTick } from "../monitor/mail-tick.js";
import { readiness } from "../monitor/readiness.js";
import { deliver } from "../monitor/report/deliver.js";
import { pruneLedger, pruneOldChecks } from "../monitor/retention.js";
import { startScheduler } from "../monitor/scheduler.js";
import { recordDaemonSenders } from "../notify/outbox/queue-endpoint-alerts.js";
import {
  acceptWatchlist,
  refuseWatchlist,
  type WatchlistHealthContext,
} from "../notify/outbox/queue-watchlist-alerts.js";
import { dateNow } from "../time/clock.js";
import { zonedIso } from "../time/zoned-time.js";
import { type LiveWatchlist, openLiveWatchlist } from "../watchlist/live-watchlist.js";
import type { Watchlist } from "../watchlist/parse-watchlist.js";
import { formatPositionedError, type PositionedError } from "../yaml/positioned-error.js";
import { type CliIo, type Command, EXIT, programOf, systemOf } from "./command.js";
import { startDaemonSweeps } from "./daemon-sweeps.js";
import { monitorDepsFor, startMcpHttp } from "./mcp.js";
import { loadProofKey } from "./proof-key.js";
import { reloadClosures } from "./reload-closures.js";
import { loadRuntime, type MonitorHandles, openMonitorOrReport, type Runtime } from "./runtime.js";
import { systemdNotifier } from "./systemd-notify.js";
import { type StartingWatchlist, startingWatchlist } from "./watchlist-at-start.js";
import { watchlistOptionsOf } from "./watchlist-input.js";

/**
 * The HTTP server of `http.listen`: MCP at /mcp over this process's DataJud and DJEN clients (one
 * limiter each, for sweeps and tool calls alike) and database, `/livez`, `/readyz`, `/metrics`
 * and, with calendarFeed.serve, each watcher's calendar feed; null when off, or after saying why
 * it cannot start.
 */
async function startHttp(
  io: CliIo,
  runtime: Runtime,
  monitor: MonitorHandles,
  watchlist: LiveWatchlist,
  metrics: MonitorMetrics | null,
): Promise<{ stop(): Promise<void> } | null | "failed"> {
  const listen = runtime.config.http.listen;
  if (listen === null && runtime.config.calendarFeed.serve) {
    runtime.logger.warn("calendarFeed.serve is on but http.listen is not set: no feed is served");
  }
  if (listen === null && acknowledgementsOn(runtime.config.acknowledgement)) {
    runtime.logger.warn(
      "acknowledgement links are on but http.listen is not set: nothing answers at acknowledgement.publicBaseUrl/ack/",
    );
  }
  if (listen === null || metrics === null) return null;
  const history = monitorDepsFor(
    runtime,
    monitor.datajud.http,
    async () => watchlist.current(),
    monitor.system,
  );
  const health = healthRoutes(() =>
    readiness({
      db: monitor.db,
      clock: monitor.system.clock,
      watchlistErrors: () => watchlist.errors().length,
      host: monitor.system,
    }),
  );
  try {
    const { http } = await startMcpHttp(
      runtime,
      listen,
      {
        reader: monitor.datajud.reader,
        djen: monitor.djen,
        calendars: monitor.calendars,
        monitor: history.deps,
      },
      [
        ...health,
        metrics.route(),
        ...calendarRoutes(runtime, monitor),
        ...ackRoutes(runtime, monitor),
      ],
    );
    return {
      stop: async () => {
        await http.close();
        history.close();
      },
    };
  } catch (error) {
    history.close();
    if (!(error instanceof HttpStartError)) throw error;
    io.stderr.write(`${programOf(io)} daemon: ${error.message} (http.listen)\n`);
    return "failed";
  }
}

/** /ack/<token> and the reply webhooks, as the acknowledgement settings turn them on. */
function ackRoutes(runtime: Runtime, monitor: MonitorHandles): Route[] {
  return acknowledgementRoutes(runtime.config.acknowledgement, runtime.config.notify.endpoints, {
    db: monitor.db,
    clock: monitor.system.clock,
    logger: runtime.logger,
    timeZone: runtime.config.schedule.timezone,
    domain: monitor.mail.domain,
    policy: () => monitor.mail.policy(),
  });
}

/** /calendar/<token>.ics when calendarFeed.serve is on: each watcher's feed at its address. */
function calendarRoutes(runtime: Runtime, monitor: MonitorHandles): Route[] {
  if (!runtime.config.calendarFeed.serve) return [];
  return [
    calendarHttpRoute({
      db: monitor.db,
      settings: runtime.config.calendarFeed,
      calendars: monitor.calendars,
      clock: monitor.system.clock,
      logger: runtime.logger,
    }),
  ];
}

/**
 * Once a day, unchanged checks no longer a case's latest are folded into per-run tallies, and
 * checks older than `monitor.checkRetentionDays` go (0: none; each case keeps its latest).
 */
function startRetention(runtime: Runtime, monitor: MonitorHandles, io: CliIo): Cron {
  const { config, logger } = runtime;
  const days = config.monitor.checkRetentionDays;
  // The record of watching's entries past proofRetentionDays become an anchor signed with the
  // monitor's key; without a key they stay (the record only grows), and the log says why.
  const pruneRecordOfWatching = (now: number): void => {
    const keep = config.monitor.proofRetentionDays;
    if (keep <= 0) return;
    const key = loadProofKey(io.env, io.cwd, config.paths.db, { create: true });
    if (!key.ok) {
      logger.warn({ reason: key.error }, "record of watching not pruned: no signing key");
      return;
    }
    pruneLedger(monitor.db, now, keep, key.key, logger);
  };
  return new Cron(
    "17 3 * * *",
    {
      timezone: config.schedule.timezone,
      protect: true,
      catch: (error) => logger.error({ err: error }, "check retention failed"),
    },
    () => {
      const now = monitor.system.clock.now();
      pruneOldChecks(monitor.db, now, days, logger);
      pruneRecordOfWatching(now);
    },
  );
}

/**
 * Every minute, between sweeps: status reports whose hour came, digests at their hour, alerts held
 * by quiet hours, retries after a failed send, on every channel. A query on an index when nothing
 * is due.
 */
function startMailTicker(
  runtime: Runtime,
  monitor: MonitorHandles,
  signal: AbortSignal,
): { stop(): Promise<void> } {
  const { config, logger } = runtime;
  let running: Promise<void> | null = null;
  const tick = async (): Promise<void> => {
    const result = await mailTick(monitor.mail, signal);
    if (result === null) return;
    const { endpoints, ...mail } = result;
    const told = endpoints === null ? 0 : endpoints.sent + endpoints.failed + endpoints.dead;
    if (mail.sent + mail.failed + mail.dead + told > 0) {
      logger.info(
        {
          ...mail,
          ...(endpoints === null ? {} : { endpoints: endpoints.byEndpoint }),
        },
        "mail tick",
      );
    }
  };
  const job = new Cron(
    "* * * * *",
    {
      timezone: config.schedule.timezone,
      protect: true,
      catch: (error) => logger.error({ err: error }, "mail tick failed"),
    },
    async () => {
      running = tick();
      try {
        await running;
      } finally {
        running = null;
      }
    },
  );
  return {
    // The database closes after this: a tick in flight finishes (its drain stops at `signal`).
    stop: async () => {
      job.stop();
      await (running as Promise<void> | null)?.catch(() => undefined);
    },
  };
}

/**
 * Which endpoints this daemon cannot send to, for `monitor status` (another process) and the
 * journal: their alerts are queued by every sweep and wait, unsent, until it has their secrets.
 */
function recordSenders(runtime: Runtime, monitor: MonitorHandles): void {
  const declared = runtime.config.notify.declared;
  recordDaemonSenders(
    {
      db: monitor.db,
      admin: runtime.config.mail.admin,
      domain: monitor.mail.domain,
      now: dateNow(monitor.system.clock),
      policy: monitor.mail.policy(),
    },
    declared,
  );
  for (const e of declared) {
    if (e.missing.length === 0) continue;
    runtime.logger.error(
      { channel: e.channel, endpoint: e.name, missing: e.missing },
      `${e.channel} endpoint "${e.name}": this daemon has no ${e.missing.join(" and ")}; its alerts are queued and NOT sent until the daemon is restarted with it (environment, ${e.missing[0]}_FILE or a systemd credential)`,
    );
  }
}

/** The daemon's next sweep for its log, in the schedule's zone as the other times are. */
function nextRunText(next: Date | null, timeZone: string): string | null {
  return next === null ? null : zonedIso(next, timeZone);
}

/**
 * The live watchlist, each version it accepts kept in the database and each it refuses recorded,
 * the operator told once each way (notify/outbox/queue-watchlist-alerts.ts); the version the
 * daemon starts on is recorded first, for the start-up drain to send.
 */
function watchRecordedWatchlist(
  io: CliIo,
  runtime: Runtime,
  monitor: MonitorHandles,
  start: StartingWatchlist,
): LiveWatchlist {
  const { config, logger } = runtime;
  const health = (): WatchlistHealthContext => ({
    db: monitor.db,
    admin: config.mail.admin,
    domain: monitor.mail.domain,
    now: dateNow(monitor.system.clock),
    policy: monitor.mail.policy(),
  });
  /** The copy kept, the refusal recorded, and an operator alert, if one was queued, sent now. */
  const guard = (what: string, step: () => number, send = true): void => {
    try {
      if (step() > 0 && send) {
        deliver(monitor.mail, io.signal).catch((error: unknown) =>
          logger.error({ err: error }, "outbox drain failed"),
        );
      }
    } catch (error) {
      logger.error({ err: error }, `could not record the ${what}`);
    }
  };
  const refuse = (errors: readonly PositionedError[], atStart: boolean, cases: number): number =>
    refuseWatchlist(health(), {
      file: config.paths.watchlist,
      errors: errors.map(formatPositionedError),
      cases,
      atStart,
    });
  const initial = start.watchlist;
  // Queued before the start-up drain, which sends it.
  guard(
    "watchlist at start",
    () =>
      start.refused.length > 0
        ? refuse(start.refused, true, initial.cases.length)
        : acceptWatchlist(health(), { path: config.paths.watchlist, text: start.text }),
    false,
  );
  const watchlist: LiveWatchlist = openLiveWatchlist({
    path: config.paths.watchlist,
    initial,
    initialErrors: start.refused,
    parse: watchlistOptionsOf(config),
    clock: systemOf(io).clock,
    onReload: (w) => logger.info({ cases: w.cases.length }, "watchlist reloaded"),
    onValid: (_w, text) =>
      guard("accepted watchlist", () =>
        acceptWatchlist(health(), { path: config.paths.watchlist, text }),
      ),
    onInvalid: (errors) => {
      logger.error(
        { errors: errors.map(formatPositionedError) },
        "watchlist edit is invalid; keeping the last good one",
      );
      guard("refused watchlist", () => refuse(errors, false, watchlist.current().cases.length));
    },
  });
  return watchlist;
}

/** Sweeps on the cron schedule, and DJEN's sources between them as they come due. */
function startSweeping(runtime: Runtime, monitor: MonitorHandles, watchlist: LiveWatchlist) {
  const { config, logger } = runtime;
  const sweeps = startDaemonSweeps(
    monitor,
    () => watchlist.current(),
    logger,
    () => monitor.reportDrift(),
  );
  const scheduler = startScheduler({
    cron: config.schedule.cron,
    timezone: config.schedule.timezone,
    startJitterMs: config.schedule.startJitterSeconds * 1000,
    random: monitor.system.random,
    clock: monitor.system.clock,
    logger,
    tick: sweeps.tick,
  });
  return { sweeps, scheduler };
}

/** Each part stopped on its own, so one failing does not keep the database open. */
async function stopEach(
  parts: ReadonlyArray<readonly [string, () => unknown]>,
  logger: Runtime["logger"],
): Promise<void> {
  for (const [part, stop] of parts) {
    try {
      await stop();
    } catch (error) {
      logger.error({ err: error, part }, "error while stopping");
    }
  }
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

export const daemonCommand: Command = {
  name: "daemon",
  summary: "Sweep on the configured schedule until SIGTERM/SIGINT",
  usage: "datajud-monitor daemon",
  details: [
    "Schedule and timezone come from config (default: 07:00, 12:00 and 17:00 on weekdays, America/Sao_Paulo).",
    "The watchlist is reloaded when the file changes and on SIGHUP; an invalid edit is logged and",
    "the last good watchlist stays in force. Each accepted watchlist is kept in the database: started",
    "with an invalid file, the daemon runs on that last good copy (status exits 3 and names the errors,",
    "/readyz answers 503, mail.admin is told once); with no copy kept it exits 2. SIGHUP also reads",
    "calendar.closures again from the configuration (other settings take a restart). SIGTERM/SIGINT",
    "finish the current case and exit 0.",
    "Exit codes: 0 stopped by SIGTERM or SIGINT, 2 bad config, no valid watchlist (nor a kept copy), or http.listen cannot be served.",
  ],
  options: {},
  async run(_args, io) {
    const runtime = loadRuntime(io, "daemon");
    if (!runtime) return EXIT.usage;
    const { logger } = runtime;
    const systemd = systemdNotifier(io.env, logger);
    const opened = await openDaemon(io, runtime);
    if (typeof opened === "number") return opened;
    const { monitor, watchlist, http } = opened;
    const onHangup = (): void => {
      watchlist
        .reload("SIGHUP")
        .catch((error: unknown) => logger.error({ err: error }, "reload failed"));
      reloadClosures(io, monitor, logger);
    };
    process.on("SIGHUP", onHangup);
    const work = startWork(io, runtime, opened);

    await systemd.tell("READY=1");

    await untilAborted(io.signal);
    logger.info("stopping: finishing the current case");
    await systemd.tell("STOPPING=1");
    process.off("SIGHUP", onHangup);
    await stopEach(
      [
        ["http", async () => http?.stop()],
        ["scheduler", () => work.scheduler.stop()],
        ["djen", () => work.sweeps.stop()],
        ["retention", async () => work.retention.stop()],
        ["mail", async () => work.mail.stop()],
        ["watchlist", async () => watchlist.close()],
        ["monitor", () => monitor.close()],
      ],
      logger,
    );
    logger.info("daemon stopped");
    return EXIT.ok;
  },
};

interface OpenDaemon {
  /** The watchlist the daemon started on (the file's, or the last good copy's). */
  initial: Watchlist;
  monitor: MonitorHandles;
  watchlist: LiveWatchlist;
  http: { stop(): Promise<void> } | null;
}

/**
 * The watchlist to start on, the monitor reading the watchlist in force, the watch of its file and
 * the HTTP server of http.listen; or the exit code after saying why the daemon cannot start.
 */
async function openDaemon(io: CliIo, runtime: Runtime): Promise<OpenDaemon | number> {
  const { config, logger } = runtime;
  // Escalation without acknowledgement links could never be stopped, and a step or a channel naming
  // no endpoint could reach nobody: refused at start and on reload.
  const parse = watchlistOptionsOf(config);
  const start = await startingWatchlist(io, config.paths, config.schedule.timezone, logger, parse);
  if (!start) return EXIT.usage;
  const initial = start.watchlist;
  // Metrics only where they can be read: the HTTP server of http.listen.
  const clock = systemOf(io).clock;
  const metrics =
    config.http.listen === null ? null : new MonitorMetrics({ now: () => clock.now() });
  // The monitor reads the watchlist in force through the live watchlist, opened right after it.
  let live: LiveWatchlist | null = null;
  const monitor = await openMonitorOrReport(
    io,
    runtime,
    "daemon",
    () => live?.current() ?? initial,
    metrics === null ? {} : { metrics },
  );
  if (typeof monitor === "number") return monitor;
  const watchlist = watchRecordedWatchlist(io, runtime, monitor, start);
  live = watchlist;
  recordSenders(runtime, monitor);
  const http = await startHttp(io, runtime, monitor, watchlist, metrics);
  if (http === "failed") {
    await monitor.close();
    watchlist.close();
    return EXIT.usage;
  }
  return { initial, monitor, watchlist, http };
}

/**
 * The daemon's work: the scheduled sweeps (and DJEN between them), the daily retention, the mail
 * tick, and at once the alerts a previous process queued but could not send.
 */
function startWork(io: CliIo, runtime: Runtime, { initial, monitor, watchlist }: OpenDaemon) {
  const { config, logger } = runtime;
  const { sweeps, scheduler } = startSweeping(runtime, monitor, watchlist);
  const retention = startRetention(runtime, monitor, io);
  const mail = startMailTicker(runtime, monitor, io.signal);
  // Alerts a previous process queued but could not send go out now, not at the next tick.
  deliver(monitor.mail, io.signal).catch((error: unknown) =>
    logger.error({ err: error }, "outbox drain failed"),
  );
  logger.info(
    {
      cases: initial.cases.length,
      cron: config.schedule.cron,
      timezone: config.schedule.timezone,
      nextRun: nextRunText(scheduler.nextRun(), config.schedule.timezone),
    },
    "daemon started",
  );
  return { sweeps, scheduler, retention, mail };
}
