import { CaseReader } from "../../src/datajud/case-reader.js";
import { DataJudHttpClient } from "../../src/datajud/http-client.js";
import { connectInProcess, type InProcessConnection } from "../../src/mcp/in-process-client.js";
import { createMonitorDeps } from "../../src/mcp/monitor-deps.js";
import { createDataJudServer } from "../../src/mcp/server.js";
import { systemClock } from "../../src/time/clock.js";
import { loadWatchlist } from "../../src/watchlist/parse-watchlist.js";
import type { FakeDataJud } from "../fakes/fake-datajud.js";
import type { Workspace } from "./cli-harness.js";

/** The MCP server `monitor mcp` serves (DataJud and history tools), over a workspace's database. */
export interface MonitorMcp {
  connection: InProcessConnection;
  close(): Promise<void>;
}

export async function connectMonitorMcp(ws: Workspace, datajud: FakeDataJud): Promise<MonitorMcp> {
  const http = new DataJudHttpClient({
    baseUrl: datajud.url,
    apiKey: datajud.apiKey,
    requestsPerMinute: 90,
    concurrency: 3,
    clock: systemClock,
    random: Math.random,
  });
  const deps = createMonitorDeps({
    clock: systemClock,
    dbPath: ws.dbPath,
    watchlist: async () => {
      const result = await loadWatchlist(ws.watchlistPath);
      return result.ok ? result.watchlist : null;
    },
    datajud: http,
    summarizer: { model: "claude-fake-1", runTokenBudget: 200_000, dailyTokenBudget: 1_000_000 },
    timezone: "America/Sao_Paulo",
  });
  const connection = await connectInProcess(
    createDataJudServer({ reader: new CaseReader(http), monitor: deps.deps }),
  );
  return {
    connection,
    async close() {
      await connection.close();
      deps.close();
    },
  };
}
