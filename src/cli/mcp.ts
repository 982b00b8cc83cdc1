import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createDataJudServer } from "../mcp/server.js";
import { type Command, EXIT } from "./command.js";
import { createDataJud, loadRuntime, MissingApiKeyError } from "./runtime.js";

export const mcpCommand: Command = {
  name: "mcp",
  summary: "Serve the DataJud tools over MCP stdio (for Claude Desktop / Claude Code)",
  usage: "monitor mcp",
  details: [
    "Tools: get_case, list_movements, search_cases, list_courts, fingerprint_cases, read_cases.",
    "All read-only. Logs go to stderr; stdout carries only the MCP protocol.",
    "The DataJud tools need DATAJUD_API_KEY (CNJ's public key); without it the server still starts",
    "and those tools answer an error (kind config) saying how to set it.",
  ],
  options: {},
  async run(_args, io) {
    const runtime = loadRuntime(io, "mcp");
    if (!runtime) return EXIT.usage;
    let datajud: ReturnType<typeof createDataJud> | null = null;
    let unavailable: string | undefined;
    try {
      datajud = createDataJud(runtime.config, runtime.logger);
    } catch (error) {
      if (!(error instanceof MissingApiKeyError)) throw error;
      // A client that cannot connect only says "Connection closed"; a tool error says what to do.
      unavailable = error.message;
      runtime.logger.warn(
        "DATAJUD_API_KEY is not set: the DataJud tools will answer a config error",
      );
    }
    const server = createDataJudServer({
      reader: datajud?.reader ?? null,
      ...(unavailable === undefined ? {} : { unavailable }),
    });
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once("end", () => resolve());
      io.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await server.connect(transport);
    runtime.logger.info({ tools: 6 }, "MCP server ready on stdio");
    await closed;
    await server.close();
    runtime.logger.info({ requests: datajud?.http.requestCount ?? 0 }, "MCP server stopped");
    return EXIT.ok;
  },
};
