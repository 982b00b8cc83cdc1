import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { READ_ONLY, readerOf, type ToolDeps } from "../tool-deps.js";
import { toolFailure, toolSuccess, withHeartbeat } from "../tool-result.js";
import { ReadCasesOutput } from "../tool-schemas.js";
import { BatchInput, groupByCourt } from "./batch-targets.js";

export function registerReadCases(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    "read_cases",
    {
      title: "Read many cases in full",
      description:
        "Full records (every instance, every movement) of many case numbers at once, one DataJud request per 100 numbers of a court. found:false only when DataJud answered cleanly without the case.",
      inputSchema: BatchInput,
      outputSchema: ReadCasesOutput.shape,
      annotations: { title: "Read many cases in full", ...READ_ONLY },
    },
    async ({ cnjNumbers, court }, extra) => {
      try {
        const groups = groupByCourt(cnjNumbers, court);
        const output: ReadCasesOutput = { cases: [] };
        await withHeartbeat(extra, deps.heartbeatMs, async () => {
          for (const [alias, targets] of groups) {
            const results = await readerOf(deps).readCases(
              alias,
              targets.map((t) => t.digits),
              extra.signal,
            );
            for (const result of results) {
              output.cases.push({
                cnjNumber: result.cnjNumber,
                court: alias,
                found: result.found,
                records: result.records,
                provenance: result.provenance,
              });
            }
          }
        });
        return toolSuccess(output);
      } catch (error) {
        return toolFailure(error);
      }
    },
  );
}
