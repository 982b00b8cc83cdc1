import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ackLinks, acknowledgementsOn } from "../ack/ack-token.js";
import { loadConfig, type MonitorConfig } from "../config/load-config.js";
import { CaseReader } from "../datajud/case-reader.js";
import { type DataJudClientEvent, DataJudHttpClient } from "../datajud/http-client.js";
import { DjenClient, type DjenClientEvent } from "../djen/http-client.js";
import { createLogger, type Logger } from "../log.js";
import { connectInProcess } from "../mcp/in-process-client.js";
import { createDataJudServer } from "../mcp/server.js";
import type { CourtFreshnessGauge, MonitorMetrics } from "../metrics/metrics.js";
import { type DataJudGateway, mcpGateway } from "../monitor/detect/datajud-gateway.js";
import { type HeartbeatDeps, heartbeatSignal, pingHeartbeat } from "../monitor/heartbeat.js";
import { mcpPublicationGateway } from "../monitor/publications/djen-gateway.js";
import type { MailDeps } from "../monitor/report/mail-deps.js";
import { reportPhases } from "../monitor/report/phases.js";
import type { SweepDeps } from "../monitor/sweep.js";
import { mailIdentity } from "../notify/outbox/message-ids.js";
import { createTransport } from "../notify/transport/transports.js";
import type { SharedBudget } from "../pacing/budget-share.js";
import { ARRIVAL_MARGIN_MS } from "../pacing/upstream.js";
import type { DjenView } from "../policy/djen-plan.js";
import { endpointMetrics, endpointStatuses } from "../policy/endpoint-status.js";
import { mailPolicy } from "../policy/mail-policy.js";
import { courtFreshness, lateDataJudNotes, saoPauloDay } from "../policy/source-freshness.js";
import { countWatchedByOutcome } from "../store/cases.js";
import {
  closeDatabase,
  type Db,
  databaseExists,
  openDatabase,
  storeFailure,
} from "../store/database.js";
import { takeDataJudGrant } from "../store/datajud-grants.js";
import { endpointStates } from "../store/endpoint-state.js";
import { thisProcessClaimant } from "../store/lease.js";
import { endpointOutbox, outboxCounts } from "../store/outbox.js";
import { partyHitTotals } from "../store/party-hits.js";
import { freshnessInputs } from "../store/source-freshness.js";
import { createSummarizer, type Summarizer } from "../summarize/summarizer.js";
import { observeSpending, type TokenBudget } from "../summarize/token-budget.js";
import { realSystem, type System } from "../system.js";
import { terminalText } from "../text.js";
import { type Clock, dateNow } from "../time/clock.js";
import { type CalendarBook, type CourtClosure, calendarBook } from "../time/court-calendar.js";
import type { Watchlist } from "../watchlist/parse-watchlist.js";
import { type CliIo, EXIT, programOf, systemOf } from "./command.js";
import { LiveLines, terminalTraits } from "./terminal.js";

export interface Runtime {
  config: MonitorConfig;
  secrets: string[];
  logger: Logger;
  /**
   * stderr when a person reads it on a terminal: log lines are printed through it, above the
   * lines a sweep's progress redraws there. Null (or absent) for journald, files and pipes.
   */
  live?: LiveLines | null;
}

/**
 * The command's logger: short human lines on a terminal, JSON lines anywhere else (journald,
 * files, pipes), secrets removed either way.
 */
export function cliLogger(
  io: CliIo,
  config: MonitorConfig,
  secrets: readonly string[],
  command: string,
): { logger: Logger; live: LiveLines | null } {
  const traits = terminalTraits(io.stderr, io.env);
  const live = traits.interactive ? new LiveLines(io.stderr) : null;
  const logger = createLogger({
    level: config.log.level,
    secrets,
    destination: live === null ? io.stderr : { write: (line: string) => live.print(line) },
    format: traits.interactive ? "pretty" : "json",
    timezone: config.schedule.timezone,
    colors: traits.colors,
  }).child({ command });
  return { logger, live };
}

/** Config from defaults < file < environment; on error prints every message and returns null. */
export function loadRuntime(io: CliIo, command: string): Runtime | null {
  const result = loadConfig({ env: io.env, cwd: io.cwd });
  if (!result.ok) {
    for (const message of result.errors) io.stderr.write(`${terminalText(message)}\n`);
    io.stderr.write(
      `${programOf(io)} ${command}: fix the configuration above (see config/default.yaml)\n`,
    );
    return null;
  }
  const { logger, live } = cliLogger(io, result.config, result.secrets, command);
  return { config: result.config, secrets: result.secrets, logger, live };
}

/** Whether DJEN is on, and when each source is due: what the status views show. */
export function djenViewOf(config: MonitorConfig): DjenView {
  return {
    enabled: config.djen.enabled,
    plan: {
      caseEveryHours: config.djen.caseEveryHours,
      oabEveryHours: config.djen.oabEveryHours,
      partyEveryHours: config.djen.partyEveryHours,
    },
  };
}

export interface DataJudRuntime {
  http: DataJudHttpClient;
  reader: CaseReader;
}

/**
 * DataJud's budget shared through the database with every other process using it (the daemon,
 * `run-once`, `monitor mcp`): the grants of the last window, store/datajud-grants.ts. `db` is
 * read at each search (null: nothing to share yet). A failing read of the table leaves this
 * process's own limiter in charge rather than failing DataJud's searches.
 */
export function sharedDataJudBudget(
  db: () => Db | null,
  config: MonitorConfig,
  system: System,
  logger: Logger,
): SharedBudget {
  const limit = config.datajud.requestsPerMinute;
  const rule = {
    limit,
    windowMs: 60_000 + ARRIVAL_MARGIN_MS,
    toolLimit: Math.floor((limit * config.datajud.mcpSharePercent) / 100),
  };
  let warned = false;
  return {
    toolLimit: rule.toolLimit,
    take: (who) => {
      const handle = db();
      if (handle === null) return { waitMs: 0 };
      try {
        return takeDataJudGrant(handle, who, system.clock.now(), rule, system.pid);
      } catch (error) {
        if (!warned) {
          warned = true;
          logger.warn(
            { error: error instanceof Error ? error.message : String(error) },
            "DataJud budget shared through the database could not be read: this process keeps to its own limiter",
          );
        }
        return { waitMs: 0 };
      }
    },
  };
}

export function createDataJud(
  config: MonitorConfig,
  logger: Logger,
  fetchImpl: typeof fetch = globalThis.fetch,
  system: System = realSystem,
  onEvent?: (event: DataJudClientEvent) => void,
  shared?: SharedBudget,
): DataJudRuntime {
  const apiKey = config.datajud.apiKey;
  if (apiKey === null) {
    throw new MissingApiKeyError();
  }
  const http = new DataJudHttpClient({
    baseUrl: config.datajud.baseUrl,
    apiKey,
    fetch: fetchImpl,
    clock: system.clock,
    random: system.random,
    requestsPerMinute: config.datajud.requestsPerMinute,
    concurrency: config.datajud.concurrency,
    timeoutMs: config.datajud.timeoutMs,
    totalTimeoutMs: config.datajud.totalTimeoutMs,
    maxAttempts: config.datajud.maxAttempts,
    maxResponseBytes: config.datajud.maxResponseMb * 2 ** 20,
    mcpSharePercent: config.datajud.mcpSharePercent,
    ...(shared === undefined ? {} : { shared }),
    onEvent: (event) => {
      logDataJudEvent(logger, event);
      onEvent?.(event);
    },
  });
  // This reader serves the MCP tools (the daemon's /mcp, `monitor mcp`): a guest of the budget,
  // bounded to datajud.mcpSharePercent while a sweep of this process runs.
  return {
    http,
    reader: new CaseReader(http.guest(), { batchSize: config.datajud.batchSize }),
  };
}

/** Retries and concurrency changes are worth an operator's eye; the rest is for debugging. */
function logDataJudEvent(logger: Logger, event: DataJudClientEvent): void {
  switch (event.type) {
    case "retry":
      logger.warn({ event }, "DataJud request failed, retrying");
      return;
    case "concurrency":
      if (event.to < event.from) {
        logger.warn(
          { from: event.from, to: event.to, cause: event.cause },
          "DataJud shows overload: fewer requests at once",
        );
      } else {
        logger.info(
          { from: event.from, to: event.to, cause: event.cause },
          "DataJud quiet for a minute: one more request at once",
        );
      }
      return;
    default:
      logger.debug({ event }, "DataJud request");
  }
}

/** DJEN's client, or null when `djen.enabled` is false: then no DJEN request is ever made. */
export function createDjen(
  config: MonitorConfig,
  logger: Logger,
  fetchImpl: typeof fetch = globalThis.fetch,
  system: System = realSystem,
  onEvent?: (event: DjenClientEvent) => void,
): DjenClient | null {
  if (!config.djen.enabled) return null;
  return new DjenClient({
    baseUrl: config.djen.baseUrl,
    fetch: fetchImpl,
    clock: system.clock,
    random: system.random,
    requestsPerMinute: config.djen.requestsPerMinute,
    timeoutMs: config.djen.timeoutMs,
    totalTimeoutMs: config.djen.totalTimeoutMs,
    maxAttempts: config.djen.maxAttempts,
    maxResponseBytes: config.djen.maxResponseMb * 2 ** 20,
    onEvent: (event) => {
      if (event.type === "retry") logger.warn({ event }, "DJEN request failed, retrying");
      else logger.debug({ event }, "DJEN request");
      onEvent?.(event);
    },
  });
}

export class MissingApiKeyError extends Error {
  override readonly name = "MissingApiKeyError";
  constructor() {
    super(
      "DATAJUD_API_KEY is not set: copy CNJ's current public key from https://datajud-wiki.cnj.jus.br/api-publica/acesso into DATAJUD_API_KEY (or DATAJUD_API_KEY_FILE)",
    );
  }
}

export interface MonitorHandles {
  /** What every part of this monitor reads time, chance and its identity from. */
  system: System;
  db: Db;
  datajud: DataJudRuntime;
  /**
   * DJEN's client (null when `djen.enabled` is false): the process's only one, so the sweeps and
   * the daemon's MCP endpoint share its limiter.
   */
  djen: DjenClient | null;
  gateway: DataJudGateway;
  /** What every sweep of this process runs with: `run-once`, the daemon's tick and the demo. */
  sweep: SweepDeps;
  /** What queueing and sending mail runs with: the daemon's mail tick and its start-up drain. */
  mail: MailDeps;
  /** Logs `_source` fields DataJud sent that we do not read, once per new field: the API drifting. */
  reportDrift: () => void;
  /** Each court's calendar, with the configured closures (calendar.closures), for deadline dates. */
  calendars: CalendarBook;
  /**
   * Puts `closures` in force for every estimate made from now on (the daemon's SIGHUP): the
   * calendars above, the sweep's and the MCP tools' alike, read them at their next use.
   */
  setClosures(closures: readonly CourtClosure[]): void;
  close(): Promise<void>;
}

export interface OpenMonitorOptions {
  /** The watchlist in force (the daemon's changes on reload): its rules and watchers steer mail. */
  watchlist: () => Watchlist;
  fetch?: typeof fetch;
  /** DJEN's fetch, when not the same as DataJud's (the demo answers each from its recordings). */
  djenFetch?: typeof fetch;
  /** @default realSystem */
  system?: System;
  /** Told every DataJud client event too (a sweep's progress display). */
  onDataJudEvent?: (event: DataJudClientEvent) => void;
  /** Told every DJEN client event too (a sweep's progress display: DJEN's rate-limit waits). */
  onDjenEvent?: (event: DjenClientEvent) => void;
  /** The heartbeat's fetch (monitor.heartbeatUrl). @default globalThis.fetch */
  heartbeatFetch?: typeof fetch;
  /**
   * The daemon's metrics (`/metrics`): fed by the DataJud and DJEN clients, each sweep's end,
   * each model call and each drain of the outbox, and reading the database at each scrape.
   */
  metrics?: MonitorMetrics;
}

/** The stored counts `/metrics` reads at each scrape. */
function readStoredMetrics(metrics: MonitorMetrics, db: Db, config: MonitorConfig, clock: Clock) {
  metrics.readStoredFrom({
    casesByOutcome: () => countWatchedByOutcome(db),
    outboxByState: () => outboxCounts(db),
    partyHits: () => partyHitTotals(db),
    endpoints: () =>
      endpointMetrics(
        endpointStatuses(config.notify.declared, endpointOutbox(db), endpointStates(db)),
      ),
    courts: () => courtGauges(db, clock),
  });
}

/** Webhook and chat delivery, when the configuration names an endpoint. */
function endpointDeps(
  config: MonitorConfig,
  metrics: MonitorMetrics | undefined,
): Pick<MailDeps, "endpoints"> {
  if (config.notify.declared.length === 0) return {};
  return {
    endpoints: {
      list: config.notify.endpoints,
      declared: config.notify.declared,
      limits: {
        timeoutMs: config.notify.timeoutMs,
        maxResponseBytes: config.notify.maxResponseBytes,
        allowedPrivateNetworks: config.notify.allowedPrivateNetworks,
      },
      maxAttempts: config.notify.maxAttempts,
      ...(metrics === undefined
        ? {}
        : { delivered: (result) => metrics.endpointsDelivered(result) }),
    },
  };
}

/** What queueing and sending runs with, the watchlist in force read at each use. */
function mailDeps(
  runtime: Runtime,
  options: OpenMonitorOptions,
  parts: Pick<MailDeps, "db" | "transport" | "claimant" | "calendars" | "clock">,
): MailDeps {
  const { config, logger } = runtime;
  const { metrics } = options;
  const { domain, listId } = mailIdentity(config.mail.from, config.paths.watchlist);
  return {
    ...parts,
    from: config.mail.from,
    listId,
    domain,
    maxAttempts: config.mail.maxAttempts,
    timezone: config.schedule.timezone,
    admin: config.mail.admin,
    failedSweepsThreshold: config.mail.healthAfterFailedSweeps,
    staleAfterDays: config.monitor.staleAfterDays,
    policy: () =>
      mailPolicy(options.watchlist(), {
        timezone: config.schedule.timezone,
        quietHours: config.mail.quietHours,
        urgentBypassesQuietHours: config.mail.urgentBypassesQuietHours,
        defaultDelivery: config.mail.mode,
        // Every endpoint the configuration names: its alerts are queued whether or not this
        // process holds its secret (a process that does sends them).
        endpoints: config.notify.declared,
        ...(acknowledgementsOn(config.acknowledgement)
          ? { acknowledgement: { validHours: config.acknowledgement.validHours } }
          : {}),
      }),
    cases: () => options.watchlist().cases,
    oab: () => options.watchlist().oab,
    parties: () => options.watchlist().parties ?? [],
    defaultRules: () => {
      const { ignore, urgent } = options.watchlist().defaults;
      return { ignore, urgent, muted: false, mutedUntil: null };
    },
    notifyOnBaseline: config.monitor.notifyOnBaseline,
    djen: djenViewOf(config),
    logger,
    ...(metrics === undefined ? {} : { delivered: (result) => metrics.mailsDelivered(result) }),
    ...endpointDeps(config, metrics),
    ...(acknowledgementsOn(config.acknowledgement)
      ? {
          ackLink: ackLinks(config.acknowledgement.publicBaseUrl, config.acknowledgement.secret),
        }
      : {}),
  };
}

/** The summarizer each sweep builds on its token budget, asking the in-process MCP client. */
function summarizerFor(
  runtime: Runtime,
  system: System,
  mcpClient: Client,
  metrics: MonitorMetrics | undefined,
): (budget: TokenBudget) => Summarizer {
  const { config, logger } = runtime;
  return (budget) =>
    createSummarizer({
      apiKey: config.summarizer.apiKey,
      baseURL: config.summarizer.baseUrl,
      model: config.summarizer.model,
      maxIterations: config.summarizer.maxIterations,
      maxOutputTokens: config.summarizer.maxOutputTokens,
      budget:
        metrics === undefined
          ? budget
          : observeSpending(budget, (usage) => metrics.modelCall(usage)),
      mcpClient,
      logger,
      timer: system.callTimer,
      callTimeoutMs: config.summarizer.callTimeoutMs,
      ...(metrics === undefined
        ? {}
        : { onBreakerOpen: (cause) => metrics.modelBreakerOpened(cause) }),
    });
}

/** DJEN's phase of a sweep, when DJEN is on. */
function publicationDeps(
  config: MonitorConfig,
  djen: DjenClient | null,
  mcpClient: Client,
): Pick<SweepDeps, "publications"> {
  if (djen === null) return {};
  return {
    publications: {
      gateway: mcpPublicationGateway(mcpClient, {
        timeoutMs: config.djen.totalTimeoutMs * 2 + 30_000,
      }),
      windowDays: config.djen.windowDays,
      maxMinutesPerSweep: config.djen.maxMinutesPerSweep,
      concurrency: config.djen.concurrency,
      plan: {
        caseEveryHours: config.djen.caseEveryHours,
        oabEveryHours: config.djen.oabEveryHours,
        partyEveryHours: config.djen.partyEveryHours,
      },
      requests: () => djen.requestCount,
    },
  };
}

/** What every sweep of this process runs with. */
function sweepDeps(
  runtime: Runtime,
  options: OpenMonitorOptions,
  parts: {
    system: System;
    db: Db;
    gateway: DataJudGateway;
    djen: DjenClient | null;
    mcpClient: Client;
    mail: MailDeps;
    datajudRequests: () => number;
  },
): SweepDeps {
  const { config, logger } = runtime;
  const { system } = parts;
  const { metrics } = options;
  const heartbeat: HeartbeatDeps = {
    url: config.monitor.heartbeatUrl,
    fetch: options.heartbeatFetch ?? globalThis.fetch,
    logger,
  };
  return {
    db: parts.db,
    gateway: parts.gateway,
    clock: system.clock,
    random: system.random,
    host: system,
    logger,
    timeZone: config.schedule.timezone,
    settings: {
      fullRereadDays: config.schedule.fullRereadDays,
      notFoundThreshold: config.monitor.notFoundThreshold,
      notifyOnBaseline: config.monitor.notifyOnBaseline,
      concurrency: config.datajud.concurrency,
      batchSize: config.datajud.batchSize,
    },
    datajudRequests: parts.datajudRequests,
    finished: async (ended) => {
      metrics?.sweepEnded(ended.trigger, ended.result, ended.durationMs);
      // The demo's sweeps run on recordings: the operator's heartbeat hears only real ones.
      const signal = ended.trigger === "demo" ? null : heartbeatSignal(ended.result, ended.dryRun);
      if (signal !== null) await pingHeartbeat(heartbeat, signal === "fail");
    },
    ...publicationDeps(config, parts.djen, parts.mcpClient),
    report: reportPhases({
      mail: parts.mail,
      summarizer: summarizerFor(runtime, system, parts.mcpClient, metrics),
      budget: {
        runLimit: config.summarizer.runTokenBudget,
        dayLimit: config.summarizer.dailyTokenBudget,
      },
    }),
  };
}

/**
 * Logs `_source` fields DataJud sent that the reader does not read, each field once per
 * process: the API drifting.
 */
export function driftReporter(
  drift: () => Record<string, number>,
  logger: Pick<Logger, "warn">,
): () => void {
  const reported = new Set<string>();
  return () => {
    const seen = drift();
    const fresh = Object.keys(seen).filter((field) => !reported.has(field));
    if (fresh.length === 0) return;
    for (const field of fresh) reported.add(field);
    logger.warn(
      { fields: Object.fromEntries(fresh.map((f) => [f, seen[f]])) },
      "DataJud sent fields this version does not read",
    );
  };
}

/**
 * The composition root of a sweep: HTTP client -> reader -> MCP server, reached through a real
 * MCP client in-process; the database; the summarizer and the mail transport.
 */
export async function openMonitor(
  runtime: Runtime,
  options: OpenMonitorOptions,
): Promise<MonitorHandles> {
  const { config, logger } = runtime;
  const system = options.system ?? realSystem;
  // Opened below; every search of this process takes its grant there (none before it is open).
  let grantsDb: Db | null = null;
  const { datajud, djen } = sourceClients(runtime, options, system, () => grantsDb);
  const db = openDatabase(config.paths.db);
  grantsDb = db;
  if (options.metrics !== undefined) readStoredMetrics(options.metrics, db, config, system.clock);
  const server = await connectSweepServer(config, datajud, djen);
  // One name for this process in claimed outbox rows and `.eml` temporary files.
  const claimant = thisProcessClaimant(system);
  const transport = createTransport({
    smtpUrl: config.mail.smtpUrl,
    outboxDir: config.paths.outboxDir,
    writer: claimant,
  });
  const calendars = swappableCalendars(config.calendar.closures);
  const mail = mailDeps(runtime, options, {
    db,
    transport,
    claimant,
    calendars: calendars.book,
    clock: system.clock,
  });
  const sweep = sweepDeps(runtime, options, {
    system,
    db,
    gateway: server.gateway,
    djen,
    mcpClient: server.connection.client,
    mail,
    datajudRequests: () => server.searches.requestCount,
  });
  if (config.summarizer.apiKey === null) {
    // The documented default: said once per process, not as a warning on every change.
    logger.info(
      {},
      "no ANTHROPIC_API_KEY: alerts are summarized by the rules engine (no model is called)",
    );
  }
  return {
    system,
    db,
    datajud,
    djen,
    gateway: server.gateway,
    sweep,
    mail,
    reportDrift: driftReporter(() => server.reader.drift(), logger),
    calendars: calendars.book,
    setClosures: calendars.set,
    close: async () => {
      transport.close();
      await server.connection.close();
      closeDatabase(db);
    },
  };
}

/** DataJud's and DJEN's clients, their events told to the caller and the metrics too. */
function sourceClients(
  runtime: Runtime,
  options: OpenMonitorOptions,
  system: System,
  grantsDb: () => Db | null,
): { datajud: DataJudRuntime; djen: DjenClient | null } {
  const { config, logger } = runtime;
  const { metrics } = options;
  const datajud = createDataJud(
    config,
    logger,
    options.fetch,
    system,
    (event) => {
      options.onDataJudEvent?.(event);
      metrics?.dataJudEvent(event);
    },
    sharedDataJudBudget(grantsDb, config, system, logger),
  );
  const djen = createDjen(config, logger, options.djenFetch ?? options.fetch, system, (event) => {
    options.onDjenEvent?.(event);
    metrics?.djenEvent(event);
  });
  return { datajud, djen };
}

/**
 * The MCP server the sweep asks, connected in process. Its reader is the sweep's own view of the
 * client: it shares the pace of the daemon's /mcp tools, and its run report counts its own
 * requests only.
 */
async function connectSweepServer(
  config: MonitorConfig,
  datajud: DataJudRuntime,
  djen: DjenClient | null,
) {
  const searches = datajud.http.counted();
  const reader = new CaseReader(searches, { batchSize: config.datajud.batchSize });
  const connection = await connectInProcess(createDataJudServer({ reader, djen }));
  const gateway = mcpGateway(connection.client, {
    // Room for every retry of every batch in one tool call; progress resets it anyway.
    timeoutMs: config.datajud.totalTimeoutMs * 2 + 30_000,
  });
  return { searches, reader, connection, gateway };
}

/**
 * One calendar per court and seat, with calendar.closures, swapped whole when they change: what
 * `book` answers after `set` has the new closures.
 */
export function swappableCalendars(closures: readonly CourtClosure[]): {
  book: CalendarBook;
  set: (closures: readonly CourtClosure[]) => void;
} {
  let current = calendarBook(closures);
  return {
    book: (place) => current(place),
    set: (next) => {
      current = calendarBook(next);
    },
  };
}

/**
 * The database earlier sweeps wrote, for commands that only read history; null after saying that
 * none exists yet (the caller exits 2).
 */
export function openRecordedDatabase(io: CliIo, runtime: Runtime, command: string): Db | null {
  const path = runtime.config.paths.db;
  if (!databaseExists(path)) {
    io.stderr.write(
      `${programOf(io)} ${command}: no database yet at ${path}; run \`${programOf(io)} run-once\` first\n`,
    );
    return null;
  }
  return openDatabase(path);
}

/** Opens the monitor, or prints why not and returns the exit code (2: fix config or database). */
export async function openMonitorOrReport(
  io: CliIo,
  runtime: Runtime,
  command: string,
  watchlist: () => Watchlist,
  more: Pick<OpenMonitorOptions, "onDataJudEvent" | "onDjenEvent" | "metrics"> = {},
): Promise<MonitorHandles | number> {
  try {
    return await openMonitor(runtime, { ...more, watchlist, system: systemOf(io) });
  } catch (error) {
    if (error instanceof MissingApiKeyError) {
      io.stderr.write(`${programOf(io)} ${command}: ${error.message}\n`);
      return EXIT.usage;
    }
    const store = storeFailure(error);
    if (store === null) throw error;
    io.stderr.write(`${programOf(io)} ${command}: ${terminalText(store.message)}\n`);
    return store.retryable ? EXIT.failures : EXIT.usage;
  }
}

/** Each court's freshness for /metrics (docs/freshness.md). */
function courtGauges(db: Db, clock: Clock): CourtFreshnessGauge[] {
  const now = dateNow(clock);
  const inputs = freshnessInputs(db, saoPauloDay(now.toISOString()));
  const late = lateDataJudNotes(inputs.unmatched, inputs.lags, now.toISOString());
  return courtFreshness(inputs, now.getTime()).map((c) => ({
    court: c.court,
    newestUpdateDaysAgo: c.newestUpdateDaysAgo,
    lagP50: c.lag.p50,
    lagP90: c.lag.p90,
    lagActs: c.lag.samples,
    djenLagP50: c.djenLag.p50,
    dataJudLate: late.filter((n) => n.court === c.court).length,
    silent: c.silentSince !== null,
  }));
}
