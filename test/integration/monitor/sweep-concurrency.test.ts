import { afterEach, describe, expect, it } from "vitest";
import { DataJudError } from "../../../src/datajud/errors.js";
import { runSweep, type SweepEvent } from "../../../src/monitor/sweep.js";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import { FIVE_COURTS, generatedCases } from "../../support/generated-cases.js";
import {
  type SweepHarness,
  type SweepHarnessOptions,
  startSweepHarness,
} from "../../support/sweep-harness.js";
import { waitFor } from "../../support/wait-for.js";

/** 8 cases in each of 5 courts; with 4 numbers per request, two fingerprint requests a court. */
const COURTS = FIVE_COURTS;
const PER_COURT = 8;
const BATCH = 4;
const { watchlist, documents } = generatedCases(COURTS.length * PER_COURT, 5_100_000);

let fake: FakeDataJud;
let harness: SweepHarness;

async function start(options: SweepHarnessOptions = {}): Promise<void> {
  fake = await startFakeDataJud({ apiKey: "concurrency-key" });
  for (const [alias, docs] of documents) fake.setDocuments(alias, structuredClone(docs));
  harness = await startSweepHarness(fake, {
    tempPrefix: "monitor-concurrency-",
    batchSize: BATCH,
    ...options,
  });
}

afterEach(async () => {
  fake.release();
  await harness.close();
  await fake.close();
});

function sweep(events: SweepEvent[] = [], signal?: AbortSignal): ReturnType<typeof runSweep> {
  return runSweep(
    { ...harness.deps, onEvent: (event) => events.push(event) },
    {
      watchlist,
      force: false,
      dryRun: false,
      trigger: "manual",
      ...(signal === undefined ? {} : { signal }),
    },
  );
}

/** The most batches (of `step`, or of any step) asked and not yet answered at any moment. */
function mostAtOnce(events: readonly SweepEvent[], step?: "fingerprint" | "read"): number {
  let open = 0;
  let most = 0;
  for (const e of events) {
    if ((e.type !== "batch-start" && e.type !== "batch-end") || (step && e.step !== step)) continue;
    open += e.type === "batch-start" ? 1 : -1;
    most = Math.max(most, open);
  }
  return most;
}

function checksOf(court: string): number {
  const row = harness.db
    .prepare(
      "SELECT COUNT(*) AS n FROM checks JOIN cases ON cases.id = checks.case_id WHERE cases.court = ?",
    )
    .get(court) as { n: number };
  return row.n;
}

describe("a sweep's DataJud requests overlap", () => {
  it("sends an unchanged sweep's fingerprint requests several at once, at most `concurrency`", async () => {
    await start({ concurrency: 6 });
    await sweep();
    fake.maxInFlight = 0;
    fake.hold();
    const events: SweepEvent[] = [];

    const running = sweep(events);
    await waitFor(() => fake.inFlight === 6, "6 requests in flight");
    fake.release();
    const unchanged = await running;

    expect(fake.maxInFlight).toBe(6);
    expect(unchanged.cases.map((c) => c.outcome)).toEqual(watchlist.map(() => "unchanged"));
    expect(unchanged.cases.map((c) => c.number)).toEqual(watchlist.map((c) => c.number));
    expect(unchanged.datajudRequests).toBe(COURTS.length * (PER_COURT / BATCH));
    expect(events[0]).toEqual({
      type: "planned",
      cases: 40,
      byIndex: Object.fromEntries(COURTS.map((c) => [c.alias, PER_COURT])),
      byCourt: Object.fromEntries(COURTS.map((c) => [c.alias, PER_COURT])),
    });
    const ends = events.filter((e) => e.type === "batch-end");
    expect(ends).toHaveLength(10);
    expect(ends.every((e) => e.step === "fingerprint" && e.error === null)).toBe(true);
    expect(ends.reduce((n, e) => n + (e.outcomes.unchanged ?? 0), 0)).toBe(40);
    const checked = events.filter((e) => e.type === "case-checked");
    expect(checked).toHaveLength(40);
    expect(
      checked.filter((e) => e.court === COURTS[0]?.alias && e.outcome === "unchanged"),
    ).toHaveLength(PER_COURT);
  });

  it("reads what moved in full batches of one court while other courts are still fingerprinted", async () => {
    await start({ concurrency: 4 });
    const events: SweepEvent[] = [];

    const baseline = await sweep(events);

    expect(baseline.cases.every((c) => c.outcome === "baseline")).toBe(true);
    // Per court: two fingerprint requests and two reads of 4, never a read per fingerprint.
    expect(baseline.datajudRequests).toBe(COURTS.length * 4);
    const order = events.flatMap((e) => (e.type === "batch-start" ? [e.step] : []));
    const lastFingerprint = order.lastIndexOf("fingerprint");
    expect(order.indexOf("read")).toBeLessThan(lastFingerprint);
    const reads = events.filter((e) => e.type === "batch-start" && e.step === "read");
    expect(reads.every((e) => e.type === "batch-start" && e.cases === BATCH)).toBe(true);
    // Memory: full records are held from a read's start until its answer is committed.
    expect(mostAtOnce(events, "read")).toBeLessThanOrEqual(4);
    expect(mostAtOnce(events)).toBeLessThanOrEqual(4);
  });
  it("sends the last fingerprints between the first reads, not after a whole wave of them", async () => {
    await start({ concurrency: 8 });
    const events: SweepEvent[] = [];

    await sweep(events);

    // 10 fingerprint batches, 8 places: as the first 8 answers come back, each with a full batch
    // to read, reads and the 2 fingerprints left take turns for the places they free.
    const order = events.flatMap((e) => (e.type === "batch-start" ? [e.step] : []));
    expect(order.slice(0, 8)).toEqual(Array(8).fill("fingerprint"));
    const tenthFingerprint = order.lastIndexOf("fingerprint");
    const reads = order.flatMap((step, i) => (step === "read" ? [i] : []));
    expect(reads).toHaveLength(10);
    expect(tenthFingerprint).toBeLessThan(reads[2] ?? -1);
  });
});

describe("stopping and failing while requests are in flight", () => {
  it("aborts every request in flight when the sweep is stopped, keeps what it committed, and says interrupted", async () => {
    await start({ concurrency: 8 });
    fake.hold();
    const controller = new AbortController();
    const running = sweep([], controller.signal);
    await waitFor(() => fake.inFlight === 8, "8 requests in flight");

    controller.abort(new Error("SIGTERM"));
    const report = await running;
    await waitFor(() => fake.inFlight === 0, "every request closed");

    expect(report.interrupted).toBe(true);
    expect(report.checked).toBe(0);
    expect(fake.requests).toHaveLength(8);
    expect(fake.abandoned).toBe(8);
    const run = harness.db.prepare("SELECT status FROM runs ORDER BY id DESC LIMIT 1").get() as {
      status: string;
    };
    expect(run.status).toBe("finished");
  });

  it("checks every other court while one court's requests wait, then fails only that court", async () => {
    await start({ concurrency: 4, maxAttempts: 1 });
    fake.failAlways({ status: 503, alias: "tjsp" });
    fake.hold("tjsp");
    const running = sweep();
    await waitFor(
      () => COURTS.every((c) => c.alias === "tjsp" || checksOf(c.alias) === PER_COURT),
      "the other courts checked",
    );
    const tjspInFlight = fake.inFlight;
    const tjspChecksMeanwhile = checksOf("tjsp");

    fake.release();
    const report = await running;

    expect(tjspInFlight).toBe(2);
    expect(tjspChecksMeanwhile).toBe(0);
    expect(report.interrupted).toBe(false);
    const outcomes = new Map<string, Set<string>>();
    for (const c of report.cases) {
      outcomes.set(c.court, (outcomes.get(c.court) ?? new Set()).add(c.outcome));
    }
    expect(Object.fromEntries([...outcomes].map(([k, v]) => [k, [...v]]))).toEqual({
      tjsp: ["failed"],
      tjrj: ["baseline"],
      trf3: ["baseline"],
      trt15: ["baseline"],
      tjba: ["baseline"],
    });
  });

  it("cancels the requests in flight and sends no more when DataJud cannot be reached", async () => {
    await start({ concurrency: 4 });
    fake.hold();
    let refuse = (): void => undefined;
    const refused = new Promise<void>((resolve) => {
      refuse = resolve;
    });
    let first = true;
    const gateway = harness.deps.gateway;
    const running = runSweep(
      {
        ...harness.deps,
        gateway: {
          ...gateway,
          async fingerprint(court, numbers, signal) {
            if (!first) return gateway.fingerprint(court, numbers, signal);
            first = false;
            await refused;
            throw new DataJudError(
              "network",
              `could not reach DataJud (https://datajud.example) for api_publica_${court}: ECONNREFUSED`,
            );
          },
        },
      },
      { watchlist, force: false, dryRun: false, trigger: "manual" },
    );
    await waitFor(() => fake.inFlight === 3, "3 requests in flight beside the refused one");

    refuse();
    const report = await running;
    await waitFor(() => fake.inFlight === 0, "every request closed");

    expect(fake.requests).toHaveLength(3);
    expect(fake.abandoned).toBe(3);
    expect(report.interrupted).toBe(false);
    expect(report.unreachable).toMatch(/^could not reach DataJud \(https:\/\/datajud\.example\)/);
    expect(report.failed).toBe(40);
    const errors = report.cases.map((c) => c.error ?? "");
    expect(errors.filter((e) => e.includes("ECONNREFUSED"))).toHaveLength(40);
    expect(
      errors.filter((e) => e.startsWith("not asked: DataJud could not be reached")),
    ).toHaveLength(40 - BATCH);
    const checks = harness.db
      .prepare("SELECT COUNT(*) AS n FROM checks WHERE outcome = 'failed'")
      .get() as { n: number };
    expect(checks.n).toBe(40);
  });
});
