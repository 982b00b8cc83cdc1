import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { normalizeMovement } from "../../../src/datajud/normalize.js";
import { RunReport } from "../../../src/monitor/run-report.js";
import {
  errorReply,
  type FakeAnthropic,
  finalReply,
  startFakeAnthropic,
} from "../../fakes/fake-anthropic.js";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import { cliInProcess } from "../../support/cli-harness.js";
import { cleanEnv } from "../../support/cli-process.js";
import { type FixtureDoc, loadRecordedCases } from "../../support/fixtures.js";
import { makeTempDir } from "../../support/temp-dir.js";

const recorded = loadRecordedCases();
const n = recorded.numbers;

let datajud: FakeDataJud;
let anthropic: FakeAnthropic;
let dir: string;

function env(): Record<string, string> {
  return cleanEnv({
    DATAJUD_BASE_URL: datajud.url,
    DJEN_ENABLED: "false",
    DATAJUD_API_KEY: datajud.apiKey,
    ANTHROPIC_API_KEY: anthropic.apiKey,
    ANTHROPIC_BASE_URL: anthropic.url,
    ANTHROPIC_MODEL: "claude-fake-1",
    MONITOR_WATCHLIST: join(dir, "watchlist.yaml"),
    MONITOR_DB: join(dir, "monitor.db"),
    MONITOR_LOG_LEVEL: "warn",
  });
}

async function runOnce(): Promise<{ report: RunReport; stderr: string }> {
  const run = await cliInProcess(["run-once", "--json"], env(), dir);
  if (run.stdout.trim() === "") throw new Error(`no report (exit ${run.code}): ${run.stderr}`);
  return { report: RunReport.parse(JSON.parse(run.stdout)), stderr: run.stderr };
}

const sentence = { codigo: 219, nome: "Procedência", dataHora: "2025-11-20T12:00:00.000Z" };

function moveCase(alias: string, digits: string, grau: string): void {
  const doc = recorded.indices[alias]?.find(
    (d) => d._source.numeroProcesso === digits && d._source.grau === grau,
  );
  if (!doc) throw new Error("fixture missing");
  const moved: FixtureDoc = structuredClone(doc);
  (moved._source.movimentos as unknown[]).push(sentence);
  moved._source.dataHoraUltimaAtualizacao = "2025-11-21T09:00:00.000Z";
  datajud.upsert(alias, moved);
}

function modelAnswer(): unknown {
  const movement = normalizeMovement(sentence);
  const ref = {
    movementId: movement?.id ?? "",
    dateTime: movement?.dateTime ?? null,
    code: 219,
    name: "Procedência",
  };
  return {
    statusCategory: "decided",
    status: "Sentença de procedência publicada; verificar prazo de recurso.",
    needsLawyerAttention: true,
    attentionReasons: [{ reason: "Sentença proferida", movements: [ref] }],
    latestRelevantMovement: ref,
    nextExpectedStep: "Prazo para recurso.",
  };
}

function storedSummaries(): Array<{ generatedBy: string; inputTokens: number }> {
  const db = new Database(join(dir, "monitor.db"), { readonly: true });
  const rows = db
    .prepare(
      "SELECT generated_by AS generatedBy, input_tokens AS inputTokens FROM summaries ORDER BY id",
    )
    .all() as Array<{ generatedBy: string; inputTokens: number }>;
  db.close();
  return rows;
}

beforeAll(async () => {
  datajud = await startFakeDataJud({ apiKey: "cost-gate-key" });
  anthropic = await startFakeAnthropic();
});

afterAll(async () => {
  await anthropic.close();
  await datajud.close();
});

beforeEach(() => {
  dir = makeTempDir("monitor-cost-gate-");
  writeFileSync(
    join(dir, "watchlist.yaml"),
    `defaults:\n  notify: [ana@example.com]\ncases:\n  - number: "${n.trf1Previdenciario}"\n  - number: "${n.trt2Reclamacao}"\n  - number: "${n.tjdftDespejo}"\n`,
  );
  for (const [alias, docs] of Object.entries(recorded.indices))
    datajud.setDocuments(alias, structuredClone(docs));
  anthropic.reset();
});

describe("the cost gate through run-once", () => {
  it("makes no model call for a baseline or an unchanged sweep, and one per changed case", async () => {
    const baseline = await runOnce();
    const unchanged = await runOnce();
    moveCase("trf1", n.trf1Previdenciario.replace(/\D/g, ""), "G1");
    moveCase("trt2", n.trt2Reclamacao.replace(/\D/g, ""), "G1");
    anthropic.enqueue(finalReply(modelAnswer()), finalReply(modelAnswer()));
    const changed = await runOnce();

    expect(baseline.report.llmCalls).toBe(0);
    expect(unchanged.report.llmCalls).toBe(0);
    expect(changed.report.changed).toBe(2);
    expect(changed.report.llmCalls, changed.stderr).toBe(2);
    expect(anthropic.requests).toHaveLength(2);
    expect(storedSummaries().map((s) => s.generatedBy)).toEqual(["claude-fake-1", "claude-fake-1"]);
    expect(storedSummaries().every((s) => s.inputTokens > 0)).toBe(true);
    expect(changed.stderr).not.toContain(anthropic.apiKey);
  });

  it("still stores a summary, written by the rules, when the Messages API keeps failing", async () => {
    await runOnce();
    moveCase("trt2", n.trt2Reclamacao.replace(/\D/g, ""), "G1");
    for (let i = 0; i < 6; i++) anthropic.enqueue(errorReply(529, "overloaded_error"));

    const changed = await runOnce();

    expect(changed.report.changed).toBe(1);
    expect(changed.report.emailsQueued).toBe(1);
    expect(storedSummaries().map((s) => s.generatedBy)).toEqual(["rules"]);
    expect(changed.stderr).toContain("summary written by the rules engine");
    expect(changed.stderr).toContain('"reason":"api_error"');
    expect(anthropic.requests.length).toBeGreaterThan(1);
  });
});
