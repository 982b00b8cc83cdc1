import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIo } from "../../../src/cli/command.js";
import { runCli } from "../../../src/cli/run-cli.js";
import {
  ListWatchedCasesOutput,
  RateStatusOutput,
  RecentChangesOutput,
} from "../../../src/mcp/history-schemas.js";
import { callTool } from "../../../src/mcp/tool-caller.js";
import { GetCaseOutput, ListMovementsOutput } from "../../../src/mcp/tool-schemas.js";
import type { FakeDataJud } from "../../fakes/fake-datajud.js";
import {
  baseEnv,
  cliInProcess,
  moveCase,
  n,
  runOnce,
  startDataJud,
  type Workspace,
  workspace,
} from "../../support/cli-harness.js";
import { cliCommand } from "../../support/cli-process.js";

const TOKEN = "mcp-http-token-0123456789abcdef";
const CALL = { timeoutMs: 30_000 };
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
};

let datajud: FakeDataJud;
let ws: Workspace;
let env: Record<string, string>;
let url: string;
let stop: AbortController;
let served: Promise<number>;

/** `monitor mcp --http` in this process: resolves with the URL it prints on stdout. */
function serveInProcess(
  argv: string[],
  environment: Record<string, string>,
): { url: Promise<string>; exit: Promise<number>; stop: AbortController; err: () => string } {
  const controller = new AbortController();
  let printed: (value: string) => void = () => undefined;
  const url = new Promise<string>((resolve) => {
    printed = resolve;
  });
  let err = "";
  const io: CliIo = {
    argv,
    env: environment,
    cwd: ws.dir,
    stdout: { write: (chunk: string) => printed(chunk.trim()) },
    stderr: {
      write: (chunk: string) => {
        err += chunk;
      },
    },
    signal: controller.signal,
  };
  return { url, exit: runCli(io), stop: controller, err: () => err };
}

function connect(headers: Record<string, string>, target = url): Promise<Client> {
  const client = new Client({ name: "http-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(target), {
    requestInit: { headers },
  });
  return client.connect(transport).then(() => client);
}

function post(headers: Record<string, string>, body: string = JSON.stringify(INITIALIZE)) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });
}

beforeAll(async () => {
  datajud = await startDataJud("http-key");
  ws = workspace("mcp-http-");
  writeFileSync(join(ws.dir, "monitor.yaml"), "http:\n  maxBodyBytes: 4096\n");
  env = baseEnv(ws, datajud, {
    MONITOR_CONFIG: join(ws.dir, "monitor.yaml"),
    MCP_HTTP_TOKEN: TOKEN,
  });
  await runOnce(ws, env);
  moveCase(datajud, "trt2", n.trt2Reclamacao);
  await runOnce(ws, env);
  // DJEN on (its tools listed), though no call here reaches it.
  const server = serveInProcess(["mcp", "--http", "127.0.0.1:0"], { ...env, DJEN_ENABLED: "true" });
  stop = server.stop;
  served = server.exit;
  url = await server.url;
}, 60_000);

afterAll(async () => {
  stop?.abort();
  await served;
  await datajud?.close();
});

describe("monitor mcp --http", () => {
  it("prints its endpoint on loopback", () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it("serves every tool with the token: DataJud, paged movements and the monitor's history", async () => {
    const client = await connect({ authorization: `Bearer ${TOKEN}` });

    try {
      const { tools } = await client.listTools();
      const kase = await callTool(
        client,
        "get_case",
        { cnjNumber: n.tjdftDespejo },
        GetCaseOutput,
        CALL,
      );
      const page = await callTool(
        client,
        "list_movements",
        { cnjNumber: n.tjdftDespejo, limit: 2, offset: 2 },
        ListMovementsOutput,
        CALL,
      );
      const cases = await callTool(client, "list_watched_cases", {}, ListWatchedCasesOutput, CALL);
      const recent = await callTool(client, "recent_changes", {}, RecentChangesOutput, CALL);
      const rate = await callTool(client, "rate_status", {}, RateStatusOutput, CALL);

      expect(tools.map((t) => t.name).sort()).toEqual([
        "calculate_deadline",
        "fingerprint_cases",
        "get_case",
        "get_case_history",
        "list_courts",
        "list_movements",
        "list_party_hits",
        "list_watched_cases",
        "rate_status",
        "read_cases",
        "read_publications",
        "recent_changes",
        "search_cases",
        "search_publications",
        "source_freshness",
      ]);
      expect(kase.found).toBe(true);
      expect(page.instances[0]).toMatchObject({ offset: 2, nextOffset: 4 });
      expect(cases.total).toBe(3);
      expect(recent.cases.map((c) => c.cnjNumber)).toEqual([n.trt2Reclamacao]);
      expect(recent.cases[0]?.changes[0]?.newMovements[0]?.name).toBe("Procedência");
      expect(rate.datajud).toMatchObject({ used: 2, limit: 120, concurrency: 8, inFlight: 0 });
    } finally {
      await client.close();
    }
  });

  it("refuses a client without the token with 401 and WWW-Authenticate: Bearer", async () => {
    const response = await post({});
    const attempt = connect({});

    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer /);
    await expect(attempt).rejects.toThrow();
  });

  it("refuses a wrong token with 401 saying the token is invalid", async () => {
    const response = await post({ authorization: `Bearer ${TOKEN}x` });
    const other = await post({
      authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString("base64")}`,
    });

    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(await response.text()).not.toContain(TOKEN);
    expect(other.status).toBe(401);
  });

  it("refuses a browser page from another origin with 403, even with the token", async () => {
    const foreign = await post({ authorization: `Bearer ${TOKEN}`, origin: "http://evil.example" });
    const own = await post({ authorization: `Bearer ${TOKEN}`, origin: new URL(url).origin });

    expect(foreign.status).toBe(403);
    expect(own.status).toBe(200);
  });

  it("refuses a body larger than http.maxBodyBytes with 413, declared or streamed", async () => {
    const big = JSON.stringify({
      ...INITIALIZE,
      params: { ...INITIALIZE.params, pad: "x".repeat(8192) },
    });
    const chunks = new TextEncoder().encode(big);

    const declared = await post({ authorization: `Bearer ${TOKEN}` }, big);
    // No Content-Length: the body is counted as it arrives.
    const streamed = await fetch(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${TOKEN}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(chunks);
          controller.close();
        },
      }),
      duplex: "half",
      // `duplex`, which Node's fetch needs for a stream body, is missing from the DOM typings.
    } as RequestInit);

    expect(declared.status).toBe(413);
    expect(streamed.status).toBe(413);
  });

  it("is stateless: GET and DELETE on /mcp answer 405, other paths 404", async () => {
    const get = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    const del = await fetch(url, {
      method: "DELETE",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const elsewhere = await fetch(new URL("/other", url), {
      headers: { authorization: `Bearer ${TOKEN}` },
    });

    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(del.status).toBe(405);
    expect(elsewhere.status).toBe(404);
  });
});

describe("refusals at start", () => {
  it("monitor mcp --http without MCP_HTTP_TOKEN exits 2 saying how to set one", async () => {
    const { MCP_HTTP_TOKEN: _token, ...withoutToken } = env;

    const run = await cliInProcess(["mcp", "--http", "127.0.0.1:0"], withoutToken, ws.dir);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain("MCP_HTTP_TOKEN");
    expect(run.stderr).toContain("openssl rand -hex 32");
  });

  it("the daemon refuses a non-loopback http.listen without a token, before listening", async () => {
    const config = join(ws.dir, "open.yaml");
    writeFileSync(config, 'http:\n  listen: "0.0.0.0:0"\n');
    const { MCP_HTTP_TOKEN: _token, ...withoutToken } = env;

    const run = await cliInProcess(["daemon"], { ...withoutToken, MONITOR_CONFIG: config }, ws.dir);

    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/refusing to listen on 0\.0\.0\.0:0 without MCP_HTTP_TOKEN/);
  });

  it("a bad --http address is a usage error", async () => {
    const run = await cliInProcess(["mcp", "--http", "::1:80"], env, ws.dir);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain("[HOST:]PORT");
  });
});

describe("monitor daemon with http.listen", () => {
  it("serves /mcp beside its sweeps until SIGTERM", async () => {
    const config = join(ws.dir, "daemon.yaml");
    writeFileSync(config, 'schedule:\n  cron: "0 0 1 1 *"\nhttp:\n  listen: "127.0.0.1:0"\n');
    const { command, args } = cliCommand();
    const child = spawn(command, [...args, "daemon"], {
      cwd: ws.dir,
      env: { ...env, MONITOR_CONFIG: config, MONITOR_LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const listening = new Promise<string>((resolve, reject) => {
      let logs = "";
      child.stderr.on("data", (chunk: Buffer) => {
        logs += chunk.toString("utf8");
        const match = /"msg":"HTTP server listening"/.test(logs)
          ? /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(logs)
          : null;
        if (match?.[1]) resolve(`${match[1]}/mcp`);
      });
      child.once("exit", (code) => reject(new Error(`daemon exited ${code}: ${logs}`)));
    });

    try {
      const endpoint = await listening;
      const client = await connect({ authorization: `Bearer ${TOKEN}` }, endpoint);
      const recent = await callTool(client, "recent_changes", {}, RecentChangesOutput, CALL);
      await client.close();
      const refused = await fetch(endpoint, { method: "POST", body: "{}" });

      expect(recent.cases.map((c) => c.cnjNumber)).toEqual([n.trt2Reclamacao]);
      expect(refused.status).toBe(401);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exit).toBe(0);
  }, 30_000);
});
