import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CaseReader } from "../../../src/datajud/case-reader.js";
import { DataJudHttpClient } from "../../../src/datajud/http-client.js";
import { DjenClient } from "../../../src/djen/http-client.js";
import { connectInProcess, type InProcessConnection } from "../../../src/mcp/in-process-client.js";
import { createDataJudServer } from "../../../src/mcp/server.js";
import { callTool } from "../../../src/mcp/tool-caller.js";
import { SearchPublicationsOutput } from "../../../src/mcp/tools/search-publications.js";
import { systemClock } from "../../../src/time/clock.js";
import { calendarBook } from "../../../src/time/court-calendar.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { djenItem, type FakeDjen, startFakeDjen } from "../../fakes/fake-djen.js";

const CALL = { timeoutMs: 30_000 };
const CASE = "0713383-43.2025.8.07.0006";

let fake: FakeDjen;
let connection: InProcessConnection;

function reader(): CaseReader {
  // Never reached: these tests call DJEN's tool only.
  return new CaseReader(
    new DataJudHttpClient({
      baseUrl: "http://127.0.0.1:9",
      apiKey: "unused",
      clock: systemClock,
      random: Math.random,
    }),
  );
}

async function errorOf(
  args: Record<string, unknown>,
): Promise<{ kind: string; message: string; retryable: boolean; hint: string }> {
  const result = await connection.client.callTool({ name: "search_publications", arguments: args });
  expect(result.isError).toBe(true);
  const content = result.content as Array<{ text: string }>;
  return JSON.parse(content[0]?.text ?? "{}").error;
}

beforeEach(async () => {
  fake = await startFakeDjen();
  const djen = new DjenClient({
    baseUrl: fake.url,
    clock: new FakeClock({ autoAdvance: true }),
    random: () => 0,
  });
  connection = await connectInProcess(createDataJudServer({ reader: reader(), djen }));
});

afterEach(async () => {
  await connection.close();
  await fake.close();
});

describe("search_publications", () => {
  it("is served, read-only and with an output schema, only when DJEN is enabled", async () => {
    const { tools } = await connection.client.listTools();
    const without = await connectInProcess(createDataJudServer({ reader: reader() }));
    const plain = await without.client.listTools();
    await without.close();

    const tool = tools.find((t) => t.name === "search_publications");
    expect(tool?.annotations?.readOnlyHint).toBe(true);
    expect(tool?.outputSchema).toMatchObject({ type: "object", properties: expect.any(Object) });
    expect(plain.tools.map((t) => t.name)).not.toContain("search_publications");
  });

  it("returns a case's communications with counting dates, plain text and provenance", async () => {
    fake.setItems([
      djenItem({
        id: 41,
        date: "2026-02-13",
        texto: '<p>Fica a parte <b>intimada</b>.</p><script>alert("x")</script>',
      }),
    ]);

    const result = await callTool(
      connection.client,
      "search_publications",
      { cnjNumber: CASE },
      SearchPublicationsOutput,
      CALL,
    );

    expect(result).toMatchObject({ page: 1, pageSize: 50, total: 1, hasMore: false });
    expect(result.publications).toEqual([
      expect.objectContaining({
        id: "41",
        cnjNumber: CASE,
        kind: "Intimação",
        availableOn: "2026-02-13",
        // TJDFT: no expediente on Carnival Monday, Tuesday and Ash Wednesday (Lei 11.697/2008 art. 60).
        publishedOn: "2026-02-19",
        countingStartsOn: "2026-02-20",
        // Each skipped day with its date and source.
        countingReasons: expect.arrayContaining([
          expect.stringMatching(/^Carnaval \(terça-feira\), 17\/02\/2026 \(.+\)$/u),
        ]),
        lastDay: null,
        rule: expect.objectContaining({ code: "intimacao", procedure: "civil" }),
        text: "Fica a parte intimada.",
        textTruncated: false,
        lawyers: [{ name: "ANA ADVOGADA", oab: "123456/SP" }],
        certificateUrl: `${fake.url}/api/v1/comunicacao/h41AbCdEf/certidao`,
      }),
    ]);
    expect(result.countingNote).toMatch(/^Datas estimadas/);
    expect(result.provenance.urls[0]).toMatch(/numeroProcesso=07133834320258070006/);
  });

  it("shows DJEN's link only when it is a court's", async () => {
    fake.setItems([
      djenItem({ id: 42, date: "2026-02-13", link: "https://golpe.example/boleto" }),
      djenItem({ id: 43, date: "2026-02-13", link: "https://pje.tjdft.jus.br/doc/43" }),
    ]);

    const result = await callTool(
      connection.client,
      "search_publications",
      { cnjNumber: CASE },
      SearchPublicationsOutput,
      CALL,
    );

    expect(result.publications.map((p) => [p.id, p.link])).toEqual([
      ["42", null],
      ["43", "https://pje.tjdft.jus.br/doc/43"],
    ]);
  });

  it("dates them on the court calendars it was given, with calendar.closures", async () => {
    fake.setItems([djenItem({ id: 42, date: "2026-02-13" })]);
    const djen = new DjenClient({
      baseUrl: fake.url,
      clock: new FakeClock({ autoAdvance: true }),
      random: () => 0,
    });
    // The TJDFT's system down on Fri 20/02/2026: no count begins that day (CPC art. 224 §1).
    const outage = {
      court: "tjdft",
      municipalities: [],
      from: "2026-02-20",
      to: "2026-02-20",
      effect: "late-opening" as const,
      reason: "PJe indisponível",
      source: "Portaria GPR 77/2026",
      url: null,
    };
    const served = await connectInProcess(
      createDataJudServer({ reader: reader(), djen, calendars: calendarBook([outage]) }),
    );
    try {
      const result = await callTool(
        served.client,
        "search_publications",
        { cnjNumber: CASE },
        SearchPublicationsOutput,
        CALL,
      );

      expect(result.publications[0]).toMatchObject({
        publishedOn: "2026-02-19",
        countingStartsOn: "2026-02-23",
        countingReasons: expect.arrayContaining([
          "PJe indisponível, 20/02/2026 (Portaria GPR 77/2026)",
        ]),
      });
    } finally {
      await served.close();
    }
  });

  it("searches every suffix of an OAB registration in a window and merges by id", async () => {
    fake.setItems([
      djenItem({ id: 1, lawyers: [{ name: "ANA", oab: "123456", uf: "SP" }] }),
      djenItem({ id: 2, lawyers: [{ name: "ANA", oab: "123456-A", uf: "SP" }] }),
    ]);

    const result = await callTool(
      connection.client,
      "search_publications",
      { oab: "123.456/sp", from: "2025-09-29", to: "2025-09-30" },
      SearchPublicationsOutput,
      CALL,
    );

    expect(result.publications.map((p) => p.id).sort()).toEqual(["1", "2"]);
    expect(result.total).toBe(2);
    expect(fake.requests).toHaveLength(7);
  });

  it("pages through a long history", async () => {
    fake.setItems(Array.from({ length: 70 }, (_, i) => djenItem({ id: 100 + i })));

    const second = await callTool(
      connection.client,
      "search_publications",
      { cnjNumber: CASE, page: 2, maxTextChars: 200 },
      SearchPublicationsOutput,
      CALL,
    );

    expect(second).toMatchObject({ page: 2, total: 70, hasMore: false });
    expect(second.publications).toHaveLength(20);
  });

  it("asks for a window when searching by OAB, and says how to write one", async () => {
    const error = await errorOf({ oab: "123456/SP" });

    expect(error).toMatchObject({
      kind: "invalid_input",
      message: "searching by OAB (123456/SP) needs a window: give from and to (YYYY-MM-DD)",
      retryable: false,
    });
  });

  it("answers a bad registration with what is wrong", async () => {
    const error = await errorOf({ oab: "123456/XY", from: "2025-09-29", to: "2025-09-30" });

    expect(error.kind).toBe("invalid_input");
    expect(error.message).toMatch(/XY is not a Brazilian state/);
  });

  it("answers a 403 from abroad as one clear error, not as no publications", async () => {
    fake.foreign = true;

    const error = await errorOf({ cnjNumber: CASE });

    expect(error.kind).toBe("geo_blocked");
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/answers only addresses in Brazil/);
    expect(error.hint).toMatch(/retrying will not help/);
  });

  it("refuses an answer that ignored its filter", async () => {
    fake.setItems([djenItem({ id: 1, caseNumber: "09199921120238190001" })]);
    fake.ignoreFilters = true;

    const error = await errorOf({ cnjNumber: CASE });

    expect(error.kind).toBe("filter_ignored");
    expect(error.retryable).toBe(true);
  });
});
