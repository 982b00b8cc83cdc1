import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MonitorHandles, openMonitor } from "../../../src/cli/runtime.js";
import { silentLogger } from "../../../src/log.js";
import { MonitorMetrics } from "../../../src/metrics/metrics.js";
import { runSweep } from "../../../src/monitor/sweep.js";
import type { Watchlist } from "../../../src/watchlist/parse-watchlist.js";
import {
  type FakeAnthropic,
  type FakeReply,
  finalReply,
  startFakeAnthropic,
} from "../../fakes/fake-anthropic.js";
import { FakeClock, fakeSystem } from "../../fakes/fake-clock.js";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import { type SmtpSink, startSmtpSink } from "../../fakes/smtp-sink.js";
import { generatedCases, generatedSource } from "../../support/generated-cases.js";
import { concludeAll, modelWorkspace } from "../../support/model-workspace.js";
import { sample } from "../../support/prometheus-text.js";
import { waitFor } from "../../support/wait-for.js";

/*
 * Issue 29: a model endpoint that never answers once held every alert of the sweep (one change at
 * a time, 120 s x 3 per call, delivery after all summaries). Here the whole monitor (openMonitor,
 * the real SDK, SMTP) runs on a fake clock that only this test moves: the model calls' limit
 * (summarizer.callTimeoutMs) passes when the test says, with no real waiting.
 */

const TIMEOUT_MS = 30_000;
const ANA = "ana@example.com";
const { watchlist: cases, documents } = generatedCases(10, 2_900_000);

let datajud: FakeDataJud;
let anthropic: FakeAnthropic;
let sink: SmtpSink;
let dir: string;
let clock: FakeClock;
let metrics: MonitorMetrics;
let monitor: MonitorHandles;
let watchlist: Watchlist;

beforeAll(async () => {
  datajud = await startFakeDataJud({ apiKey: "hung-model-key" });
  anthropic = await startFakeAnthropic();
  sink = await startSmtpSink();
});

afterAll(async () => {
  await sink.close();
  await anthropic.close();
  await datajud.close();
});

beforeEach(async () => {
  for (const [alias, list] of documents) datajud.setDocuments(alias, list);
  anthropic.reset();
  sink.messages.length = 0;
  dir = mkdtempSync(join(tmpdir(), "monitor-hung-model-"));
  const made = modelWorkspace(dir, cases, { datajud, anthropic, sink }, TIMEOUT_MS);
  watchlist = made.watchlist;
  const { loaded } = made;
  clock = new FakeClock({ now: Date.parse("2026-03-03T13:00:00.000Z") });
  metrics = new MonitorMetrics({ processMetrics: false });
  monitor = await openMonitor(
    { config: loaded.config, secrets: loaded.secrets, logger: silentLogger() },
    {
      watchlist: () => watchlist,
      // The model calls' limit runs on the test's clock too (production: real time).
      system: fakeSystem(clock, { callTimer: clock }),
      metrics,
    },
  );
  // The first sweep reads every case as its baseline: no change, no model call.
  await sweep();
  expect(anthropic.requests).toHaveLength(0);
  concludeAll(datajud, cases);
});

afterEach(async () => {
  await monitor.close();
  rmSync(dir, { recursive: true, force: true });
});

function sweep() {
  return runSweep(monitor.sweep, {
    watchlist: watchlist.cases,
    force: false,
    dryRun: false,
    trigger: "schedule",
  });
}

/** The plain text of each e-mail the sink accepted. */
async function mailTexts(): Promise<string[]> {
  const parsed = await Promise.all(sink.messages.map((m) => simpleParser(m.raw)));
  return parsed.map((m) => (typeof m.text === "string" ? m.text : ""));
}

async function metricsText(): Promise<string> {
  return metrics.registry.metrics();
}

/** A well-formed answer for whichever case the prompt is about. */
const ANSWER: FakeReply = finalReply({
  statusCategory: "awaiting_decision",
  status: "O processo foi concluso ao juiz para decisão.",
  needsLawyerAttention: false,
  attentionReasons: [],
  latestRelevantMovement: null,
  nextExpectedStep: "Decisão do juiz.",
});

describe("a model endpoint that never answers", () => {
  it("costs one call's limit: all ten alerts go out, written by the rules, and the breaker opens once", async () => {
    anthropic.enqueue(...Array.from({ length: 10 }, (): FakeReply => ({ kind: "hang" })));

    const running = sweep();
    // Three summaries at once, each waiting for the model; nothing else is asked meanwhile.
    await waitFor(() => anthropic.requests.length === 3, "three model calls in flight");
    await clock.advance(TIMEOUT_MS);
    const report = await running;
    const text = await metricsText();

    expect(sink.messages).toHaveLength(10);
    expect(new Set(sink.messages.map((m) => m.to.join(",")))).toEqual(new Set([ANA]));
    expect(report.changed).toBe(10);
    expect(report.emailsSent).toBe(10);
    expect(anthropic.requests).toHaveLength(3);
    expect(report.llmCalls).toBe(0);
    expect(report.modelUnavailable).toBe(
      "a model call went unanswered (no answer in 30 s); the rest of the sweep was summarized by the rules",
    );
    expect(sample(text, "datajud_monitor_model_breaker_opened_total", { cause: "timeout" })).toBe(
      1,
    );
    expect(sample(text, "datajud_monitor_model_breaker_opened_total", { cause: "api_error" })).toBe(
      0,
    );
    for (const mail of await mailTexts()) {
      expect(mail).toContain("Resumo gerado por regras automáticas (sem modelo de IA)");
      expect(mail).toMatch(
        /O modelo de IA claude-[\w.-]+ não respondeu (?:em 30 s|ou falhou antes nesta varredura); as regras escreveram este resumo\./,
      );
    }
    // The next sweep asks the model again: the breaker is the sweep's, not the process's.
    anthropic.reset();
    anthropic.enqueue(ANSWER);
    datajud.upsert(cases[0]?.court ?? "", {
      _id: `${cases[0]?.court}_${cases[0]?.digits}`,
      _source: generatedSource(cases[0]?.digits ?? "", "2026-03-03T12:00:00.000Z", [
        { codigo: 26, nome: "Distribuição", dataHora: "2023-02-01T10:00:00.000Z" },
        { codigo: 51, nome: "Conclusão", dataHora: "2026-03-02T17:00:00.000Z" },
        { codigo: 11010, nome: "Mero expediente", dataHora: "2026-03-03T11:00:00.000Z" },
      ]),
    });
    const next = await sweep();
    expect(next.modelUnavailable).toBeNull();
    expect(next.llmCalls).toBe(1);
  });

  it("holds only its own case's alert: the other nine are delivered while it waits", async () => {
    anthropic.enqueue({ kind: "hang" }, ...Array.from({ length: 9 }, () => ANSWER));

    const running = sweep();
    await waitFor(() => sink.messages.length === 9, "nine alerts while one call hangs");
    expect(anthropic.requests).toHaveLength(10);
    await clock.advance(TIMEOUT_MS);
    const report = await running;

    expect(sink.messages).toHaveLength(10);
    expect(report.llmCalls).toBe(9);
    expect(report.modelUnavailable).toMatch(/went unanswered \(no answer in 30 s\)/);
    const texts = await mailTexts();
    expect(texts.filter((t) => t.includes("Resumo gerado pelo modelo de IA"))).toHaveLength(9);
    expect(texts.filter((t) => t.includes("Resumo gerado por regras"))).toHaveLength(1);
  });
});
