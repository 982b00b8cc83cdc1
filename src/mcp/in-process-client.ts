import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SERVER_VERSION } from "./server.js";

/**
 * The only place that wires the in-process transport, so a move to the SDK's v2 packages is one
 * change. The monitor uses the same MCP server `monitor mcp` exposes, through a real Client.
 */
export interface InProcessConnection {
  client: Client;
  close(): Promise<void>;
}

export async function connectInProcess(server: McpServer): Promise<InProcessConnection> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "datajud-monitor-sweep", version: SERVER_VERSION });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
