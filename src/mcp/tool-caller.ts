import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { z } from "zod";
import { followAbort } from "../abort.js";
import { DataJudError, type DataJudErrorKind } from "../datajud/errors.js";
import { ToolErrorPayload } from "./tool-schemas.js";

const KINDS: ReadonlySet<string> = new Set<DataJudErrorKind>([
  "auth",
  "forbidden",
  "bad_request",
  "unknown_index",
  "rate_limited",
  "server",
  "timeout",
  "deadline",
  "network",
  "partial_shards",
  "rejected",
  "bad_response",
  "cancelled",
  "invalid_input",
  "unsupported_court",
]);

export interface CallOptions {
  signal?: AbortSignal;
  /** Without progress, a DataJud call with retries can exceed the SDK's 60 s default. */
  timeoutMs: number;
}

function textOf(result: unknown): string {
  const raw =
    result !== null && typeof result === "object" && "content" in result ? result.content : [];
  const content: unknown[] = Array.isArray(raw) ? raw : [];
  return content
    .map((part: unknown) =>
      part && typeof part === "object" && "text" in part && typeof part.text === "string"
        ? part.text
        : "",
    )
    .join("\n");
}

/** An `isError` tool result back into the typed error it started as. */
export function errorFromToolResult(tool: string, result: unknown): DataJudError {
  const text = textOf(result);
  try {
    const payload = ToolErrorPayload.safeParse(JSON.parse(text));
    if (payload.success) {
      const { kind, message, retryable } = payload.data.error;
      return new DataJudError(
        KINDS.has(kind) ? (kind as DataJudErrorKind) : "bad_response",
        message,
        {
          retryable,
        },
      );
    }
  } catch {
    // The SDK's own errors (bad arguments, output validation) are plain text.
  }
  return new DataJudError("bad_response", `${tool} failed: ${text || "no message"}`, {
    retryable: false,
  });
}

/**
 * Calls one tool and returns its structured result, validated; failures are thrown as DataJudError.
 * The SDK adds an abort listener to the signal of every request and never removes it, so a signal
 * shared across calls piles them up (Node warns past 10): each call gets its own, following it.
 */
export async function callTool<S extends z.ZodType>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  schema: S,
  options: CallOptions,
): Promise<z.infer<S>> {
  const outer = options.signal;
  const local = outer && !outer.aborted ? new AbortController() : undefined;
  const unfollow = local ? followAbort(outer, local) : () => undefined;
  const signal = local?.signal ?? outer;
  let result: Awaited<ReturnType<Client["callTool"]>>;
  try {
    result = await client.callTool({ name, arguments: args }, undefined, {
      timeout: options.timeoutMs,
      resetTimeoutOnProgress: true,
      onprogress: () => undefined,
      ...(signal ? { signal } : {}),
    });
  } finally {
    unfollow();
  }
  if (result.isError) throw errorFromToolResult(name, result);
  const parsed = schema.safeParse(result.structuredContent);
  if (!parsed.success) {
    throw new DataJudError(
      "bad_response",
      `${name} returned an unexpected shape: ${parsed.error.message}`,
      {
        retryable: false,
      },
    );
  }
  return parsed.data;
}
