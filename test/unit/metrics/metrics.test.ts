import { describe, expect, it } from "vitest";
import { MonitorMetrics } from "../../../src/metrics/metrics.js";
import { sample } from "../../support/prometheus-text.js";

const P = "datajud_monitor_";

function metrics(): MonitorMetrics {
  return new MonitorMetrics({ processMetrics: false });
}

function court(name: string, newestUpdateDaysAgo: number) {
  return {
    court: name,
    newestUpdateDaysAgo,
    lagP50: null,
    lagP90: null,
    lagActs: 0,
    djenLagP50: null,
    dataJudLate: 0,
    silent: false,
  };
}

/** GET /metrics through the route, as a scrape reaches it. */
async function scrape(m: MonitorMetrics): Promise<string> {
  let body = "";
  const res = {
    writeHead: () => res,
    end: (text: string) => {
      body = text;
    },
  };
  await m.route().handle({} as never, res as never);
  return body;
}

describe("MonitorMetrics", () => {
  it("counts DataJud attempts by index and status, their latency, retries by cause and limiter waits", async () => {
    const m = metrics();

    m.dataJudEvent({ type: "send", index: "api_publica_tjsp", attempt: 1, inFlight: 1 });
    m.dataJudEvent({
      type: "request",
      index: "api_publica_tjsp",
      attempt: 1,
      status: 503,
      durationMs: 400,
    });
    m.dataJudEvent({
      type: "retry",
      index: "api_publica_tjsp",
      attempt: 1,
      delayMs: 1000,
      error: { kind: "server", message: "HTTP 503" },
    });
    m.dataJudEvent({
      type: "request",
      index: "api_publica_tjsp",
      attempt: 2,
      status: 200,
      durationMs: 1500,
    });
    m.dataJudEvent({
      type: "unanswered",
      index: "api_publica_trf1",
      attempt: 1,
      kind: "timeout",
      durationMs: 75_000,
    });
    m.dataJudEvent({ type: "wait", index: "api_publica_tjsp", for: "limiter", waitedMs: 2_000 });
    m.dataJudEvent({ type: "concurrency", from: 8, to: 4, cause: "rate_limited" });
    const text = await m.registry.metrics();

    expect(
      sample(text, `${P}datajud_requests_total`, { index: "api_publica_tjsp", status: "503" }),
    ).toBe(1);
    expect(
      sample(text, `${P}datajud_requests_total`, { index: "api_publica_tjsp", status: "200" }),
    ).toBe(1);
    expect(
      sample(text, `${P}datajud_requests_total`, { index: "api_publica_trf1", status: "timeout" }),
    ).toBe(1);
    expect(
      sample(text, `${P}datajud_request_duration_seconds_count`, { index: "api_publica_tjsp" }),
    ).toBe(2);
    expect(
      sample(text, `${P}datajud_request_duration_seconds_sum`, { index: "api_publica_tjsp" }),
    ).toBe(1.9);
    expect(
      sample(text, `${P}datajud_request_duration_seconds_bucket`, {
        index: "api_publica_tjsp",
        le: "0.5",
      }),
    ).toBe(1);
    expect(
      sample(text, `${P}datajud_retries_total`, { index: "api_publica_tjsp", cause: "server" }),
    ).toBe(1);
    expect(sample(text, `${P}datajud_wait_seconds_sum`, { for: "limiter" })).toBe(2);
    expect(sample(text, `${P}datajud_concurrency`)).toBe(4);
  });

  it("counts DJEN attempts, sweeps by trigger and result, model calls and tokens, and mails", async () => {
    const m = metrics();

    m.djenEvent({ type: "request", attempt: 1, status: 429, durationMs: 100 });
    m.djenEvent({
      type: "retry",
      attempt: 1,
      delayMs: 5000,
      error: { kind: "rate_limited", message: "HTTP 429" },
    });
    m.djenEvent({ type: "unanswered", attempt: 2, kind: "network", durationMs: 20 });
    m.sweepEnded("schedule", "ok", 42_000);
    m.sweepEnded("schedule", "failed", 3_000);
    m.sweepEnded("manual", "ok", 1_000);
    m.modelCall({
      inputTokens: 1200,
      outputTokens: 300,
      cacheReadTokens: 800,
      cacheWriteTokens: 0,
    });
    m.modelCall({ inputTokens: 100, outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 10 });
    m.mailsDelivered({ sent: 3, failed: 1, dead: 0 });
    m.mailsDelivered({ sent: 1, failed: 0, dead: 1 });
    const text = await m.registry.metrics();

    expect(sample(text, `${P}djen_requests_total`, { status: "429" })).toBe(1);
    expect(sample(text, `${P}djen_requests_total`, { status: "network" })).toBe(1);
    expect(sample(text, `${P}djen_retries_total`, { cause: "rate_limited" })).toBe(1);
    expect(sample(text, `${P}djen_request_duration_seconds_count`)).toBe(2);
    expect(sample(text, `${P}sweeps_total`, { trigger: "schedule", result: "ok" })).toBe(1);
    expect(sample(text, `${P}sweeps_total`, { trigger: "schedule", result: "failed" })).toBe(1);
    expect(sample(text, `${P}sweeps_total`, { trigger: "manual", result: "ok" })).toBe(1);
    expect(sample(text, `${P}sweep_duration_seconds_sum`, { trigger: "schedule" })).toBe(45);
    expect(sample(text, `${P}model_calls_total`)).toBe(2);
    expect(sample(text, `${P}model_tokens_total`, { type: "input" })).toBe(1300);
    expect(sample(text, `${P}model_tokens_total`, { type: "output" })).toBe(350);
    expect(sample(text, `${P}model_tokens_total`, { type: "cache_read" })).toBe(800);
    expect(sample(text, `${P}model_tokens_total`, { type: "cache_write" })).toBe(10);
    expect(sample(text, `${P}mails_total`, { result: "sent" })).toBe(4);
    expect(sample(text, `${P}mails_total`, { result: "failed" })).toBe(1);
    expect(sample(text, `${P}mails_total`, { result: "dead" })).toBe(1);
  });

  it("counts deliveries per endpoint, the model's breaker openings (0 before the first) and reads the radar's hits", async () => {
    const m = metrics();
    let failing = false;
    m.readStoredFrom({
      casesByOutcome: () => ({}),
      outboxByState: () => ({}),
      partyHits: () => {
        if (failing) throw new Error("database closed");
        return [{ confidence: "provavel", disposition: "alert", n: 2 }];
      },
    });

    const before = await m.registry.metrics();
    m.endpointsDelivered({
      byEndpoint: [{ channel: "slack", name: "equipe", sent: 2, failed: 1, dead: 0 }],
    });
    m.modelBreakerOpened("timeout");
    const after = await m.registry.metrics();
    failing = true;
    const failed = await m.registry.metrics();

    expect(sample(before, `${P}model_breaker_opened_total`, { cause: "api_error" })).toBe(0);
    expect(sample(after, `${P}model_breaker_opened_total`, { cause: "timeout" })).toBe(1);
    const slack = { channel: "slack", endpoint: "equipe" };
    expect(sample(after, `${P}endpoint_deliveries_total`, { ...slack, result: "sent" })).toBe(2);
    expect(sample(after, `${P}endpoint_deliveries_total`, { ...slack, result: "failed" })).toBe(1);
    const hits = { confidence: "provavel", disposition: "alert" };
    expect(sample(after, `${P}party_hits`, hits)).toBe(2);
    expect(sample(failed, `${P}party_hits`, hits)).toBeUndefined();
  });

  it("lists its metrics in a fixed order, the counters fed as things happen before what is read at a scrape", async () => {
    const text = await metrics().registry.metrics();

    const names = [...text.matchAll(/^# HELP datajud_monitor_(\w+)/gm)].map((m) => m[1]);

    expect(names).toEqual([
      "sweeps_total",
      "sweep_duration_seconds",
      "datajud_requests_total",
      "datajud_request_duration_seconds",
      "datajud_retries_total",
      "datajud_wait_seconds",
      "datajud_concurrency",
      "djen_requests_total",
      "djen_request_duration_seconds",
      "djen_retries_total",
      "model_calls_total",
      "model_tokens_total",
      "model_breaker_opened_total",
      "mails_total",
      "endpoint_deliveries_total",
      "cases",
      "outbox_rows",
      "endpoint_alerts",
      "endpoint_disabled",
      "party_hits",
      "datajud_newest_update_age_days",
      "datajud_lag_days",
      "datajud_lag_acts",
      "djen_lag_days",
      "datajud_late_publications",
      "datajud_court_silent",
    ]);
  });

  it("reads cases and outbox rows from the store at each scrape, and shows none when the read fails", async () => {
    const m = metrics();
    let cases: Record<string, number> = { baseline: 2, unchanged: 5 };
    let failing = false;
    m.readStoredFrom({
      casesByOutcome: () => {
        if (failing) throw new Error("database closed");
        return cases;
      },
      outboxByState: () => ({ pending: 1, sent: 9, dead: 0 }),
    });

    const first = await m.registry.metrics();
    cases = { unchanged: 6, failed: 1 };
    const second = await m.registry.metrics();
    failing = true;
    const third = await m.registry.metrics();

    expect(sample(first, `${P}cases`, { outcome: "baseline" })).toBe(2);
    expect(sample(second, `${P}cases`, { outcome: "baseline" })).toBeUndefined();
    expect(sample(second, `${P}cases`, { outcome: "unchanged" })).toBe(6);
    expect(sample(second, `${P}cases`, { outcome: "failed" })).toBe(1);
    expect(sample(second, `${P}outbox_rows`, { state: "sent" })).toBe(9);
    expect(sample(third, `${P}cases`, { outcome: "unchanged" })).toBeUndefined();
    expect(sample(third, `${P}outbox_rows`, { state: "pending" })).toBe(1);
  });

  it("reads each court's freshness at each scrape: update age, lag quantiles, DJEN lag, silence", async () => {
    const m = metrics();
    m.readStoredFrom({
      casesByOutcome: () => ({}),
      outboxByState: () => ({}),
      courts: () => [
        {
          court: "tjdft",
          newestUpdateDaysAgo: 2,
          lagP50: 3,
          lagP90: 8,
          lagActs: 5,
          djenLagP50: 1,
          dataJudLate: 1,
          silent: false,
        },
        {
          court: "tjsp",
          newestUpdateDaysAgo: 51,
          lagP50: null,
          lagP90: null,
          lagActs: 0,
          djenLagP50: null,
          dataJudLate: 0,
          silent: true,
        },
      ],
    });

    const text = await m.registry.metrics();

    expect(sample(text, `${P}datajud_newest_update_age_days`, { court: "tjdft" })).toBe(2);
    expect(sample(text, `${P}datajud_lag_days`, { court: "tjdft", quantile: "0.5" })).toBe(3);
    expect(sample(text, `${P}datajud_lag_days`, { court: "tjdft", quantile: "0.9" })).toBe(8);
    expect(
      sample(text, `${P}datajud_lag_days`, { court: "tjsp", quantile: "0.5" }),
    ).toBeUndefined();
    expect(sample(text, `${P}datajud_lag_acts`, { court: "tjsp" })).toBe(0);
    expect(sample(text, `${P}djen_lag_days`, { court: "tjdft" })).toBe(1);
    expect(sample(text, `${P}datajud_late_publications`, { court: "tjdft" })).toBe(1);
    expect(sample(text, `${P}datajud_court_silent`, { court: "tjsp" })).toBe(1);
    expect(sample(text, `${P}datajud_court_silent`, { court: "tjdft" })).toBe(0);
  });

  it("reads each court's freshness and the endpoints once a scrape of /metrics, not once a gauge", async () => {
    const m = metrics();
    const reads = { courts: 0, endpoints: 0 };
    m.readStoredFrom({
      casesByOutcome: () => ({}),
      outboxByState: () => ({}),
      endpoints: () => {
        reads.endpoints += 1;
        return [{ channel: "slack", name: "equipe", alerts: { sent: 2 }, disabled: false }];
      },
      courts: () => {
        reads.courts += 1;
        return [court("tjdft", 2)];
      },
    });

    const text = await scrape(m);

    expect(reads).toEqual({ courts: 1, endpoints: 1 });
    expect(sample(text, `${P}datajud_newest_update_age_days`, { court: "tjdft" })).toBe(2);
    expect(sample(text, `${P}datajud_court_silent`, { court: "tjdft" })).toBe(0);
    expect(sample(text, `${P}endpoint_disabled`, { channel: "slack", endpoint: "equipe" })).toBe(0);
  });

  it("keeps the courts' freshness for a minute on the clock given, and reads it again after a sweep", async () => {
    let now = Date.UTC(2025, 9, 6, 13);
    const m = new MonitorMetrics({ processMetrics: false, now: () => now });
    let age = 2;
    let reads = 0;
    m.readStoredFrom({
      casesByOutcome: () => ({}),
      outboxByState: () => ({}),
      courts: () => {
        reads += 1;
        return [court("tjdft", age)];
      },
    });
    const ageNow = async (): Promise<number | undefined> =>
      sample(await scrape(m), `${P}datajud_newest_update_age_days`, { court: "tjdft" });

    expect(await ageNow()).toBe(2);
    age = 3;
    now += 59_000;
    expect(await ageNow()).toBe(2);
    m.sweepEnded("schedule", "ok", 1000);
    expect(await ageNow()).toBe(3);
    age = 4;
    now += 60_000;
    expect(await ageNow()).toBe(4);
    expect(reads).toBe(3);
  });

  it("keeps each instance's counts in its own registry, process metrics included", async () => {
    const a = new MonitorMetrics();
    const b = new MonitorMetrics();

    a.sweepEnded("schedule", "ok", 1000);
    const [textA, textB] = await Promise.all([a.registry.metrics(), b.registry.metrics()]);

    expect(sample(textA, `${P}sweeps_total`, { trigger: "schedule", result: "ok" })).toBe(1);
    expect(
      sample(textB, `${P}sweeps_total`, { trigger: "schedule", result: "ok" }),
    ).toBeUndefined();
    expect(sample(textB, "process_cpu_user_seconds_total")).toBeGreaterThanOrEqual(0);
    expect(textB).toContain("nodejs_eventloop_lag_seconds");
  });
});
