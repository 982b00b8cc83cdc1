import { PassThrough } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log.js";
import { BoundedStdioServerTransport } from "../../../src/mcp/stdio-transport.js";

function harness(maxMessageBytes: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const logged: string[] = [];
  const logger = createLogger({
    level: "warn",
    destination: { write: (line: string) => logged.push(line) },
  });
  const transport = new BoundedStdioServerTransport({ stdin, stdout, maxMessageBytes, logger });
  const received: JSONRPCMessage[] = [];
  const sent: unknown[] = [];
  transport.onmessage = (m) => received.push(m);
  stdout.on("data", (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n").filter(Boolean))
      sent.push(JSON.parse(line));
  });
  return { stdin, transport, received, sent, logged };
}

const ping = (id: number): string => `${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`;

describe("BoundedStdioServerTransport", () => {
  it("drops a message past the limit, answers it by id (first or last key), and reads the next ones", async () => {
    const { stdin, transport, received, sent, logged } = harness(1000);
    await transport.start();
    const big = "x".repeat(5000);

    // Written in pieces, as a pipe delivers them.
    stdin.write(
      `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":"${big.slice(0, 2000)}`,
    );
    stdin.write(`${big.slice(2000)}"}}\n${ping(8)}`);
    stdin.write(
      `{"method":"tools/call","params":{"id":99,"a":"${big}"},"jsonrpc":"2.0","id":"last"}\n`,
    );
    stdin.write(`{"method":"x","params":{"a":"${big}"}}\n${ping(9)}`);
    await new Promise((r) => setImmediate(r));

    expect(received).toEqual([
      { jsonrpc: "2.0", id: 8, method: "ping" },
      { jsonrpc: "2.0", id: 9, method: "ping" },
    ]);
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        id: 7,
        error: {
          code: -32600,
          message: expect.stringMatching(/5,\d{3} bytes, larger than 1,000 bytes/),
        },
      },
      { jsonrpc: "2.0", id: "last", error: { code: -32600, message: expect.any(String) } },
    ]);
    expect(logged).toHaveLength(3);
    expect(logged[0]).toContain("MCP message larger than the limit dropped");
  });

  it("keeps a message exactly at the limit", async () => {
    const { stdin, transport, received } = harness(ping(1).length - 1);
    await transport.start();

    stdin.write(ping(1));
    await new Promise((r) => setImmediate(r));

    expect(received).toEqual([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
  });
});
