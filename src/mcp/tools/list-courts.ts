import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { COURTS, SEGMENTS } from "../../datajud/courts.js";
import { READ_ONLY } from "../tool-deps.js";
import { toolSuccess } from "../tool-result.js";
import { ListCourtsOutput } from "../tool-schemas.js";

export function registerListCourts(server: McpServer): void {
  server.registerTool(
    "list_courts",
    {
      title: "List DataJud courts",
      description:
        "Lists the 91 court indices of DataJud's public API (alias, name, segment). STF is not among them.",
      inputSchema: {
        segment: z.enum(SEGMENTS).optional(),
      },
      outputSchema: ListCourtsOutput.shape,
      annotations: { title: "List DataJud courts", ...READ_ONLY, openWorldHint: false },
    },
    ({ segment }) => {
      const courts = COURTS.filter((c) => segment === undefined || c.segment === segment).map(
        (c) => ({ alias: c.alias, name: c.name, segment: c.segment }),
      );
      return toolSuccess({ courts } satisfies ListCourtsOutput);
    },
  );
}
