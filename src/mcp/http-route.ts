import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Route } from "../http/server.js";

export interface McpHttpRouteOptions {
  /** A fresh server per request: stateless, nothing one client does is seen by another. */
  createServer: () => McpServer;
  maxBodyBytes: number;
}

const NOT_ALLOWED = {
  jsonrpc: "2.0",
  error: { code: -32000, message: "Method not allowed: this server is stateless, POST only." },
  id: null,
};

/**
 * MCP over stateless Streamable HTTP at /mcp: each POST gets its own server and transport, closed
 * when the response ends (which also aborts a tool call whose client went away). GET (a stream
 * for server-initiated messages) and DELETE (ending a session) mean nothing without sessions.
 */
export function mcpHttpRoute(options: McpHttpRouteOptions): Route {
  return {
    path: "/mcp",
    auth: "bearer",
    async handle(req, res) {
      if (req.method !== "POST") {
        res.writeHead(405, { allow: "POST", "content-type": "application/json" });
        res.end(JSON.stringify(NOT_ALLOWED));
        return;
      }
      const server = options.createServer();
      const transport = new StreamableHTTPServerTransport({
        maxRequestBodySize: options.maxBodyBytes,
      });
      res.on("close", () => {
        transport.close().catch(() => undefined);
        server.close().catch(() => undefined);
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    },
  };
}
