import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { DataJudClientEvent } from "../datajud/http-client.js";
import type { DjenClientEvent } from "../djen/http-client.js";
import type { Route } from "../http/server.js";
import type { BreakerCause } from "../summarize/summarizer.js";
import type { TokenUsage } from "../summarize/token-budget.js";

/*
 * What the daemon counts for Prometheus (`/metrics`). Counters are fed as things happen (the
 * DataJud and DJEN clients' events, finished sweeps, model calls, mail sends); what the database
 * holds (cases by their last outcome, outbox rows by state) is read at each scrape, so a restart
 * loses none of it. Each instance has its own Registry: nothing is shared through prom-client's
 * global one, so two monitors in one process (tests) never collide.
 */

/** What `/metrics` reads from the database at each scrape. */
export interface StoredCounts {
  /** Watched cases by the outcome of their last check ("unchecked" before the first). */
  casesByOutcome(): Record<string, number>;
  /** Outbox rows by state (pending, sent, dead). */
  outboxByState(): Record<string, number>;
  /**
   * Each webhook and chat endpoint by channel and configured name (never its URL): its alerts by
   * state (pending, retrying, sent, dead) and whether a 410 disabled it. Absent: not exported.
   */
  endpoints?(): Array<{
    channel: string;
    name: string;
    alerts: Record<string, number>;
    disabled: boolean;
  }>;
  /**
   * Each court of the watched cases (docs/freshness.md): days since DataJud's newest update, its
   * lag behind DJEN (median, p90, acts measured), DJEN's own lag, the DJEN intimações DataJud does
   * not record yet past the lag, and whether the court is silent. Absent: not exported.
   */
  courts?(): CourtFreshnessGauge[];
  /**
   * The party radar's hits by confidence and what was done with them, over every party (no party
   * label: a client's name is not a metric). Absent: not exported.
   */
  partyHits?(): Array<{ confidence: string; disposition: string; n: number }>;
}

export interface CourtFreshnessGauge {
  court: string;
  newestUpdateDaysAgo: number | null;
  lagP50: number | null;
  lagP90: number | null;
  lagActs: number;
  djenLagP50: number | null;
  dataJudLate: number;
  silent: boolean;
}

export const METRIC_PREFIX = "datajud_monitor_";

/** DataJud answers in 0.1 s to a minute and more; past 120 s an attempt is cut by its timeout. */
const DATAJUD_SECONDS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120];
const DJEN_SECONDS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SWEEP_SECONDS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600];
const WAIT_SECONDS = [0.01, 0.1, 0.5, 1, 5, 15, 30, 60];

/** Sets a gauge to what `counts` reads now; a read that fails (the database closing) shows none. */
function setAll(gauge: Gauge<string>, label: string, counts: () => Record<string, number>): void {
  gauge.reset();
  let read: Record<string, number>;
  try {
    read = counts();
  } catch {
    return;
  }
  for (const [value, n] of Object.entries(read)) gauge.set({ [label]: value }, n);
}

export interface MonitorMetricsOptions {
  /**
   * Node's process metrics (`process_*`, `nodejs_*`: CPU, memory, event-loop lag, GC), under
   * their usual names. @default true
   */
  processMetrics?: boolean;
  /**
   * The process's clock (epoch ms). Given, each court's freshness (a read over every watched
   * instance, tens of ms at 5,000 cases) is kept for `courtsMaxAgeMs` between scrapes and read
   * again after each sweep; absent, it is read at every scrape.
   */
  now?: () => number;
  /** @default 60_000 */
  courtsMaxAgeMs?: number;
}

/** How long each court's freshness is kept between scrapes: its figures are in days. */
const COURTS_MAX_AGE_MS = 60_000;

/** The metrics a finished sweep feeds. */
function sweepMetrics(registers: Registry[]) {
  return {
    ended: new Counter({
      name: `${METRIC_PREFIX}sweeps_total`,
      help: "Sweeps ended, by trigger (schedule) and result (ok, partial, failed, interrupted, error).",
      labelNames: ["trigger", "result"],
      registers,
    }),
    seconds: new Histogram({
      name: `${METRIC_PREFIX}sweep_duration_seconds`,
      help: "Wall time of a sweep, from taking the lease to its end.",
      labelNames: ["trigger"],
      buckets: SWEEP_SECONDS,
      registers,
    }),
  };
}

/** The metrics the DataJud client's events feed. */
function dataJudMetrics(registers: Registry[]) {
  return {
    requests: new Counter({
      name: `${METRIC_PREFIX}datajud_requests_total`,
      help: "DataJud HTTP attempts by index and status: the HTTP status, or timeout, network or cancelled when none came.",
      labelNames: ["index", "status"],
      registers,
    }),
    seconds: new Histogram({
      name: `${METRIC_PREFIX}datajud_request_duration_seconds`,
      help: "Time from sending a DataJud attempt to its whole answer (or to giving up on it).",
      labelNames: ["index"],
      buckets: DATAJUD_SECONDS,
      registers,
    }),
    retries: new Counter({
      name: `${METRIC_PREFIX}datajud_retries_total`,
      help: "DataJud attempts retried, by index and the error kind that caused the retry.",
      labelNames: ["index", "cause"],
      registers,
    }),
    waits: new Histogram({
      name: `${METRIC_PREFIX}datajud_wait_seconds`,
      help: "Waits before a DataJud attempt could go: for the rate limiter (limiter) or a place in flight (concurrency).",
      labelNames: ["for"],
      buckets: WAIT_SECONDS,
      registers,
    }),
    concurrency: new Gauge({
      name: `${METRIC_PREFIX}datajud_concurrency`,
      help: "DataJud requests allowed in flight at once now (halved on overload, grown back when quiet).",
      registers,
    }),
  };
}

/** The metrics the DJEN client's events feed. */
function djenMetrics(registers: Registry[]) {
  return {
    requests: new Counter({
      name: `${METRIC_PREFIX}djen_requests_total`,
      help: "DJEN HTTP attempts by status: the HTTP status, or timeout or network when none came.",
      labelNames: ["status"],
      registers,
    }),
    seconds: new Histogram({
      name: `${METRIC_PREFIX}djen_request_duration_seconds`,
      help: "Time from sending a DJEN attempt to its whole answer (or to giving up on it).",
      buckets: DJEN_SECONDS,
      registers,
    }),
    retries: new Counter({
      name: `${METRIC_PREFIX}djen_retries_total`,
      help: "DJEN attempts retried, by the error kind that caused the retry.",
      labelNames: ["cause"],
      registers,
    }),
  };
}

/** The metrics the summarizer's model calls feed. */
function modelMetrics(registers: Registry[]) {
  const calls = new Counter({
    name: `${METRIC_PREFIX}model_calls_total`,
    help: "Answered calls to the summarizing model (Claude).",
    registers,
  });
  const tokens = new Counter({
    name: `${METRIC_PREFIX}model_tokens_total`,
    help: "Tokens of the model's calls, by type (input, output, cache_read, cache_write).",
    labelNames: ["type"],
    registers,
  });
  const breakerOpened = new Counter({
    name: `${METRIC_PREFIX}model_breaker_opened_total`,
    help: "Sweeps whose summarizer stopped asking the model after a call went unanswered (timeout) or failed (api_error); the rest of each went to the rules.",
    labelNames: ["cause"],
    registers,
  });
  // Shown at 0 before the first opening, so an alert rule sees the series.
  for (const cause of ["timeout", "api_error"] satisfies BreakerCause[]) {
    breakerOpened.inc({ cause }, 0);
  }
  return { calls, tokens, breakerOpened };
}

/** The metrics each drain of the outbox feeds. */
function deliveryMetrics(registers: Registry[]) {
  return {
    mails: new Counter({
      name: `${METRIC_PREFIX}mails_total`,
      help: "E-mails handed to the transport, by result: sent, failed (retried later), dead (given up).",
      labelNames: ["result"],
      registers,
    }),
    endpoints: new Counter({
      name: `${METRIC_PREFIX}endpoint_deliveries_total`,
      help: "Alerts to webhook and chat endpoints, by channel, endpoint (its configured name) and result: sent (2xx), failed (retried later), dead (given up after its attempts, or the endpoint is disabled by a 410).",
      labelNames: ["channel", "endpoint", "result"],
      registers,
    }),
  };
}

/** What the database counts by one label, read at each scrape: cases by outcome, outbox rows by state. */
const STORED_COUNTS = [
  {
    name: "cases",
    help: "Watched cases by the outcome of their last check (unchecked: none yet).",
    label: "outcome",
    read: (from: StoredCounts) => from.casesByOutcome(),
  },
  {
    name: "outbox_rows",
    help: "Outbox rows by state: pending (queued or waiting for a retry), sent, dead (given up).",
    label: "state",
    read: (from: StoredCounts) => from.outboxByState(),
  },
];

function storedCountGauges(registers: Registry[], stored: () => StoredCounts | null): void {
  for (const { name, help, label, read } of STORED_COUNTS) {
    new Gauge({
      name: `${METRIC_PREFIX}${name}`,
      help,
      labelNames: [label],
      registers,
      collect() {
        const from = stored();
        if (from !== null) setAll(this, label, () => read(from));
      },
    });
  }
}

/** The party radar's hits by confidence and disposition, read at each scrape. */
function partyHitsGauge(registers: Registry[], stored: () => StoredCounts | null): void {
  new Gauge({
    name: `${METRIC_PREFIX}party_hits`,
    help: "The party radar's hits (DJEN items naming a watched party in a case outside the watchlist) by confidence (confirmado, provavel, homonimo) and disposition: alert (a new lawsuit told), baseline (found at the first look), later (a later item of a case told), publication (a later item mailed), watched, unwatched, unreported (not decided yet).",
    labelNames: ["confidence", "disposition"],
    registers,
    collect() {
      const read = stored()?.partyHits;
      if (read === undefined) return;
      this.reset();
      let rows: Array<{ confidence: string; disposition: string; n: number }>;
      try {
        rows = read();
      } catch {
        return;
      }
      for (const r of rows) this.set({ confidence: r.confidence, disposition: r.disposition }, r.n);
    },
  });
}

export class MonitorMetrics {
  readonly registry = new Registry();
  #stored: StoredCounts | null = null;
  /** What this scrape read of the database so far, by reading; null outside a scrape. */
  #scrape: Map<string, unknown> | null = null;
  readonly #now: (() => number) | undefined;
  readonly #courtsMaxAgeMs: number;
  #courts: { at: number; value: CourtFreshnessGauge[] } | null = null;
  readonly #sweeps: ReturnType<typeof sweepMetrics>;
  readonly #datajud: ReturnType<typeof dataJudMetrics>;
  readonly #djen: ReturnType<typeof djenMetrics>;
  readonly #model: ReturnType<typeof modelMetrics>;
  readonly #deliveries: ReturnType<typeof deliveryMetrics>;

  constructor(options: MonitorMetricsOptions = {}) {
    const registers = [this.registry];
    const p = METRIC_PREFIX;
    this.#now = options.now;
    this.#courtsMaxAgeMs = options.courtsMaxAgeMs ?? COURTS_MAX_AGE_MS;
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
    // In this order: /metrics lists the metrics as they were registered.
    this.#sweeps = sweepMetrics(registers);
    this.#datajud = dataJudMetrics(registers);
    this.#djen = djenMetrics(registers);
    this.#model = modelMetrics(registers);
    this.#deliveries = deliveryMetrics(registers);
    const stored = (): StoredCounts | null => this.#stored;
    storedCountGauges(registers, stored);
    this.#endpointGauges(p, registers, stored);
    partyHitsGauge(registers, stored);
    this.#freshnessGauges(p, registers, stored);
  }

  /** Each court's freshness (docs/freshness.md): read once a scrape, or kept (#keptCourts). */
  #freshnessGauges(p: string, registers: Registry[], stored: () => StoredCounts | null): void {
    // Six gauges show each court: the freshness is read once for all of them, not once each.
    const read = (): CourtFreshnessGauge[] => {
      const from = stored();
      if (from?.courts === undefined) return [];
      const courts = from.courts;
      try {
        return this.#oncePerScrape("courts", () => this.#keptCourts(courts));
      } catch {
        return [];
      }
    };
    const perCourt = (
      name: string,
      help: string,
      value: (c: CourtFreshnessGauge) => number | null,
    ): void => {
      new Gauge({
        name: `${p}${name}`,
        help,
        labelNames: ["court"],
        registers,
        collect() {
          this.reset();
          for (const c of read()) {
            const v = value(c);
            if (v !== null) this.set({ court: c.court }, v);
          }
        },
      });
    };
    perCourt(
      "datajud_newest_update_age_days",
      "Days since the newest DataJud update (dataHoraUltimaAtualizacao) among the court's watched cases, on the court's calendar.",
      (c) => c.newestUpdateDaysAgo,
    );
    new Gauge({
      name: `${p}datajud_lag_days`,
      help: "Days from a DJEN disponibilização to the sweep that first saw DataJud record it, over the firm's acts: quantile 0.5 (usual) and 0.9. Absent until an act is measured.",
      labelNames: ["court", "quantile"],
      registers,
      collect() {
        this.reset();
        for (const c of read()) {
          if (c.lagP50 !== null) this.set({ court: c.court, quantile: "0.5" }, c.lagP50);
          if (c.lagP90 !== null) this.set({ court: c.court, quantile: "0.9" }, c.lagP90);
        }
      },
    });
    perCourt(
      "datajud_lag_acts",
      "DJEN acts whose DataJud lag was measured for the court.",
      (c) => c.lagActs,
    );
    perCourt(
      "djen_lag_days",
      "DJEN's own lag for the court's watched publications, median days from dataenvio to data_disponibilizacao.",
      (c) => c.djenLagP50,
    );
    perCourt(
      "datajud_late_publications",
      "DJEN intimações of the court's watched cases DataJud does not record yet, past the court's usual lag.",
      (c) => c.dataJudLate,
    );
    perCourt(
      "datajud_court_silent",
      "1 while DataJud has not moved any of the court's watched cases for much longer than its lag while DJEN publishes them (mail.admin was told), else 0.",
      (c) => (c.silent ? 1 : 0),
    );
  }

  /** Each endpoint's stored alerts and state, read at each scrape. */
  #endpointGauges(p: string, registers: Registry[], stored: () => StoredCounts | null): void {
    const read = () => {
      const from = stored();
      if (from?.endpoints === undefined) return null;
      const endpoints = from.endpoints;
      try {
        return this.#oncePerScrape("endpoints", () => endpoints());
      } catch {
        return null;
      }
    };
    new Gauge({
      name: `${p}endpoint_alerts`,
      help: "Alerts stored for each webhook and chat endpoint, by state: pending (retrying included), retrying (failed at least once), sent, dead (given up).",
      labelNames: ["channel", "endpoint", "state"],
      registers,
      collect() {
        this.reset();
        for (const e of read() ?? []) {
          for (const [state, n] of Object.entries(e.alerts)) {
            this.set({ channel: e.channel, endpoint: e.name, state }, n);
          }
        }
      },
    });
    new Gauge({
      name: `${p}endpoint_disabled`,
      help: "1 when the endpoint answered 410 Gone and is disabled until `datajud-monitor endpoint enable NAME`, else 0.",
      labelNames: ["channel", "endpoint"],
      registers,
      collect() {
        this.reset();
        for (const e of read() ?? []) {
          this.set({ channel: e.channel, endpoint: e.name }, e.disabled ? 1 : 0);
        }
      },
    });
  }

  /** Where the cases and outbox gauges are read from at each scrape (the monitor's database). */
  readStoredFrom(stored: StoredCounts): void {
    this.#stored = stored;
    this.#courts = null;
  }

  /** `read` once in a scrape of `/metrics`, however many gauges show it; at every call outside one. */
  #oncePerScrape<T>(key: string, read: () => T): T {
    const scrape = this.#scrape;
    if (scrape === null) return read();
    if (scrape.has(key)) return scrape.get(key) as T;
    const value = read();
    scrape.set(key, value);
    return value;
  }

  /** Each court's freshness, kept for courtsMaxAgeMs when the clock was given. */
  #keptCourts(read: () => CourtFreshnessGauge[]): CourtFreshnessGauge[] {
    const now = this.#now?.();
    if (now === undefined) return read();
    const kept = this.#courts;
    if (kept !== null && now - kept.at < this.#courtsMaxAgeMs && now >= kept.at) return kept.value;
    const value = read();
    this.#courts = { at: now, value };
    return value;
  }

  /** Counts what the DataJud client tells (its `onEvent`). */
  dataJudEvent(event: DataJudClientEvent): void {
    switch (event.type) {
      case "request":
        this.#datajud.requests.inc({ index: event.index, status: String(event.status) });
        this.#datajud.seconds.observe({ index: event.index }, event.durationMs / 1000);
        return;
      case "unanswered":
        this.#datajud.requests.inc({ index: event.index, status: event.kind });
        this.#datajud.seconds.observe({ index: event.index }, event.durationMs / 1000);
        return;
      case "retry":
        this.#datajud.retries.inc({ index: event.index, cause: event.error.kind });
        return;
      case "wait":
        this.#datajud.waits.observe({ for: event.for }, event.waitedMs / 1000);
        return;
      case "concurrency":
        this.#datajud.concurrency.set(event.to);
        return;
      default:
        return;
    }
  }

  /** Counts what the DJEN client tells (its `onEvent`). */
  djenEvent(event: DjenClientEvent): void {
    switch (event.type) {
      case "request":
        this.#djen.requests.inc({ status: String(event.status) });
        this.#djen.seconds.observe(event.durationMs / 1000);
        return;
      case "unanswered":
        this.#djen.requests.inc({ status: event.kind });
        this.#djen.seconds.observe(event.durationMs / 1000);
        return;
      case "retry":
        this.#djen.retries.inc({ cause: event.error.kind });
        return;
      default:
        return;
    }
  }

  /** A sweep ended (`SweepDeps.finished`); `result` as `sweepResult` tells it. */
  sweepEnded(trigger: string, result: string, durationMs: number): void {
    // What the sweep recorded shows at the next scrape.
    this.#courts = null;
    this.#sweeps.ended.inc({ trigger, result });
    this.#sweeps.seconds.observe({ trigger }, durationMs / 1000);
  }

  /** One answered model call and the tokens it used (the token budget's `spend`). */
  modelCall(usage: TokenUsage): void {
    this.#model.calls.inc();
    this.#model.tokens.inc({ type: "input" }, usage.inputTokens);
    this.#model.tokens.inc({ type: "output" }, usage.outputTokens);
    this.#model.tokens.inc({ type: "cache_read" }, usage.cacheReadTokens);
    this.#model.tokens.inc({ type: "cache_write" }, usage.cacheWriteTokens);
  }

  /** A sweep's summarizer stopped asking the model (its breaker opened), and why. */
  modelBreakerOpened(cause: BreakerCause): void {
    this.#model.breakerOpened.inc({ cause });
  }

  /** What one drain of the outbox came to. */
  mailsDelivered(result: { sent: number; failed: number; dead: number }): void {
    this.#deliveries.mails.inc({ result: "sent" }, result.sent);
    this.#deliveries.mails.inc({ result: "failed" }, result.failed);
    this.#deliveries.mails.inc({ result: "dead" }, result.dead);
  }

  /** What one drain of the webhook and chat rows came to, per endpoint. */
  endpointsDelivered(result: {
    byEndpoint: ReadonlyArray<{
      channel: string;
      name: string;
      sent: number;
      failed: number;
      dead: number;
    }>;
  }): void {
    for (const e of result.byEndpoint) {
      const labels = { channel: e.channel, endpoint: e.name };
      this.#deliveries.endpoints.inc({ ...labels, result: "sent" }, e.sent);
      this.#deliveries.endpoints.inc({ ...labels, result: "failed" }, e.failed);
      this.#deliveries.endpoints.inc({ ...labels, result: "dead" }, e.dead);
    }
  }

  /** `/metrics` in Prometheus' text format; asks for the bearer token when one is set. */
  route(): Route {
    return {
      path: "/metrics",
      auth: "bearer-if-set",
      handle: async (_req, res) => {
        this.#scrape = new Map();
        let body: string;
        try {
          body = await this.registry.metrics();
        } finally {
          this.#scrape = null;
        }
        res.writeHead(200, {
          "content-type": this.registry.contentType,
          "cache-control": "no-store",
        });
        res.end(body);
      },
    };
  }
}
