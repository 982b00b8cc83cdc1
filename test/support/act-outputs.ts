import readXlsxFile from "read-excel-file/node";
import type { GetCaseHistoryOutput } from "../../src/mcp/history-schemas.js";
import { callTool } from "../../src/mcp/tool-caller.js";
import { GetCaseOutput } from "../../src/mcp/tool-schemas.js";
import type { FakeDataJud } from "../fakes/fake-datajud.js";
import { caseHistory } from "./case-history.js";
import { baseEnv, cliInProcess, type Workspace } from "./cli-harness.js";
import { connectMonitorMcp } from "./monitor-mcp.js";

/**
 * Everything that reads a case once the sweep recorded it, besides the alert: `history` as text,
 * JSON, CSV and XLSX, `export`, and the MCP's get_case_history (the database) and get_case (the
 * fake DataJud). One call per output, so a test of an act checks them all in one place.
 */
export interface CaseOutputs {
  historyText: string;
  /** `history --json`: each change with its stored summary and its movements' titles. */
  historyJson: {
    cases: Array<{
      changes: Array<{
        summary: {
          content: { attentionReasons?: Array<{ reason: string }>; nextExpectedStep?: string };
        } | null;
        movements: Array<{ code: number | null; title: string }>;
      }>;
    }>;
  };
  /** `history --format csv`, one line a row, header first. */
  historyCsv: string[];
  /** `export` (CSV), one line a row, header first. */
  exportCsv: string[];
  /** `history --format xlsx`, the first sheet's rows, header first. */
  historyXlsx: unknown[][];
  mcpHistory: GetCaseHistoryOutput;
  mcpCase: GetCaseOutput;
}

export async function caseOutputs(
  ws: Workspace,
  datajud: FakeDataJud,
  cnjNumber: string,
): Promise<CaseOutputs> {
  const env = baseEnv(ws, datajud);
  const cli = async (...argv: string[]) => {
    const run = await cliInProcess(argv, env, ws.dir);
    if (run.code !== 0) throw new Error(`${argv.join(" ")} exited ${run.code}: ${run.stderr}`);
    return run;
  };
  const lines = (text: string) => text.trim().split("\r\n");
  const historyText = (await cli("history", cnjNumber)).stdout;
  const historyJson = JSON.parse((await cli("history", cnjNumber, "--json")).stdout);
  const historyCsv = lines((await cli("history", cnjNumber, "--format", "csv")).stdout);
  const exportCsv = lines((await cli("export")).stdout);
  const xlsx = await cli("history", cnjNumber, "--format", "xlsx");
  const [sheet] = await readXlsxFile(xlsx.stdoutBytes ?? Buffer.alloc(0));
  const mcpHistory = await caseHistory(ws.dbPath, cnjNumber);
  const mcp = await connectMonitorMcp(ws, datajud);
  try {
    const mcpCase = await callTool(
      mcp.connection.client,
      "get_case",
      { cnjNumber },
      GetCaseOutput,
      {
        timeoutMs: 30_000,
      },
    );
    return {
      historyText,
      historyJson,
      historyCsv,
      exportCsv,
      historyXlsx: (sheet?.data ?? []) as unknown[][],
      mcpHistory,
      mcpCase,
    };
  } finally {
    await mcp.close();
  }
}
