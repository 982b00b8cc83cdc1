import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "./read-body.js";

/**
 * A loopback stand-in for the Messages API: POST /v1/messages answered from a script, every
 * request body recorded. The real SDK is pointed at it with `baseURL` and `apiKey`.
 */

export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export type FakeContentBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: unknown };

export type FakeReply =
  | {
      kind: "message";
      content: FakeContentBlock[];
      stop_reason: string;
      usage?: FakeUsage;
      model?: string;
    }
  | {
      kind: "error";
      status: number;
      errorType: string;
      message: string;
      headers?: Record<string, string>;
    }
  /** Never answers; the socket is destroyed when the fake closes. */
  | { kind: "hang" }
  /** Decided when the request arrives, from what it asks (a model that reads its prompt). */
  | { kind: "script"; reply: (body: Record<string, unknown>) => FakeReply };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

export interface FakeAnthropic {
  url: string;
  apiKey: string;
  requests: RecordedRequest[];
  /** Replies, consumed one per request in order. */
  enqueue(...replies: FakeReply[]): void;
  /** Replies not consumed yet. */
  pending(): number;
  /** Forgets the script and the recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

export const FAKE_MODEL = "claude-fake-1";

export const DEFAULT_USAGE: FakeUsage = {
  input_tokens: 1200,
  output_tokens: 300,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 2000,
};

/** A final structured answer: the JSON text the model would produce. */
export function finalReply(value: unknown, usage: FakeUsage = DEFAULT_USAGE): FakeReply {
  return {
    kind: "message",
    content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value) }],
    stop_reason: "end_turn",
    usage,
  };
}

let toolUseCounter = 0;

/** Everything the request showed the model, as one text: system prompt and messages. */
export function promptText(body: Record<string, unknown>): string {
  return JSON.stringify([body.system, body.messages]);
}

/**
 * A model that does what text in its prompt tells it to: when the prompt carries `trigger`
 * (injected in a movement's complement, say), it answers `obeyed`; otherwise `honest`.
 */
export function obeysInjection(trigger: string, obeyed: unknown, honest: unknown): FakeReply {
  return {
    kind: "script",
    reply: (body) => finalReply(promptText(body).includes(trigger) ? obeyed : honest),
  };
}

/** One assistant turn calling these tools (several = parallel calls). */
export function toolUseReply(
  calls: Array<{ name: string; input: unknown; id?: string }>,
  usage: FakeUsage = DEFAULT_USAGE,
): FakeReply {
  return {
    kind: "message",
    content: calls.map((c) => ({
      type: "tool_use" as const,
      id: c.id ?? `toolu_fake_${++toolUseCounter}`,
      name: c.name,
      input: c.input,
    })),
    stop_reason: "tool_use",
    usage,
  };
}

export function stopReply(
  stopReason: string,
  text = "",
  usage: FakeUsage = DEFAULT_USAGE,
): FakeReply {
  return {
    kind: "message",
    content: text === "" ? [] : [{ type: "text", text }],
    stop_reason: stopReason,
    usage,
  };
}

/** `retry-after-ms` keeps the SDK's retries fast in tests. */
export function errorReply(
  status: 529 | 500 | 429 | 400 | 401 | number,
  message = "fake error",
): FakeReply {
  const errorType =
    status === 529
      ? "overloaded_error"
      : status === 429
        ? "rate_limit_error"
        : status === 401
          ? "authentication_error"
          : status >= 500
            ? "api_error"
            : "invalid_request_error";
  return { kind: "error", status, errorType, message, headers: { "retry-after-ms": "5" } };
}

function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "request-id": `req_fake_${Date.now()}`,
    ...headers,
  });
  res.end(text);
}

function sendError(
  res: ServerResponse,
  status: number,
  errorType: string,
  message: string,
  headers?: Record<string, string>,
): void {
  sendJson(res, status, { type: "error", error: { type: errorType, message } }, headers);
}

export async function startFakeAnthropic(
  options: { apiKey?: string } = {},
): Promise<FakeAnthropic> {
  const apiKey = options.apiKey ?? "sk-ant-fake-test-key";
  const queue: FakeReply[] = [];
  const requests: RecordedRequest[] = [];
  let messageCounter = 0;

  const server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        sendError(res, 400, "invalid_request_error", "body is not JSON");
        return;
      }
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      if (req.method !== "POST" || req.url?.split("?")[0] !== "/v1/messages") {
        sendError(res, 404, "not_found_error", `no route ${req.method} ${req.url}`);
        return;
      }
      // SDK 1.15 sends the key as a bearer token; older clients used x-api-key.
      if (req.headers.authorization !== `Bearer ${apiKey}` && req.headers["x-api-key"] !== apiKey) {
        sendError(res, 401, "authentication_error", "invalid API key");
        return;
      }
      const next = queue.shift();
      const reply = next?.kind === "script" ? next.reply(body) : next;
      if (reply === undefined) {
        // Not retryable, so a test that calls more often than it scripted fails fast and clearly.
        sendError(res, 400, "invalid_request_error", "fake-anthropic: no scripted reply left");
        return;
      }
      switch (reply.kind) {
        case "hang":
        case "script":
          return;
        case "error":
          sendError(res, reply.status, reply.errorType, reply.message, reply.headers);
          return;
        case "message":
          sendJson(res, 200, {
            id: `msg_fake_${++messageCounter}`,
            type: "message",
            role: "assistant",
            model: reply.model ?? (typeof body.model === "string" ? body.model : FAKE_MODEL),
            content: reply.content,
            stop_reason: reply.stop_reason,
            stop_sequence: null,
            stop_details: null,
            container: null,
            usage: {
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: 0,
              ...(reply.usage ?? DEFAULT_USAGE),
              service_tier: "standard",
            },
          });
      }
    })().catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, "api_error", String(error));
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    requests,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    pending: () => queue.length,
    reset: () => {
      queue.length = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
