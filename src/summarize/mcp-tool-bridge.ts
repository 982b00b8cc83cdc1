import type {
  Tool,
  ToolResultBlockParam,
  ToolUseBlock,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

/**
 * The embedded MCP server's tools offered to Claude, and Claude's tool calls answered through
 * the in-process MCP client: one code path for tools, whether Claude Desktop or the summarizer
 * calls them.
 */

/**
 * The tools worth offering to the summarizer. The sweep's own batch tools (fingerprint_cases,
 * read_cases) would only add to the cached prefix: nothing a summary needs comes from them.
 */
export const SUMMARIZER_TOOLS: readonly string[] = [
  "get_case",
  "list_movements",
  "search_cases",
  "list_courts",
];

/** A tool result larger than this is cut: one list_movements page must not fill the context. */
export const MAX_TOOL_RESULT_CHARS = 24_000;

export interface ToolBridge {
  /** Anthropic tool definitions; the last one carries the cache breakpoint for the prefix. */
  tools: Tool[];
  /** Answers every call of one assistant turn, concurrently, in the order they were made. */
  answer(calls: readonly ToolUseBlock[], signal?: AbortSignal): Promise<ToolResultBlockParam[]>;
}

export interface ToolBridgeOptions {
  /** Names to offer; others the server lists are left out. Default: SUMMARIZER_TOOLS. */
  include?: readonly string[];
  /** Per call; DataJud calls with retries take up to a minute, progress resets the clock. */
  timeoutMs?: number;
}

type McpInputSchema = Awaited<ReturnType<Client["listTools"]>>["tools"][number]["inputSchema"];

function toInputSchema(schema: McpInputSchema): Tool.InputSchema {
  const out: Tool.InputSchema = { type: "object" };
  // `$schema` names the dialect only; the Messages API takes the rest as is.
  for (const [key, value] of Object.entries(schema)) {
    if (key !== "$schema" && key !== "type" && value !== undefined) out[key] = value;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function textOfContent(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) =>
      part !== null &&
      typeof part === "object" &&
      "type" in part &&
      part.type === "text" &&
      "text" in part &&
      typeof part.text === "string"
        ? part.text
        : "",
    )
    .filter((text) => text !== "")
    .join("\n");
}

function capped(text: string): string {
  if (text.length <= MAX_TOOL_RESULT_CHARS) return text;
  return `${text.slice(0, MAX_TOOL_RESULT_CHARS)}\n[truncated: ${
    text.length - MAX_TOOL_RESULT_CHARS
  } more characters; ask for fewer movements with limit/since]`;
}

function failure(id: string, message: string): ToolResultBlockParam {
  return { type: "tool_result", tool_use_id: id, is_error: true, content: message };
}

export async function createToolBridge(
  client: Client,
  options: ToolBridgeOptions = {},
): Promise<ToolBridge> {
  const include = new Set(options.include ?? SUMMARIZER_TOOLS);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const listed = await client.listTools();
  const offered = listed.tools.filter((t) => include.has(t.name));
  const tools: Tool[] = offered.map((t, i) => ({
    name: t.name,
    description: t.description ?? t.title ?? t.name,
    input_schema: toInputSchema(t.inputSchema),
    ...(i === offered.length - 1 ? { cache_control: { type: "ephemeral" as const } } : {}),
  }));
  const known = new Set(offered.map((t) => t.name));

  async function answerOne(
    call: ToolUseBlock,
    signal?: AbortSignal,
  ): Promise<ToolResultBlockParam> {
    if (!known.has(call.name)) return failure(call.id, `unknown tool "${call.name}"`);
    const args = isRecord(call.input) ? call.input : {};
    try {
      const result = await client.callTool({ name: call.name, arguments: args }, undefined, {
        timeout: timeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: () => undefined,
        ...(signal ? { signal } : {}),
      });
      const text = capped(
        textOfContent(result.content) || JSON.stringify(result.structuredContent ?? {}),
      );
      return result.isError === true
        ? failure(call.id, text || `${call.name} failed`)
        : { type: "tool_result", tool_use_id: call.id, content: text };
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      return failure(
        call.id,
        `${call.name} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  return {
    tools,
    answer: (calls, signal) => Promise.all(calls.map((call) => answerOne(call, signal))),
  };
}

/** For a turn when no MCP client is wired: every call is answered, as an error. */
export function noToolsBridge(): ToolBridge {
  return {
    tools: [],
    answer: async (calls) => calls.map((call) => failure(call.id, "no tools are available here")),
  };
}
