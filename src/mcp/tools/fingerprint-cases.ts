import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { READ_ONLY, type ToolDeps } from "../tool-deps.js";
import { answered } from "../tool-result.js";
import { FingerprintCasesOutput } from "../tool-schemas.js";
import { BatchInput, lookUpBatch } from "./batch-targets.js";

export function registerFingerprintCases(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    "fingerprint_cases",
    {
      title: "Fingerprint many cases",
      description:
        "For many case numbers at once, returns per instance record DataJud's last-update and index times and a fingerprint that changes when DataJud touches the record. Costs one DataJud request per 100 numbers of a court. Without court, a number its own court's index answers without (cleanly) is looked for in the court that took its cases over (TRF1 numbers in TRF6); court says where it was found. Used to notice changes cheaply; read_cases then fetches the full records.",
      inputSchema: BatchInput,
      outputSchema: FingerprintCasesOutput.shape,
      annotations: { title: "Fingerprint many cases", ...READ_ONLY },
    },
    answered(async (input, extra) => {
      const looked = await lookUpBatch(deps, extra, input, (reader, alias, digits) =>
        reader.fingerprintCases(alias, digits, extra.signal),
      );
      const output: FingerprintCasesOutput = {
        cases: looked.map(({ court: alias, result }) => ({ ...result, court: alias })),
      };
      return output;
    }),
  );
}
