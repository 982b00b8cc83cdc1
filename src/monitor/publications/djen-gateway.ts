import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { callTool } from "../../mcp/tool-caller.js";
import {
  type PublicationSource,
  ReadPublicationsOutput,
} from "../../mcp/tools/read-publications.js";

export type { PublicationSource } from "../../mcp/tools/read-publications.js";

/** A window of disponibilização dates, both included, YYYY-MM-DD. */
export interface DjenWindow {
  from: string;
  to: string;
}

/** How the monitor reaches DJEN: only through the MCP tools, never the HTTP client itself. */
export interface PublicationGateway {
  read(
    sources: {
      cnjNumbers: readonly string[];
      oab: readonly string[];
      /** Parties' names (the radar); absent: none. */
      parties?: readonly string[];
    },
    window: DjenWindow,
    signal?: AbortSignal,
  ): Promise<PublicationSource[]>;
}

export function mcpPublicationGateway(
  client: Client,
  options: { timeoutMs: number },
): PublicationGateway {
  return {
    read: async (sources, window, signal) => {
      const args = {
        cnjNumbers: [...sources.cnjNumbers],
        oab: [...sources.oab],
        ...(sources.parties === undefined || sources.parties.length === 0
          ? {}
          : { parties: [...sources.parties] }),
        from: window.from,
        to: window.to,
      };
      const result = await callTool(client, "read_publications", args, ReadPublicationsOutput, {
        timeoutMs: options.timeoutMs,
        ...(signal ? { signal } : {}),
      });
      return result.sources;
    },
  };
}
