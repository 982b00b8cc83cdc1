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
    "Needs DATAJUD_API_KEY (CNJ's public key).",
  ],
  options: {},
  async run(_args, io) {
    const runtime = loadRuntime(io, "mcp");
    if (!runtime) return EXIT.usage;
    let datajud: ReturnType<typeof createDataJud>;
    try {
      datajud = createDataJud(runtime.config, runtime.logger);
    } catch (error) {
      if (!(error instanceof MissingApiKeyError)) throw error;
      io.stderr.write(`monitor mcp: ${error.message}\n`);
      return EXIT.usage;
    }
    const server = createDataJudServer({ reader: datajud.reader });
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
    runtime.logger.info({ requests: datajud.http.requestCount }, "MCP server stopped");
    return EXIT.ok;
  },
};
