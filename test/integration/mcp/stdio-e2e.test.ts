import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool } from "../../../src/mcp/tool-caller.js";
import {
  GetCaseOutput,
  ListCourtsOutput,
  ListMovementsOutput,
  SearchCasesOutput,
  ToolErrorPayload,
} from "../../../src/mcp/tool-schemas.js";
import { type FakeDataJud, startFakeDataJud } from "../../fakes/fake-datajud.js";
import { cleanEnv, cliCommand } from "../../support/cli-process.js";
import { loadRecordedCases } from "../../support/fixtures.js";
import { makeTempDir } from "../../support/temp-dir.js";

const recorded = loadRecordedCases();
const CALL = { timeoutMs: 30_000 };

let fake: FakeDataJud;
let client: Client;
let stderr = "";

beforeAll(async () => {
  fake = await startFakeDataJud({ apiKey: "stdio-key" });
  for (const [alias, docs] of Object.entries(recorded.indices)) fake.setDocuments(alias, docs);
  const { command, args } = cliCommand();
  const transport = new StdioClientTransport({
    command,
    args: [...args, "mcp"],
    cwd: makeTempDir("monitor-mcp-"),
    env: cleanEnv({ DATAJUD_BASE_URL: fake.url, DATAJUD_API_KEY: "stdio-key" }),
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  client = new Client({ name: "stdio-e2e", version: "1.0.0" });
  await client.connect(transport);
}, 30_000);

afterAll(async () => {
  await client?.close();
  await fake?.close();
});

describe("monitor mcp over stdio", () => {
  it("answers the four contract tools against a DataJud-shaped server", async () => {
    const n = recorded.numbers;

    const courts = await callTool(
      client,
      "list_courts",
      { segment: "superior" },
      ListCourtsOutput,
      CALL,
    );
    const kase = await callTool(
      client,
      "get_case",
      { cnjNumber: n.trf1Previdenciario },
      GetCaseOutput,
      CALL,
    );
    const movements = await callTool(
      client,
      "list_movements",
      { cnjNumber: n.trf1Previdenciario, limit: 1 },
      ListMovementsOutput,
      CALL,
    );
    const search = await callTool(
      client,
      "search_cases",
      { court: "trt2", classCode: 985 },
      SearchCasesOutput,
      CALL,
    );

    expect(courts.courts.map((c) => c.alias).sort()).toEqual(["stj", "stm", "tse", "tst"]);
    expect(kase.found).toBe(true);
    expect(kase.records[0]?.class?.name).toBe("Procedimento Comum Cível");
    expect(movements.instances[0]?.movements).toHaveLength(1);
    expect(search.results[0]?.cnjNumber).toBe(n.trt2Reclamacao);
  });

  it("keeps stdout for the protocol and logs JSON to stderr without the key", async () => {
    await client.callTool({
      name: "get_case",
      arguments: { cnjNumber: recorded.numbers.tjdftDespejo },
    });

    expect(stderr).toContain("MCP server ready");
    expect(stderr).not.toContain("stdio-key");
  });

  it("answers a message over 10 MiB with an error and keeps serving", async () => {
    const huge = "9".repeat(11 * 2 ** 20);

    const refused = await client
      .callTool({ name: "get_case", arguments: { cnjNumber: huge } }, undefined, {
        timeout: 20_000,
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    const after = await callTool(
      client,
      "list_courts",
      { segment: "superior" },
      ListCourtsOutput,
      CALL,
    );

    expect(refused).toMatchObject({ code: -32600 });
    expect(String((refused as Error).message)).toContain("larger than 10 MiB");
    expect(after.courts.length).toBeGreaterThan(0);
    expect(stderr).toContain("MCP message larger than the limit dropped");
  });

  // From the security tests: the same process answers, so it costs no second start.
  it("offers only read-only tools", async () => {
    const { tools } = await client.listTools();

    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.annotations?.destructiveHint, tool.name).toBe(false);
      expect(tool.name).not.toMatch(/write|delete|update|set|send|mail|add|remove/i);
    }
    expect(JSON.stringify(tools)).not.toContain("stdio-key");
  });
});

describe("monitor mcp without a key", () => {
  it("starts, lists its tools, answers list_courts, and says how to set the key from get_case", async () => {
    const { command, args } = cliCommand();
    const transport = new StdioClientTransport({
      command,
      args: [...args, "mcp"],
      cwd: makeTempDir("monitor-mcp-"),
      env: cleanEnv({ MONITOR_LOG_LEVEL: "silent" }),
      stderr: "pipe",
    });
    const keyless = new Client({ name: "stdio-no-key", version: "1.0.0" });
    await keyless.connect(transport);

    try {
      const { tools } = await keyless.listTools();
      const courts = await callTool(keyless, "list_courts", {}, ListCourtsOutput, CALL);
      const kase = await keyless.callTool({
        name: "get_case",
        arguments: { cnjNumber: recorded.numbers.tjdftDespejo },
      });

      expect(tools.map((t) => t.name)).toContain("get_case");
      expect(courts.courts).toHaveLength(91);
      expect(kase.isError).toBe(true);
      const text = (kase.content as Array<{ text: string }>)[0]?.text ?? "";
      const error = ToolErrorPayload.parse(JSON.parse(text)).error;
      expect(error.kind).toBe("config");
      expect(error.retryable).toBe(false);
      expect(error.message).toContain("DATAJUD_API_KEY");
      expect(error.message).toContain("datajud-wiki.cnj.jus.br");
    } finally {
      await keyless.close();
    }
  });
});
