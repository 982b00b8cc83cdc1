import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { recordOverview } from "../movement-view.js";
import {
  CNJ_NUMBER_DESCRIPTION,
  COURT_DESCRIPTION,
  READ_ONLY,
  readerOf,
  type ToolDeps,
} from "../tool-deps.js";
import { answered, resolveCase, withProgress } from "../tool-result.js";
import { GetCaseOutput } from "../tool-schemas.js";
import { lookUpCase } from "./batch-targets.js";

export function registerGetCase(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    "get_case",
    {
      title: "Get a court case",
      description:
        "Reads a Brazilian court case from CNJ's DataJud: one record per instance (first instance, appeal, ...) with class, subjects, court unit, dates, movement count and the latest movement (DataJud's fields, and beside them its title as a lawyer reads it, its complements in words and its meaning). found:false only when DataJud answered cleanly without the case; failures are errors, never 'not found'. Use list_movements for the movements themselves.",
      inputSchema: {
        cnjNumber: z.string().describe(CNJ_NUMBER_DESCRIPTION),
        court: z.string().optional().describe(COURT_DESCRIPTION),
      },
      outputSchema: GetCaseOutput.shape,
      annotations: { title: "Get a court case", ...READ_ONLY },
    },
    answered(async ({ cnjNumber, court }, extra) => {
      const target = resolveCase(cnjNumber, court);
      const lookup = await withProgress(extra, deps.progressEveryMs, () =>
        lookUpCase(readerOf(deps), target, extra.signal),
      );
      const output: GetCaseOutput = {
        court: lookup.court,
        cnjNumber: lookup.cnjNumber,
        found: lookup.found,
        records: lookup.records.map(recordOverview),
        provenance: lookup.provenance,
      };
      return output;
    }),
  );
}
