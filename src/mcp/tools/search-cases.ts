import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { findCourt, unknownCourtMessage } from "../../datajud/courts.js";
import { invalidInput } from "../../datajud/errors.js";
import type { CaseSearchFilters } from "../../datajud/queries.js";
import { recordOverview } from "../movement-view.js";
import { READ_ONLY, readerOf, type ToolDeps } from "../tool-deps.js";
import { answered, withProgress } from "../tool-result.js";
import { SearchCasesOutput } from "../tool-schemas.js";

export function registerSearchCases(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    "search_cases",
    {
      title: "Search cases in one court",
      description:
        "Searches one court's DataJud index by class, subjects, court unit and filing dates (at least one filter). Dates are ISO (YYYY-MM-DD) and are converted to DataJud's stored form. There is no free-text search. Page with nextCursor.",
      inputSchema: {
        court: z.string().describe("DataJud court alias, e.g. tjsp (see list_courts)"),
        classCode: z.number().int().optional().describe("TPU class code (classe.codigo)"),
        className: z.string().optional().describe("class name, e.g. Procedimento Comum Cível"),
        subjectCodes: z.array(z.number().int()).max(50).optional().describe("TPU subject codes"),
        courtUnitCode: z
          .number()
          .int()
          .optional()
          .describe("court unit code (orgaoJulgador.codigo)"),
        filedFrom: z.string().optional().describe("filed on or after, YYYY-MM-DD"),
        filedTo: z.string().optional().describe("filed on or before, YYYY-MM-DD"),
        size: z.number().int().min(1).max(50).default(10),
        cursor: z.string().optional().describe("nextCursor from the previous page"),
      },
      outputSchema: SearchCasesOutput.shape,
      annotations: { title: "Search cases in one court", ...READ_ONLY },
    },
    answered(async ({ court, size, cursor, ...rest }, extra) => {
      const known = findCourt(court);
      if (!known) throw invalidInput(unknownCourtMessage(court));
      const filters: CaseSearchFilters = Object.fromEntries(
        Object.entries(rest).filter(([, value]) => value !== undefined),
      );
      const page = await withProgress(extra, deps.progressEveryMs, () =>
        readerOf(deps).searchCases(known.alias, filters, size, cursor, extra.signal),
      );
      const output: SearchCasesOutput = {
        court: page.court,
        total: page.total,
        results: page.results.map(recordOverview),
        nextCursor: page.nextCursor,
        provenance: page.provenance,
      };
      return output;
    }),
  );
}
