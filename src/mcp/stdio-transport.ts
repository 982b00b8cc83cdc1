import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../log.js";

/** The MCP SDK's own stdio limit; a longer line is dropped here instead of ending the server. */
export const STDIO_MAX_MESSAGE_BYTES = 10 * 2 ** 20;

/**
 * How much of each end of a dropped message is kept to find its id: clients write it first or
 * last (the SDK's own client writes method, params, jsonrpc, id).
 */
const END_BYTES = 4096;

/** JSON-RPC's "Invalid Request". */
const INVALID_REQUEST = -32600;

export interface StdioTransportOptions {
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  maxMessageBytes?: number;
  logger: Logger;
}

const ID_VALUE = String.raw`("(?:[^"\\]|\\.){0,200}"|-?\d{1,15})`;
/** The id as the message's first key (after "jsonrpc"), or as its last. */
const ID_FIRST = new RegExp(
  String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*` + ID_VALUE,
);
const ID_LAST = new RegExp(String.raw`"id"\s*:\s*` + ID_VALUE + String.raw`\s*\}\s*$`);

/** The request id of a message seen only by its two ends; null when neither shows it. */
function idOf(head: string, tail: string): string | number | null {
  const raw = ID_FIRST.exec(head)?.[1] ?? ID_LAST.exec(tail.replace(/\r$/, ""))?.[1];
  if (raw === undefined) return null;
  try {
    const id: unknown = JSON.parse(raw);
    return typeof id === "string" || typeof id === "number" ? id : null;
  } catch {
    return null;
  }
}

/**
 * MCP over stdio, one JSON-RPC message per line, like the SDK's StdioServerTransport, except
 * for a line longer than `maxMessageBytes`: the SDK closes its transport on one (and every later
 * call fails); this one drops that message without holding it, answers its request with an
 * error when its id can be seen, logs a line, and keeps serving.
 */
export class BoundedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #stdin: NodeJS.ReadableStream;
  readonly #stdout: NodeJS.WritableStream;
  readonly #max: number;
  readonly #logger: Logger;
  #chunks: Buffer[] = [];
  #size = 0;
  /** While a line too long is being skipped: its first and last bytes, and its length so far. */
  #skipping: { head: Buffer; tail: Buffer; bytes: number } | null = null;
  #started = false;

  constructor(options: StdioTransportOptions) {
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
    this.#max = options.maxMessageBytes ?? STDIO_MAX_MESSAGE_BYTES;
    this.#logger = options.logger;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error("the stdio transport is already started");
    this.#started = true;
    this.#stdin.on("data", this.#onData);
    this.#stdin.on("error", this.#onError);
  }

  async close(): Promise<void> {
    this.#stdin.off("data", this.#onData);
    this.#stdin.off("error", this.#onError);
    if (this.#stdin.listenerCount("data") === 0) this.#stdin.pause();
    this.#chunks = [];
    this.#size = 0;
    this.#skipping = null;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.#stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.#stdout.once("drain", resolve);
    });
  }

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onData = (data: Buffer | string): void => {
    let chunk = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    for (;;) {
      const newline = chunk.indexOf(0x0a);
      const part = newline === -1 ? chunk : chunk.subarray(0, newline);
      this.#take(part);
      if (newline === -1) return;
      this.#endLine();
      chunk = chunk.subarray(newline + 1);
    }
  };

  #take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.#skipping !== null) {
      const tail = Buffer.concat([this.#skipping.tail, part.subarray(-END_BYTES)]);
      this.#skipping.tail = tail.subarray(-END_BYTES);
      this.#skipping.bytes += part.length;
      return;
    }
    if (this.#size + part.length > this.#max) {
      const held = Buffer.concat([...this.#chunks, part]);
      this.#skipping = {
        head: Buffer.from(held.subarray(0, END_BYTES)),
        tail: Buffer.from(held.subarray(-END_BYTES)),
        bytes: held.length,
      };
      this.#chunks = [];
      this.#size = 0;
      return;
    }
    this.#chunks.push(part);
    this.#size += part.length;
  }

  #endLine(): void {
    if (this.#skipping !== null) {
      const { head, tail, bytes } = this.#skipping;
      this.#skipping = null;
      this.#refuse(head.toString("utf8"), tail.toString("utf8"), bytes);
      return;
    }
    const line = Buffer.concat(this.#chunks, this.#size).toString("utf8").replace(/\r$/, "");
    this.#chunks = [];
    this.#size = 0;
    if (line.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  }

  #refuse(head: string, tail: string, bytes: number): void {
    const id = idOf(head, tail);
    const limit =
      this.#max >= 2 ** 20
        ? `${Math.round(this.#max / 2 ** 20)} MiB`
        : `${this.#max.toLocaleString("en")} bytes`;
    this.#logger.warn({ bytes, id, limit }, "MCP message larger than the limit dropped");
    if (id === null) return;
    void this.send({
      jsonrpc: "2.0",
      id,
      error: {
        code: INVALID_REQUEST,
        message: `the message is ${bytes.toLocaleString("en")} bytes, larger than ${limit}: it was dropped unread; send less at once`,
      },
    });
  }
}
