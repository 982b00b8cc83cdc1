import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CaseReader } from "../../../src/datajud/case-reader.js";
import { DataJudHttpClient } from "../../../src/datajud/http-client.js";
import { connectInProcess, type InProcessConnection } from "../../../src/mcp/in-process-client.js";
import { createDataJudServer } from "../../../src/mcp/server.js";
import { callTool } from "../../../src/mcp/tool-caller.js";
import {
  FingerprintCasesOutput,
  GetCaseOutput,
  ListCourtsOutput,
  ListMovementsOutput,
  ReadCasesOutput,
  SearchCasesOutput,
  type ToolMovement,
} from "../../../src/mcp/tool-schemas.js";
import { systemClock } from "../../../src/time/clock.js";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import { loadRealLongRecord, loadRecordedCases } from "../../support/fixtures.js";
import { formatted, loadRealHits, REAL, realHit } from "../../support/real-datajud.js";
import { waitFor } from "../../support/wait-for.js";

const recorded = loadRecordedCases();
const n = recorded.numbers;
const CALL = { timeoutMs: 30_000 };

let fake: FakeDataJud;
let http: DataJudHttpClient;
let connection: InProcessConnection;

beforeAll(async () => {
  fake = await startFakeDataJud({ apiKey: "test-public-key" });
  http = new DataJudHttpClient({
    baseUrl: fake.url,
    apiKey: fake.apiKey,
    timeoutMs: 2_000,
    totalTimeoutMs: 5_000,
    maxAttempts: 3,
    clock: systemClock,
    random: () => 0,
  });
  connection = await connectInProcess(createDataJudServer({ reader: new CaseReader(http) }));
});

afterAll(async () => {
  await connection.close();
  await fake.close();
});

beforeEach(() => {
  for (const [alias, docs] of Object.entries(recorded.indices)) fake.setDocuments(alias, docs);
  fake.failAlways(null);
  fake.rejectTermsQueries = false;
});

function errorOf(result: unknown): {
  kind: string;
  message: string;
  retryable: boolean;
  hint: string;
} {
  const content = (result as { content: Array<{ text: string }> }).content;
  return JSON.parse(content[0]?.text ?? "{}").error;
}

describe("the embedded MCP server over InMemoryTransport against a DataJud-shaped server", () => {
  it("lists its tools, all read-only with output schemas", async () => {
    const { tools } = await connection.client.listTools();

    expect(tools.map((t) => t.name).sort()).toEqual([
      "calculate_deadline",
      "fingerprint_cases",
      "get_case",
      "list_courts",
      "list_movements",
      "read_cases",
      "search_cases",
    ]);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.outputSchema).toMatchObject({ type: "object", properties: expect.any(Object) });
    }
  });

  it("get_case returns one record per instance with provenance", async () => {
    const result = await callTool(
      connection.client,
      "get_case",
      { cnjNumber: n.tjdftJuizado },
      GetCaseOutput,
      CALL,
    );

    expect(result.found).toBe(true);
    expect(result.court).toBe("tjdft");
    expect(result.records.map((r) => r.instance).sort()).toEqual(["JE", "TR"]);
    expect(result.provenance.index).toBe("api_publica_tjdft");
    expect(result.provenance.fetchedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(fake.requests.at(-1)?.authorization).toBe("APIKey test-public-key");
  });

  it("get_case reads a superior court's record of an origin number when court is given", async () => {
    const result = await callTool(
      connection.client,
      "get_case",
      { cnjNumber: n.tjspCobranca.replace(/\D/g, ""), court: "stj" },
      GetCaseOutput,
      CALL,
    );

    expect(result.court).toBe("stj");
    expect(result.records[0]?.instance).toBe("SUP");
    expect(result.cnjNumber).toBe(n.tjspCobranca);
  });

  it("get_case answers found:false only for a clean not-found", async () => {
    const result = await callTool(
      connection.client,
      "get_case",
      { cnjNumber: n.tjdftNotFound },
      GetCaseOutput,
      CALL,
    );

    expect(result.found).toBe(false);
    expect(result.records).toEqual([]);
  });

  it("a DataJud outage is an error result, never found:false", async () => {
    fake.failAlways({ status: 503, body: { error: "unavailable" } });

    const result = await connection.client.callTool({
      name: "get_case",
      arguments: { cnjNumber: n.tjdftDespejo },
    });

    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(errorOf(result).retryable).toBe(true);
    expect(errorOf(result).hint).toMatch(/says nothing about the case/);
  });

  it("wrong check digits are an error naming the right digits", async () => {
    const wrong = n.tjdftDespejo.replace("-43.", "-44.");

    const result = await connection.client.callTool({
      name: "get_case",
      arguments: { cnjNumber: wrong },
    });

    expect(result.isError).toBe(true);
    expect(errorOf(result).message).toContain("43");
    expect(errorOf(result).kind).toBe("invalid_input");
  });

  it("a misspelt court gets a did-you-mean, as in monitor validate, in every tool that takes one", async () => {
    const calls = [
      { name: "get_case", arguments: { cnjNumber: n.tjdftDespejo, court: "tjdtf" } },
      { name: "search_cases", arguments: { court: "TJPS" } },
      { name: "read_cases", arguments: { cnjNumbers: [n.tjdftDespejo], court: "api_publica_sjt" } },
    ];

    const results = await Promise.all(calls.map((call) => connection.client.callTool(call)));

    expect(results.map((r) => errorOf(r).kind)).toEqual([
      "invalid_input",
      "invalid_input",
      "invalid_input",
    ]);
    expect(errorOf(results[0]).message).toContain('did you mean "tjdft"?');
    expect(errorOf(results[1]).message).toContain('did you mean "tjsp"?');
    expect(errorOf(results[2]).message).toContain('did you mean "stj"?');
  });

  it("quotes at most a short prefix of a huge bad argument, whichever tool and argument", async () => {
    const huge = "9".repeat(4_000_000);
    const calls = [
      { name: "get_case", arguments: { cnjNumber: huge } },
      { name: "get_case", arguments: { cnjNumber: `a${huge}` } },
      { name: "get_case", arguments: { cnjNumber: n.tjdftDespejo, court: `x${huge}` } },
      { name: "list_movements", arguments: { cnjNumber: n.tjdftDespejo, since: huge } },
      { name: "read_cases", arguments: { cnjNumbers: [n.tjdftDespejo, `1-${huge}`] } },
      { name: "search_cases", arguments: { court: "tjdft", classCode: huge } },
    ];

    const results = await Promise.all(calls.map((call) => connection.client.callTool(call)));

    for (const result of results) {
      const text = (result.content as Array<{ text: string }>)[0]?.text ?? "";
      expect(result.isError).toBe(true);
      expect(text.length).toBeLessThan(1500);
      expect(errorOf(result).kind).toBe("invalid_input");
    }
    expect(errorOf(results[0]).message).toContain('"9999999999');
    expect(errorOf(results[0]).message).toContain("4,000,000 characters");
  });

  it("an STF number gets the explicit not-in-DataJud error", async () => {
    const result = await connection.client.callTool({
      name: "get_case",
      arguments: { cnjNumber: n.stfNumber },
    });

    expect(result.isError).toBe(true);
    expect(errorOf(result).kind).toBe("unsupported_court");
    expect(errorOf(result).message).toMatch(/STF/);
  });

  it("a rotated key is reported with what to do", async () => {
    const other = new DataJudHttpClient({
      baseUrl: fake.url,
      apiKey: "old-key",
      maxAttempts: 2,
      clock: systemClock,
      random: () => 0,
    });
    const conn = await connectInProcess(createDataJudServer({ reader: new CaseReader(other) }));

    const result = await conn.client.callTool({
      name: "get_case",
      arguments: { cnjNumber: n.tjdftDespejo },
    });
    await conn.close();

    expect(errorOf(result).kind).toBe("auth");
    expect(errorOf(result).message).toContain("DATAJUD_API_KEY");
    expect(JSON.stringify(result)).not.toContain("old-key");
  });

  it("list_movements pages movements per instance, newest first, with hints and since", async () => {
    const result = await callTool(
      connection.client,
      "list_movements",
      { cnjNumber: n.tjdftDespejo, limit: 2 },
      ListMovementsOutput,
      CALL,
    );
    const since = await callTool(
      connection.client,
      "list_movements",
      { cnjNumber: n.tjdftDespejo, since: "2025-03-19", order: "asc" },
      ListMovementsOutput,
      CALL,
    );

    const instance = result.instances[0];
    expect(instance?.totalMovements).toBe(5);
    expect(instance?.movements.map((m) => m.code)).toEqual([85, 60]);
    expect(instance?.latestMovementAt).toBe("2025-06-02T18:22:10");
    expect(since.instances[0]?.movements.map((m) => m.code)).toEqual([60, 85]);
  });

  it("search_cases filters by class and converts ISO filing dates", async () => {
    const result = await callTool(
      connection.client,
      "search_cases",
      { court: "tjsp", classCode: 7, filedFrom: "2022-01-01", filedTo: "2022-12-31" },
      SearchCasesOutput,
      CALL,
    );

    expect(result.total).toBe(1);
    expect(result.results[0]?.cnjNumber).toBe(n.tjspCobranca);
    const body = JSON.stringify(fake.requests.at(-1)?.body);
    expect(body).toContain("20220101000000");
    expect(body).not.toContain("2022-01-01");
  });

  it("list_courts lists all 91 indices and filters by segment", async () => {
    const all = await callTool(connection.client, "list_courts", {}, ListCourtsOutput, CALL);
    const labor = await callTool(
      connection.client,
      "list_courts",
      { segment: "labor" },
      ListCourtsOutput,
      CALL,
    );

    expect(all.courts).toHaveLength(91);
    expect(all.courts.some((c) => c.alias === "stf")).toBe(false);
    expect(labor.courts.every((c) => c.segment === "labor")).toBe(true);
  });

  it("fingerprint_cases costs one request per court for many numbers", async () => {
    const before = fake.requests.length;

    const result = await callTool(
      connection.client,
      "fingerprint_cases",
      { cnjNumbers: [n.tjdftDespejo, n.tjdftJuizado, n.tjdftNotFound, n.trf1Previdenciario] },
      FingerprintCasesOutput,
      CALL,
    );

    expect(fake.requests.length - before).toBe(2);
    expect(result.cases.map((c) => [c.cnjNumber, c.found])).toEqual([
      [n.tjdftDespejo, true],
      [n.tjdftJuizado, true],
      [n.tjdftNotFound, false],
      [n.trf1Previdenciario, true],
    ]);
    expect(result.cases[1]?.instances).toHaveLength(2);
    const source = fake.requests.at(-1)?.body._source;
    expect(source).not.toContain("movimentos");
  });

  it("read_cases returns full records, and falls back when terms queries are refused", async () => {
    fake.rejectTermsQueries = true;
    const reader = new CaseReader(http);
    const conn = await connectInProcess(createDataJudServer({ reader }));

    const result = await callTool(
      conn.client,
      "read_cases",
      { cnjNumbers: [n.tjdftDespejo, n.tjdftJuizado] },
      ReadCasesOutput,
      CALL,
    );
    await conn.close();

    expect(result.cases.map((c) => c.records.length)).toEqual([1, 2]);
    expect(result.cases[0]?.records[0]?.movements).toHaveLength(5);
    expect(reader.termsRefused).toBe(true);
  });

  it("absorbs a transient 503 within one call", async () => {
    fake.failNext({ status: 503, body: { error: "busy" } });

    const result = await callTool(
      connection.client,
      "get_case",
      { cnjNumber: n.trt2Reclamacao },
      GetCaseOutput,
      CALL,
    );

    expect(result.found).toBe(true);
  });

  it("sends progress notifications while DataJud is slow", async () => {
    const conn = await connectInProcess(
      createDataJudServer({ reader: new CaseReader(http), progressEveryMs: 50 }),
    );
    fake.latencyMs = 300;
    const progress: number[] = [];

    try {
      await conn.client.callTool(
        { name: "get_case", arguments: { cnjNumber: n.tjdftDespejo } },
        undefined,
        {
          onprogress: (p) => progress.push(p.progress),
        },
      );
    } finally {
      fake.latencyMs = 0;
      await conn.close();
    }

    expect(progress.length).toBeGreaterThanOrEqual(2);
  });
});

describe("several calls of one client at once", () => {
  it("carries them to DataJud together, each with its own progress and its own abort", async () => {
    const conn = await connectInProcess(
      createDataJudServer({ reader: new CaseReader(http), progressEveryMs: 20 }),
    );
    const calls = [n.tjdftDespejo, n.trt2Reclamacao, n.trf1Previdenciario].map((cnjNumber) => ({
      cnjNumber,
      abort: new AbortController(),
      progress: 0,
    }));
    const abandonedBefore = fake.abandoned;
    fake.maxInFlight = 0;
    fake.hold();
    const pending = calls.map((call) =>
      conn.client
        .callTool({ name: "get_case", arguments: { cnjNumber: call.cnjNumber } }, undefined, {
          signal: call.abort.signal,
          timeout: 30_000,
          resetTimeoutOnProgress: true,
          onprogress: () => {
            call.progress++;
          },
        })
        .then(
          (result) => ({ found: GetCaseOutput.parse(result.structuredContent).found }),
          (error: unknown) => ({ error: String(error) }),
        ),
    );

    let heard: number[];
    let results: Array<{ found?: boolean } | { error: string }>;
    try {
      await waitFor(
        () => fake.inFlight === 3 && calls.every((c) => c.progress >= 1),
        "three requests in flight, each call told of its progress",
      );
      calls[1]?.abort.abort(new Error("the user closed this one"));
      await waitFor(() => fake.inFlight === 2, "the aborted call's request closed");
      heard = calls.map((c) => c.progress);
      fake.release();
      results = await Promise.all(pending);
    } finally {
      fake.release();
      await conn.close();
    }

    expect(fake.maxInFlight).toBe(3);
    expect(fake.abandoned - abandonedBefore).toBe(1);
    expect(heard.every((p) => p >= 1)).toBe(true);
    expect(results).toEqual([
      { found: true },
      { error: expect.stringContaining("the user closed this one") },
      { found: true },
    ]);
  });
});

describe("paging and error envelopes", () => {
  const LONG = "0012590-61.2015.8.07.0018";

  it("list_movements reads a real 590-movement record to its end, page by page", async () => {
    fake.setDocuments("tjdft", loadRealLongRecord());
    const pages: ListMovementsOutput[] = [];
    let offset: number | null = 0;

    while (offset !== null) {
      const page: ListMovementsOutput = await callTool(
        connection.client,
        "list_movements",
        { cnjNumber: LONG, limit: 100, offset },
        ListMovementsOutput,
        CALL,
      );
      pages.push(page);
      const next = page.instances.map((i) => i.nextOffset).filter((o) => o !== null);
      offset = next.length === 0 ? null : Math.max(...next);
    }

    // Every movement the reader holds, newest first: the pages must add up to exactly this.
    const whole = await new CaseReader(http).getCase(LONG.replace(/\D/g, ""), "tjdft");
    const expected = (grau: string): string[] =>
      [...(whole.records.find((r) => r.instance === grau)?.movements ?? [])]
        .reverse()
        .map((m) => m.id);
    const g1 = pages.flatMap((p) => p.instances.filter((i) => i.instance === "G1"));
    const g2 = pages.flatMap((p) => p.instances.filter((i) => i.instance === "G2"));
    expect(pages).toHaveLength(6);
    expect(g1.map((i) => i.nextOffset)).toEqual([100, 200, 300, 400, 500, null]);
    expect(g1.flatMap((i) => i.movements.map((m) => m.id))).toEqual(expected("G1"));
    expect(g1[0]?.matchingMovements).toBe(expected("G1").length);
    expect(expected("G1").length).toBeGreaterThan(500);
    expect(g2.map((i) => i.nextOffset)).toEqual([null, null, null, null, null, null]);
    expect(g2[0]?.movements.map((m) => m.id)).toEqual(expected("G2"));
    expect(g2.slice(1).every((i) => i.movements.length === 0)).toBe(true);
  });

  it("list_movements pages after since and says where the filtered list ends", async () => {
    const page = await callTool(
      connection.client,
      "list_movements",
      { cnjNumber: n.tjdftDespejo, since: "2025-03-19", limit: 1, offset: 1, order: "asc" },
      ListMovementsOutput,
      CALL,
    );

    const instance = page.instances[0];
    expect(instance?.totalMovements).toBe(5);
    expect(instance?.matchingMovements).toBe(2);
    expect(instance?.offset).toBe(1);
    expect(instance?.nextOffset).toBeNull();
    expect(instance?.movements.map((m) => m.code)).toEqual([85]);
  });

  it("a bad argument the SDK refuses carries the same envelope as ours", async () => {
    const result = await connection.client.callTool({
      name: "list_movements",
      arguments: { cnjNumber: n.tjdftDespejo, offset: -1 },
    });

    expect(result.isError).toBe(true);
    expect(errorOf(result).kind).toBe("invalid_input");
    expect(errorOf(result).retryable).toBe(false);
    expect(errorOf(result).message).toContain("offset");
    expect(errorOf(result).hint).toContain("input schema");
  });

  it("without DataJud the server still lists its tools and answers list_courts, and the DataJud tools say how to configure it", async () => {
    const conn = await connectInProcess(
      createDataJudServer({ reader: null, unavailable: "DATAJUD_API_KEY is not set: do this" }),
    );

    const { tools } = await conn.client.listTools();
    const courts = await callTool(conn.client, "list_courts", {}, ListCourtsOutput, CALL);
    const kase = await conn.client.callTool({
      name: "get_case",
      arguments: { cnjNumber: n.tjdftDespejo },
    });
    await conn.close();

    expect(tools.map((t) => t.name)).toContain("get_case");
    expect(courts.courts).toHaveLength(91);
    expect(kase.isError).toBe(true);
    expect(errorOf(kase)).toMatchObject({
      kind: "config",
      message: "DATAJUD_API_KEY is not set: do this",
      retryable: false,
    });
    expect(errorOf(kase).hint).toContain("list_courts");
  });
});

/*
 * The live DataJud tools on the real tjto record: each movement keeps DataJud's name and
 * complements as normalized, and carries beside them what history and mail read (the TPU parent
 * where the leaf says nothing, complements in words, a criminal class in criminal words).
 */
const hits = loadRealHits();
const TJTO = formatted(REAL.tjtoMojibake);

/** The real tjto record, its first instance as an ação penal when `criminal`. */
function serve(criminal: boolean): void {
  const g1 = realHit(hits, "tjto", REAL.tjtoMojibake, "G1");
  if (criminal) g1._source.classe = { codigo: 283, nome: "Ação Penal - Procedimento Ordinário" };
  fake.setDocuments("tjto", [g1, realHit(hits, "tjto", REAL.tjtoMojibake, "G2")]);
}

async function firstInstance(): Promise<ToolMovement[]> {
  const listed = await callTool(
    connection.client,
    "list_movements",
    { cnjNumber: TJTO, limit: 100, order: "asc" },
    ListMovementsOutput,
    CALL,
  );
  return listed.instances.find((i) => i.instance === "G1")?.movements ?? [];
}

function at(movements: ToolMovement[], code: number, dateTime: string): ToolMovement | undefined {
  return movements.find((m) => m.code === code && m.dateTime === dateTime);
}

describe("list_movements and get_case on the real tjto record", () => {
  it("give the title and complements a lawyer reads beside DataJud's own", async () => {
    serve(false);
    const movements = await firstInstance();

    // 96 movements in the real record, every one read.
    expect(movements).toHaveLength(96);
    expect(movements.every((m) => m.title !== "")).toBe(true);
    expect(at(movements, 12266, "2024-07-29T23:59:59")).toMatchObject({
      name: "Confirmada",
      title: "Intimação eletrônica confirmada",
      complements: [],
      complementTexts: [],
    });
    const hearing = at(movements, 12740, "2017-12-18T15:57:44");
    expect(hearing?.name).toBe("de Conciliação");
    expect(hearing?.complements[0]).toMatchObject({
      name: "designada",
      description: "situacao_da_audiencia",
    });
    expect(hearing).toMatchObject({
      title: "Audiência de conciliação designada",
      complementTexts: [
        "situação da audiência: designada",
        "tipo de audiência: conciliação",
        "dirigida por: Conciliador(a)",
      ],
    });
    expect(at(movements, 26, "2017-12-14T14:54:59")).toMatchObject({
      name: "Distribuição",
      complementTexts: ["tipo de distribuição: sorteio"],
    });
    // A civil class: 219 is the TPU's judgment for the plaintiff.
    const judgment = movements.find((m) => m.code === 219);
    expect(judgment?.title).toBe("Julgado procedente o pedido");
    expect(judgment?.meaning).toBe(judgment?.hint?.pt);

    const got = await callTool(
      connection.client,
      "get_case",
      { cnjNumber: TJTO },
      GetCaseOutput,
      CALL,
    );
    const latest = got.records.find((r) => r.instance === "G1")?.latestMovement;
    const last = movements.at(-1);
    expect(latest).toEqual(last);
    expect(latest?.title).not.toBe("");
  });

  it("read a criminal class's judgment as a conviction, DataJud's name and hint kept", async () => {
    serve(true);
    const movements = await firstInstance();

    const judgment = movements.find((m) => m.code === 219);
    expect(judgment?.title).toBe("Sentença condenatória");
    expect(judgment?.meaning).toContain("CPP, art. 593");
    expect(judgment?.meaning).not.toMatch(/autor ganhou/);
    // DataJud's own fields are as they were: the reading is beside them.
    expect(judgment?.hint?.pt).toBeTypeOf("string");
    expect(judgment?.name).not.toBe("Sentença condenatória");

    const found = await callTool(
      connection.client,
      "search_cases",
      { court: "tjto", classCode: 283 },
      SearchCasesOutput,
      CALL,
    );
    expect(found.results.map((r) => r.instance)).toEqual(["G1"]);
    expect(found.results[0]?.latestMovement?.title).toBe(movements.at(-1)?.title);
  });
});
