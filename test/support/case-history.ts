import { GetCaseHistoryOutput } from "../../src/mcp/history-schemas.js";
import { connectInProcess } from "../../src/mcp/in-process-client.js";
import { createMonitorDeps } from "../../src/mcp/monitor-deps.js";
import { createDataJudServer } from "../../src/mcp/server.js";
import { callTool } from "../../src/mcp/tool-caller.js";
import { systemClock } from "../../src/time/clock.js";

/** A case's history as the MCP tool `get_case_history` answers it, over a workspace's database. */
export async function caseHistory(
  dbPath: string,
  cnjNumber: string,
): Promise<GetCaseHistoryOutput> {
  const deps = createMonitorDeps({
    clock: systemClock,
    dbPath,
    watchlist: async () => null,
    datajud: null,
    summarizer: { model: null, runTokenBudget: 1, dailyTokenBudget: 1 },
    timezone: "America/Sao_Paulo",
  });
  const connection = await connectInProcess(
    createDataJudServer({ reader: null, monitor: deps.deps }),
  );
  try {
    return await callTool(
      connection.client,
      "get_case_history",
      { cnjNumber },
      GetCaseHistoryOutput,
      { timeoutMs: 30_000 },
    );
  } finally {
    await connection.close();
    deps.close();
  }
}
