import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { READ_ONLY, type ToolDeps } from "../tool-deps.js";
import { answered } from "../tool-result.js";
import { ReadCasesOutput } from "../tool-schemas.js";
import { BatchInput, lookUpBatch } from "./batch-targets.js";

export function registerReadCases(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    "read_cases",
    {
      title: "Read many cases in full",
      description:
        "Full records (every instance, every movement) of many case numbers at once, one DataJud request per 100 numbers of a court. found:false only when DataJud answered cleanly without the case (error set: this case alone could not be read, e.g. its record passed the size limit) (without court: in the number's own court and in the court that took its cases over, TRF1 numbers in TRF6).",
      inputSchema: BatchInput,
      outputSchema: ReadCasesOutput.shape,
      annotations: { title: "Read many cases in full", ...READ_ONLY },
    },
    answered(async (input, extra) => {
      const looked = await lookUpBatch(deps, extra, input, (reader, alias, digits) =>
        reader.readCases(alias, digits, extra.signal),
      );
      const output: ReadCasesOutput = {
        cases: looked.map(({ court: alias, result }) => ({
          cnjNumber: result.cnjNumber,
          court: alias,
          found: result.found,
          records: result.records,
          provenance: result.provenance,
          error: result.error,
        })),
      };
      return output;
    }),
  );
}
