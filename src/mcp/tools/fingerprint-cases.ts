import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { READ_ONLY, readerOf, type ToolDeps } from "../tool-deps.js";
import { toolFailure, toolSuccess, withHeartbeat } from "../tool-result.js";
import { FingerprintCasesOutput } from "../tool-schemas.js";
import { BatchInput, groupByCourt } from "./batch-targets.js";

export function registerFingerprintCases(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    "fingerprint_cases",
    {
      title: "Fingerprint many cases",
      description:
        "For many case numbers at once, returns per instance record DataJud's last-update and index times and a fingerprint that changes when DataJud touches the record. Costs one DataJud request per 100 numbers of a court. Used to notice changes cheaply; read_cases then fetches the full records.",
      inputSchema: BatchInput,
      outputSchema: FingerprintCasesOutput.shape,
      annotations: { title: "Fingerprint many cases", ...READ_ONLY },
    },
    async ({ cnjNumbers, court }, extra) => {
      try {
        const groups = groupByCourt(cnjNumbers, court);
        const output: FingerprintCasesOutput = { cases: [] };
        await withHeartbeat(extra, deps.heartbeatMs, async () => {
          for (const [alias, targets] of groups) {
            const results = await readerOf(deps).fingerprintCases(
              alias,
              targets.map((t) => t.digits),
              extra.signal,
            );
            for (const result of results) output.cases.push({ ...result, court: alias });
          }
        });
        return toolSuccess(output);
      } catch (error) {
        return toolFailure(error);
      }
    },
  );
}
