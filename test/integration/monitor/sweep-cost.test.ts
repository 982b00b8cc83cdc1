import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeCheckDigits, formatCnjNumber } from "../../../src/datajud/cnj-number.js";
import { type ReportPhases, runSweep, type SweepDeps } from "../../../src/monitor/sweep.js";
import { NO_ALERT_POLICY } from "../../../src/policy/alert-rules.js";
import type { Db } from "../../../src/store/database.js";
import type { WatchedCase } from "../../../src/watchlist/parse-watchlist.js";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import { type SweepHarness, startSweepHarness } from "../../support/sweep-harness.js";

/** 200 never-seen cases over 5 courts, 40 each. */
const COURTS = [
  { alias: "tjsp", segment: "8", tribunal: "26" },
  { alias: "tjrj", segment: "8", tribunal: "19" },
  { alias: "trf3", segment: "4", tribunal: "03" },
  { alias: "trt15", segment: "5", tribunal: "15" },
  { alias: "tjba", segment: "8", tribunal: "05" },
];

let fake: FakeDataJud;
let harness: SweepHarness;
let db: Db;
let deps: SweepDeps;
const watchlist: WatchedCase[] = [];
const documents = new Map<string, Array<{ _id: string; _source: Record<string, unknown> }>>();

function source(digits: string, updatedAt: string, movements: unknown[]): Record<string, unknown> {
  return {
    numeroProcesso: digits,
    grau: "G1",
    classe: { codigo: 7, nome: "Procedimento Comum Cível" },
    dataHoraUltimaAtualizacao: updatedAt,
    "@timestamp": updatedAt,
    movimentos: movements,
  };
}

beforeAll(async () => {
  fake = await startFakeDataJud({ apiKey: "cost-key" });
  for (let i = 0; i < 200; i++) {
    const court = COURTS[i % COURTS.length] ?? COURTS[0];
    if (!court) throw new Error("no court");
    const sequence = String(4_200_000 + i).padStart(7, "0");
    const check = computeCheckDigits(sequence, "2023", court.segment, court.tribunal, "0100");
    const digits = `${sequence}${check}2023${court.segment}${court.tribunal}0100`;
    watchlist.push({
      number: formatCnjNumber(digits),
      digits,
      court: court.alias,
      label: null,
      notify: [],
      policy: NO_ALERT_POLICY,
      line: i,
    });
    const list = documents.get(court.alias) ?? [];
    list.push({
      _id: `${court.alias}_${digits}`,
      _source: source(digits, "2025-01-01T00:00:00.000Z", [
        { codigo: 26, nome: "Distribuição", dataHora: "2023-02-01T10:00:00.000Z" },
      ]),
    });
    documents.set(court.alias, list);
  }
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
        _source: source(c.digits, "2025-03-01T00:00:00.000Z", [
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
          setTimeout(() => controller.abort(new Error("SIGTERM")), 20);
        }),
      queue: () => 0,
      deliver: async () => ({ sent: 0 }),
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
