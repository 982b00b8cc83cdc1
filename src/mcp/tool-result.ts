import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { parseCnjNumber } from "../datajud/cnj-number.js";
import { lookupIndices, resolveCourt } from "../datajud/courts.js";
import { invalidInput } from "../datajud/errors.js";
import { errorPayload } from "./tool-errors.js";

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export function toolSuccess<T extends Record<string, unknown>>(value: T): CallToolResult {
  return { structuredContent: value, content: [{ type: "text", text: JSON.stringify(value) }] };
}

/**
 * A failure is a value the caller can act on, never an empty or "not found" answer.
 * No structuredContent: clients validate it against the success schema.
 */
export function toolFailure(error: unknown): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(errorPayload(error)) }] };
}

/**
 * A tool's callback from the function that builds its answer: what it returns is the structured
 * result, whatever it throws the error envelope.
 */
export function answered<Args, Extra = ToolExtra>(
  answer: (args: Args, extra: Extra) => Record<string, unknown> | Promise<Record<string, unknown>>,
): (args: Args, extra: Extra) => Promise<CallToolResult> {
  return async (args, extra) => {
    try {
      return toolSuccess(await answer(args, extra));
    } catch (error) {
      return toolFailure(error);
    }
  };
}

/**
 * Runs a slow DataJud call, sending a progress notification every `intervalMs` when the client
 * asked for progress, so clients that reset their timeout on progress keep waiting.
 */
export async function withProgress<T>(
  extra: ToolExtra,
  intervalMs: number,
  work: () => Promise<T>,
  message = "waiting for DataJud",
): Promise<T> {
  const token = extra._meta?.progressToken;
  if (token === undefined) return work();
  let notes = 0;
  const timer = setInterval(() => {
    notes++;
    extra
      .sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: notes, message },
      })
      .catch(() => undefined);
  }, intervalMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

export interface ResolvedCase {
  digits: string;
  formatted: string;
  /** The first index to ask. */
  court: string;
  /** Every index to ask, in order: an explicit court alone, else the number's own court and its successors. */
  indices: string[];
}

/** Parses and checks a CNJ number and picks the indices to read it from. */
export function resolveCase(cnjNumber: string, court: string | undefined): ResolvedCase {
  const parsed = parseCnjNumber(cnjNumber);
  if (!parsed.ok) throw invalidInput(parsed.error);
  const resolved = resolveCourt(parsed.value, court);
  return {
    digits: parsed.value.digits,
    formatted: parsed.value.formatted,
    court: resolved,
    indices: court === undefined ? lookupIndices(parsed.value, resolved) : [resolved],
  };
}
