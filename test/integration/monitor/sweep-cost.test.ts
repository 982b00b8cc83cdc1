import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportPhases } from "../../../src/monitor/report/phases.js";
import { NOTHING_MAILED } from "../../../src/monitor/run-report.js";
import { runSweep, type SweepDeps } from "../../../src/monitor/sweep.js";
import type { Db } from "../../../src/store/database.js";
import type { WatchedCase } from "../../../src/watchlist/parse-watchlist.js";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import { generatedCases, generatedSource } from "../../support/generated-cases.js";
import { type SweepHarness, startSweepHarness } from "../../support/sweep-harness.js";

/** 200 never-seen cases over 5 courts, 40 each. */
const { watchlist, documents } = generatedCases(200, 4_200_000);

let fake: FakeDataJud;
let harness: SweepHarness;
let db: Db;
let deps: SweepDeps;

beforeAll(async () => {
  fake = await startFakeDataJud({ apiKey: "cost-key" });
  for (const [alias, list] of documents) fake.setDocuments(alias, list);
  harness = await startSweepHarness(fake, { tempPrefix: "monitor-cost-" });
  ({ db, deps } = harness);
});

afterAll(async () => {
  await harness.close();
  await fake.close();
});

describe("sweep cost on 200 cases over 5 courts", () => {
  it("costs one fingerprint request per court when nothing changed, and finds exactly the moved cases", async () => {
    const options = { watchlist, force: false, dryRun: false, trigger: "manual" as const };
    const baseline = await runSweep(deps, options);
    const unchanged = await runSweep(deps, options);
    const moved = [watchlist[3], watchlist[77], watchlist[150]].filter(
      (c): c is WatchedCase => c !== undefined,
    );
    for (const c of moved) {
      fake.upsert(c.court, {
        _id: `${c.court}_${c.digits}`,
        _source: generatedSource(c.digits, "2025-03-01T00:00:00.000Z", [
          { codigo: 26, nome: "Distribuição", dataHora: "2023-02-01T10:00:00.000Z" },
          { codigo: 193, nome: "Julgamento", dataHora: "2025-02-28T15:00:00.000Z" },
        ]),
      });
    }
    const changed = await runSweep(deps, options);

    expect(baseline.cases.every((c) => c.outcome === "baseline")).toBe(true);
    expect(baseline.datajudRequests).toBe(10);
    expect(unchanged.datajudRequests).toBe(5);
    expect(unchanged.datajudRequests).toBeLessThanOrEqual(15);
    expect(unchanged.cases.every((c) => c.outcome === "unchanged")).toBe(true);
    expect(
      changed.cases
        .filter((c) => c.outcome === "changed")
        .map((c) => c.number)
        .sort(),
    ).toEqual(moved.map((c) => c.number).sort());
    expect(
      changed.cases.filter((c) => c.outcome === "changed").every((c) => c.newMovements === 1),
    ).toBe(true);
    expect(changed.datajudRequests).toBe(5 + 3);
  });
});

describe("a sweep stopped while reporting", () => {
  it("keeps what it committed and reports itself interrupted instead of crashing", async () => {
    const controller = new AbortController();
    const report: ReportPhases = {
      summarize: (signal) =>
        new Promise((_, reject) => {
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
          controller.abort(new Error("SIGTERM"));
        }),
      queue: () => ({}),
      deliver: async () => NOTHING_MAILED,
    };

    const result = await runSweep(
      { ...deps, report },
      { watchlist, force: false, dryRun: false, trigger: "schedule", signal: controller.signal },
    );

    expect(result.interrupted).toBe(true);
    expect(result.checked).toBe(200);
    const run = db.prepare("SELECT status FROM runs ORDER BY id DESC LIMIT 1").get() as {
      status: string;
    };
    expect(run.status).toBe("finished");
  });
});
