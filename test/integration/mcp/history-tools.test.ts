import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeMovement } from "../../../src/datajud/normalize.js";
import { estimateDeadline } from "../../../src/deadlines/estimate.js";
import {
  GetCaseHistoryOutput,
  ListWatchedCasesOutput,
  RateStatusOutput,
  RecentChangesOutput,
} from "../../../src/mcp/history-schemas.js";
import { connectInProcess, type InProcessConnection } from "../../../src/mcp/in-process-client.js";
import { createMonitorDeps } from "../../../src/mcp/monitor-deps.js";
import { createDataJudServer } from "../../../src/mcp/server.js";
import { callTool } from "../../../src/mcp/tool-caller.js";
import { GetCaseOutput, ToolErrorPayload } from "../../../src/mcp/tool-schemas.js";
import { systemClock } from "../../../src/time/clock.js";
import { courtCalendar } from "../../../src/time/court-calendar.js";
import { dateInZone } from "../../../src/time/zoned-time.js";
import { type FakeAnthropic, finalReply, startFakeAnthropic } from "../../fakes/fake-anthropic.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import { djenItem, type FakeDjen, startFakeDjen } from "../../fakes/fake-djen.js";
import {
  baseEnv,
  fixtureDoc,
  n,
  outcomes,
  runOnce,
  SENTENCE,
  startDataJud,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";
import { connectMonitorMcp, type MonitorMcp } from "../../support/monitor-mcp.js";

const CALL = { timeoutMs: 30_000 };
const APPEAL = { codigo: 26, nome: "Distribuição", dataHora: "2025-11-25T00:10:00.000Z" };
const DECISION = {
  codigo: 12387,
  nome: "Saneamento e Organização",
  dataHora: "2025-11-24T15:00:00.000Z",
};

let datajud: FakeDataJud;
let djen: FakeDjen;
let anthropic: FakeAnthropic;
let ws: Workspace;
let connection: InProcessConnection;
let mcp: MonitorMcp | undefined;

function moved(alias: string, formatted: string, movements: readonly object[]): void {
  const doc = fixtureDoc(alias, formatted);
  (doc._source.movimentos as unknown[]).push(...movements);
  doc._source.dataHoraUltimaAtualizacao = `2025-11-2${movements.length}T09:00:00.000Z`;
  datajud.upsert(alias, doc);
}

function modelSummary(): unknown {
  const movement = normalizeMovement(DECISION);
  const ref = {
    movementId: movement?.id ?? "",
    dateTime: movement?.dateTime ?? null,
    code: 12387,
    name: "Saneamento e Organização",
  };
  return {
    statusCategory: "in_progress",
    status: "Processo saneado; segue para instrução.",
    needsLawyerAttention: true,
    attentionReasons: [{ reason: "Decisão de saneamento", movements: [ref] }],
    latestRelevantMovement: ref,
    nextExpectedStep: "Especificação de provas.",
  };
}

const digits = (formatted: string): string => formatted.replace(/\D/g, "");
/** Today in São Paulo: in DJEN's window of runs whose clock follows the real one. */
const TODAY = dateInZone(Date.now());
const OTHER_LAWYER = [{ name: "BETO ADVOGADO", oab: "999", uf: "DF" }];
const INTIMACAO = {
  id: 5002,
  caseNumber: digits(n.tjdftDespejo),
  date: TODAY,
  documentType: "Decisão",
  texto: "<p>Fica a parte <b>intimada</b> da decisão.</p>",
  lawyers: OTHER_LAWYER,
};

/**
 * An intimação's dates at the despejo's unit (the TJDFT at Brasília, IBGE 5300108, as its record
 * says) on `day`: the court calendar the sweep dated it on, whatever day the test runs.
 */
function tjdftDates(day: string): { publishedOn: string; countingStartsOn: string | null } {
  return estimateDeadline({
    availableOn: day,
    calendar: courtCalendar({ court: "tjdft", municipality: 5300108 }),
    communication: {
      kind: "Intimação",
      documentType: "Decisão",
      className: "PROCEDIMENTO COMUM CÍVEL",
      classCode: null,
      medium: "D",
      text: "Fica a parte intimada da decisão.",
      recipients: [],
      lawyerCount: 1,
      caseNumber: null,
      court: "TJDFT",
    },
  });
}

function errorOf(result: unknown): ToolErrorPayload["error"] {
  const content = (result as { content: Array<{ text: string }> }).content;
  return ToolErrorPayload.parse(JSON.parse(content[0]?.text ?? "{}")).error;
}

beforeAll(async () => {
  // Three real sweeps: a baseline (DJEN holds one publication of the despejo); trt2 (muted)
  // moves, DJEN publishes an intimação in the despejo and one, to the watched OAB under a
  // suffix, in a case outside the watchlist; then the despejo and trt2 move again while trf1's
  // index refuses every query, with a model writing the despejo's summary, and the court
  // cancels the intimação.
  datajud = await startDataJud("history-key");
  djen = await startFakeDjen();
  anthropic = await startFakeAnthropic();
  ws = workspace("mcp-history-");
  writeFileSync(
    ws.watchlistPath,
    [
      "defaults:",
      "  notify: [ana@example.com]",
      '  oab: ["123456/SP"]',
      "cases:",
      `  - number: "${n.tjdftDespejo}"`,
      '    label: "Silva x Souza (despejo)"',
      `  - number: "${n.trf1Previdenciario}"`,
      `  - number: "${n.trt2Reclamacao}"`,
      "    muted: true",
      `  - number: "${n.tjdftNotFound}"`,
      `  - number: "${n.tjspCobranca}"`,
      "",
    ].join("\n"),
  );
  const env = baseEnv(ws, datajud, {
    DJEN_ENABLED: "true",
    DJEN_BASE_URL: djen.url,
    DJEN_MAX_ATTEMPTS: "1",
    DJEN_CASE_EVERY_HOURS: "0",
    DJEN_OAB_EVERY_HOURS: "0",
  });
  djen.setItems([
    djenItem({ id: 5001, caseNumber: digits(n.tjdftDespejo), date: TODAY, lawyers: OTHER_LAWYER }),
  ]);
  const first = await runOnce(ws, env);
  moved("trt2", n.trt2Reclamacao, [SENTENCE]);
  djen.add(
    djenItem(INTIMACAO),
    djenItem({
      id: 5003,
      caseNumber: digits(n.tjdftJuizado),
      date: TODAY,
      kind: "Citação",
      lawyers: [{ name: "ANA ADVOGADA", oab: "123456-A", uf: "SP" }],
    }),
  );
  const second = await runOnce(ws, env);
  moved("trt2", n.trt2Reclamacao, [SENTENCE, APPEAL]);
  moved("tjdft", n.tjdftDespejo, [DECISION]);
  datajud.failAlways({ status: 400, body: { error: "refused" }, alias: "trf1" });
  djen.setItems([
    djenItem({ ...INTIMACAO, cancelled: "Publicada por engano" }),
    ...djen.items().filter((item) => item.id !== INTIMACAO.id),
  ]);
  anthropic.enqueue(finalReply(modelSummary()));
  const third = await runOnce(ws, {
    ...env,
    ANTHROPIC_API_KEY: anthropic.apiKey,
    ANTHROPIC_BASE_URL: anthropic.url,
    ANTHROPIC_MODEL: "claude-fake-1",
  });
  datajud.failAlways(null);
  expect(outcomes(first.report)[`${n.tjdftNotFound}@tjdft`]).toBe("not_found");
  expect(outcomes(second.report)[`${n.trt2Reclamacao}@trt2`]).toBe("changed");
  expect(outcomes(third.report)).toMatchObject({
    [`${n.tjdftDespejo}@tjdft`]: "changed",
    [`${n.trt2Reclamacao}@trt2`]: "changed",
    [`${n.trf1Previdenciario}@trf1`]: "failed",
  });
  expect(third.report.llmCalls).toBe(1);
  expect(second.report.publications).toMatchObject({ failed: 0, newPublications: 2 });
  expect(third.report.publications).toMatchObject({ failed: 0, cancelled: 1 });

  mcp = await connectMonitorMcp(ws, datajud);
  connection = mcp.connection;
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await datajud?.close();
  await djen?.close();
  await anthropic?.close();
});

describe("the monitor's history over MCP, on a database written by real sweeps", () => {
  it("lists the history tools and the weekly_review prompt beside the DataJud tools", async () => {
    const { tools } = await connection.client.listTools();
    const { prompts } = await connection.client.listPrompts();
    const prompt = await connection.client.getPrompt({ name: "weekly_review", arguments: {} });

    const history = tools.filter((t) =>
      ["list_watched_cases", "recent_changes", "get_case_history", "rate_status"].includes(t.name),
    );
    expect(history).toHaveLength(4);
    for (const tool of history) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.outputSchema).toMatchObject({ type: "object", properties: expect.any(Object) });
    }
    expect(prompts.map((p) => p.name)).toEqual(["weekly_review"]);
    const text = prompt.messages[0]?.content;
    expect(text?.type === "text" ? text.text : "").toContain("recent_changes");
    expect(text?.type === "text" ? text.text : "").toContain("inWatchlist false");
  });

  it("list_watched_cases: state, mute and last check of every case, filtered and paged", async () => {
    const all = await callTool(
      connection.client,
      "list_watched_cases",
      {},
      ListWatchedCasesOutput,
      CALL,
    );
    const failing = await callTool(
      connection.client,
      "list_watched_cases",
      { state: "failing" },
      ListWatchedCasesOutput,
      CALL,
    );
    const muted = await callTool(
      connection.client,
      "list_watched_cases",
      { state: "muted" },
      ListWatchedCasesOutput,
      CALL,
    );
    const tjdft = await callTool(
      connection.client,
      "list_watched_cases",
      { court: "TJDFT", limit: 1 },
      ListWatchedCasesOutput,
      CALL,
    );

    const byNumber = Object.fromEntries(all.cases.map((c) => [c.cnjNumber, c]));
    expect(all.total).toBe(5);
    expect(byNumber[n.tjdftDespejo]).toMatchObject({
      label: "Silva x Souza (despejo)",
      foundIn: "tjdft",
      state: "ok",
      muted: false,
      lastOutcome: "changed",
      // DataJud's "2025-11-24T15:00:00.000Z" is the court's wall clock: kept, never shifted.
      latestMovementAt: "2025-11-24T15:00:00",
    });
    expect(byNumber[n.tjdftDespejo]?.lastCheckedAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(byNumber[n.trf1Previdenciario]).toMatchObject({
      state: "failing",
      consecutiveFailures: 1,
    });
    expect(byNumber[n.trf1Previdenciario]?.lastError).toMatch(
      /DataJud refused the (query|request) to api_publica_trf1 \(HTTP 400\)/,
    );
    expect(byNumber[n.tjdftNotFound]).toMatchObject({ state: "not_found", foundIn: null });
    expect(byNumber[n.trt2Reclamacao]?.muted).toBe(true);
    expect(failing.cases.map((c) => c.cnjNumber)).toEqual([n.trf1Previdenciario]);
    expect(muted.cases.map((c) => c.cnjNumber)).toEqual([n.trt2Reclamacao]);
    expect(tjdft).toMatchObject({ total: 2, offset: 0, nextOffset: 1 });
    expect(tjdft.cases).toHaveLength(1);
  });

  it("list_watched_cases: the last DJEN check of each case number and of each OAB registration", async () => {
    const all = await callTool(
      connection.client,
      "list_watched_cases",
      {},
      ListWatchedCasesOutput,
      CALL,
    );

    const despejo = all.cases.find((c) => c.cnjNumber === n.tjdftDespejo);
    const trf1 = all.cases.find((c) => c.cnjNumber === n.trf1Previdenciario);
    expect(despejo?.djen).toMatchObject({
      lastOutcome: "ok",
      consecutiveFailures: 0,
      lastError: null,
    });
    expect(despejo?.djen?.lastCheckedAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    // DataJud refused trf1's index; DJEN still answered for its number: two sources, two checks.
    expect(trf1).toMatchObject({ state: "failing", djen: { lastOutcome: "ok" } });
    expect(all.oab).toEqual([
      expect.objectContaining({
        registration: "123456/SP",
        lastOutcome: "ok",
        consecutiveFailures: 0,
      }),
    ]);
  });

  it("recent_changes: the changed cases with their new movements and summary headlines", async () => {
    const week = await callTool(connection.client, "recent_changes", {}, RecentChangesOutput, CALL);
    const future = await callTool(
      connection.client,
      "recent_changes",
      { since: "2999-01-01" },
      RecentChangesOutput,
      CALL,
    );

    expect(week.totalCases).toBe(2);
    expect(week.nextOffset).toBeNull();
    const despejo = week.cases.find((c) => c.cnjNumber === n.tjdftDespejo);
    const trt2 = week.cases.find((c) => c.cnjNumber === n.trt2Reclamacao);
    expect(despejo?.label).toBe("Silva x Souza (despejo)");
    expect(despejo?.changes).toHaveLength(1);
    expect(despejo?.changes[0]?.newMovements).toEqual([
      expect.objectContaining({
        code: 12387,
        name: "Saneamento e Organização",
        dateTime: "2025-11-24T15:00:00",
        instance: "G1",
      }),
    ]);
    expect(despejo?.changes[0]?.summary).toMatchObject({
      generatedBy: "claude-fake-1",
      needsLawyerAttention: true,
      status: "Processo saneado; segue para instrução.",
      attentionReasons: ["Decisão de saneamento"],
      disposition: "alert",
    });
    expect(trt2?.changes.map((c) => c.newMovements.map((m) => m.code))).toEqual([[26], [219]]);
    expect(trt2?.changes.map((c) => c.summary?.disposition)).toEqual(["muted", "muted"]);
    expect(trt2?.changes[1]?.newMovements[0]?.dateTime).toBe("2025-11-20T12:00:00");
    expect(future.totalCases).toBe(0);
    expect(future.since).toBe("2999-01-01T03:00:00.000Z");
    expect(future).toMatchObject({ publications: [], totalPublications: 0 });
  });

  it("recent_changes: the publications read or cancelled since then, outside the watchlist said so", async () => {
    const week = await callTool(connection.client, "recent_changes", {}, RecentChangesOutput, CALL);
    const trt2Only = await callTool(
      connection.client,
      "recent_changes",
      { court: "trt2" },
      RecentChangesOutput,
      CALL,
    );

    const dates = tjdftDates(TODAY);
    // Newest event first: the cancellation (third sweep), then what the second sweep read.
    expect(week.publications.map((p) => p.djenId)).toEqual(["5002", "5003", "5001"]);
    expect(week.totalPublications).toBe(3);
    expect(week.countingNote).toMatch(/^Datas estimadas/);
    expect(week.publications[0]).toMatchObject({
      cnjNumber: n.tjdftDespejo,
      court: "TJDFT",
      courtUnit: "1ª Vara Cível de Ceilândia",
      kind: "Intimação",
      documentType: "Decisão",
      availableOn: TODAY,
      publishedOn: dates.publishedOn,
      countingStartsOn: dates.countingStartsOn,
      foundBy: [`case:${digits(n.tjdftDespejo)}`],
      disposition: "alert",
      cancelled: { reason: "Publicada por engano" },
      text: "Fica a parte intimada da decisão.",
      inWatchlist: true,
      certificateUrl: `${djen.url}/api/v1/comunicacao/h5002AbCdEf/certidao`,
    });
    expect(week.publications[1]).toMatchObject({
      cnjNumber: n.tjdftJuizado,
      kind: "Citação",
      foundBy: ["oab:123456/SP"],
      disposition: "alert",
      cancelled: null,
      inWatchlist: false,
    });
    expect(week.publications[2]).toMatchObject({ disposition: "baseline", inWatchlist: true });
    expect(trt2Only).toMatchObject({ publications: [], totalPublications: 0 });
  });

  it("recent_changes pages by case, most recently changed first", async () => {
    const first = await callTool(
      connection.client,
      "recent_changes",
      { limit: 1 },
      RecentChangesOutput,
      CALL,
    );
    const second = await callTool(
      connection.client,
      "recent_changes",
      { limit: 1, offset: first.nextOffset },
      RecentChangesOutput,
      CALL,
    );

    expect(first.nextOffset).toBe(1);
    expect(second.nextOffset).toBeNull();
    expect([...first.cases, ...second.cases].map((c) => c.cnjNumber).sort()).toEqual(
      [n.tjdftDespejo, n.trt2Reclamacao].sort(),
    );
  });

  it("get_case_history pages a case's changes, newest first", async () => {
    const page1 = await callTool(
      connection.client,
      "get_case_history",
      { cnjNumber: n.trt2Reclamacao.replace(/\D/g, ""), limit: 1 },
      GetCaseHistoryOutput,
      CALL,
    );
    const page2 = await callTool(
      connection.client,
      "get_case_history",
      { cnjNumber: n.trt2Reclamacao, limit: 1, offset: page1.nextOffset },
      GetCaseHistoryOutput,
      CALL,
    );

    expect(page1.case).toMatchObject({ cnjNumber: n.trt2Reclamacao, court: "trt2", watched: true });
    expect(page1).toMatchObject({ totalChanges: 2, offset: 0, nextOffset: 1 });
    expect(page1.changes[0]?.kinds).toEqual(["new_movements"]);
    expect(page1.changes[0]?.newMovements.map((m) => m.name)).toEqual(["Distribuição"]);
    expect(page2).toMatchObject({ offset: 1, nextOffset: null });
    expect(page2.changes[0]?.newMovements.map((m) => m.name)).toEqual(["Procedência"]);
    expect(Date.parse(page1.changes[0]?.detectedAt ?? "")).toBeGreaterThan(
      Date.parse(page2.changes[0]?.detectedAt ?? ""),
    );
    expect(page1).toMatchObject({ publications: [], totalPublications: 0 });
  });

  it("get_case_history: the case number's publications with their estimated dates and state", async () => {
    const history = await callTool(
      connection.client,
      "get_case_history",
      { cnjNumber: n.tjdftDespejo },
      GetCaseHistoryOutput,
      CALL,
    );

    expect(history.totalPublications).toBe(2);
    expect(history.publications.map((p) => [p.djenId, p.disposition, p.cancelled?.reason])).toEqual(
      [
        ["5002", "alert", "Publicada por engano"],
        ["5001", "baseline", undefined],
      ],
    );
    expect(history.publications[0]?.countingStartsOn).toBe(tjdftDates(TODAY).countingStartsOn);
    expect(history.publications[0]?.textChars).toBe("Fica a parte intimada da decisão.".length);
    expect(history.countingNote).toContain("nunca depois da resposta da lei");
  });

  it("get_case_history of a case the monitor never watched is an unknown_case error, not an empty history", async () => {
    const result = await connection.client.callTool({
      name: "get_case_history",
      arguments: { cnjNumber: n.tjdftJuizado },
    });

    expect(result.isError).toBe(true);
    expect(errorOf(result)).toMatchObject({ kind: "unknown_case", retryable: false });
    expect(errorOf(result).hint).toContain("list_watched_cases");
  });

  it("rate_status: the DataJud window of this process and the tokens the summaries spent", async () => {
    await callTool(
      connection.client,
      "get_case",
      { cnjNumber: n.tjdftDespejo },
      GetCaseOutput,
      CALL,
    );

    const status = await callTool(connection.client, "rate_status", {}, RateStatusOutput, CALL);

    expect(status.datajud).toEqual({
      windowSeconds: 60,
      limit: 90,
      used: 1,
      remaining: 89,
      waiting: 0,
      concurrency: 3,
      maxConcurrency: 3,
      inFlight: 0,
      requestsSentSinceStart: 1,
    });
    // DEFAULT_USAGE: 1200 input + 300 output tokens count (cache reads do not).
    expect(status.summarizer).toMatchObject({
      model: "claude-fake-1",
      dailyTokenBudget: 1_000_000,
      spentToday: 1500,
      remainingToday: 1_000_000 - 1500,
      runTokenBudget: 200_000,
      lastSweep: { status: "finished", tokens: 1500, llmCalls: 1 },
    });
  });
});

describe("the history tools with DJEN switched off", () => {
  it("list_watched_cases shows no DJEN check, counts none failing and says DJEN is off", async () => {
    const deps = createMonitorDeps({
      clock: systemClock,
      dbPath: ws.dbPath,
      watchlist: async () => null,
      datajud: null,
      summarizer: { model: null, runTokenBudget: 1, dailyTokenBudget: 1 },
      timezone: "America/Sao_Paulo",
      djen: { enabled: false, plan: null },
    });
    const conn = await connectInProcess(createDataJudServer({ reader: null, monitor: deps.deps }));

    const list = await callTool(
      conn.client,
      "list_watched_cases",
      {},
      ListWatchedCasesOutput,
      CALL,
    );
    await conn.close();
    deps.close();

    expect(list.djenEnabled).toBe(false);
    expect(list.cases.map((c) => c.djen)).toEqual(list.cases.map(() => null));
    expect(list.oab).toEqual([]);
    expect(list.notes).toContain(
      "DJEN is off (djen.enabled: false): no publication is read, so no DJEN check is shown or failing.",
    );
  });
});

describe("the history tools without a database", () => {
  it("are still listed and say how to point the server at one", async () => {
    const deps = createMonitorDeps({
      clock: systemClock,
      dbPath: `${ws.dir}/nowhere/monitor.db`,
      watchlist: async () => null,
      datajud: null,
      summarizer: { model: null, runTokenBudget: 1, dailyTokenBudget: 1 },
      timezone: "America/Sao_Paulo",
    });
    const conn = await connectInProcess(createDataJudServer({ reader: null, monitor: deps.deps }));

    const { tools } = await conn.client.listTools();
    const recent = await conn.client.callTool({ name: "recent_changes", arguments: {} });
    const rate = await callTool(conn.client, "rate_status", {}, RateStatusOutput, CALL);
    await conn.close();
    deps.close();

    expect(tools.map((t) => t.name)).toContain("recent_changes");
    expect(recent.isError).toBe(true);
    expect(errorOf(recent).kind).toBe("no_database");
    expect(errorOf(recent).message).toContain("nowhere/monitor.db");
    expect(errorOf(recent).hint).toContain("MONITOR_DB");
    expect(rate.datajud).toBeNull();
    expect(rate.summarizer.spentToday).toBeNull();
    expect(rate.notes.join(" ")).toContain("MONITOR_DB");
  });
});
