import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { z } from "zod";
import { followAbort } from "../../abort.js";
import { callTool } from "../../mcp/tool-caller.js";
import { FingerprintCasesOutput, ReadCasesOutput } from "../../mcp/tool-schemas.js";

export type FingerprintedCase = FingerprintCasesOutput["cases"][number];
export type ReadCase = ReadCasesOutput["cases"][number];

/** How the monitor reaches DataJud: only through the MCP tools, never the HTTP client itself. */
export interface DataJudGateway {
  fingerprint(
    court: string,
    numbers: readonly string[],
    signal?: AbortSignal,
  ): Promise<FingerprintedCase[]>;
  read(court: string, numbers: readonly string[], signal?: AbortSignal): Promise<ReadCase[]>;
}

/** The tools take at most this many numbers per call; inside, they batch 100 per DataJud request. */
const NUMBERS_PER_CALL = 1000;

/**
 * A signal for one tool call that follows `signal`. The MCP SDK adds an abort listener to the
 * signal of every request and never removes it, so sharing the sweep's signal across calls piles
 * them up (Node warns past 10: MaxListenersExceededWarning); this one's listener goes after the call.
 */
async function withCallSignal<T>(
  signal: AbortSignal | undefined,
  call: (callSignal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (!signal || signal.aborted) return call(signal);
  const local = new AbortController();
  const unfollow = followAbort(signal, local);
  try {
    return await call(local.signal);
  } finally {
    unfollow();
  }
}

export function mcpGateway(client: Client, options: { timeoutMs: number }): DataJudGateway {
  async function batched<S extends z.ZodType<{ cases: unknown[] }>>(
    tool: string,
    schema: S,
    court: string,
    numbers: readonly string[],
    signal: AbortSignal | undefined,
  ): Promise<z.infer<S>["cases"]> {
    const out: z.infer<S>["cases"] = [];
    for (let i = 0; i < numbers.length; i += NUMBERS_PER_CALL) {
      const args = { court, cnjNumbers: numbers.slice(i, i + NUMBERS_PER_CALL) };
      const result = await withCallSignal(signal, (callSignal) =>
        callTool(client, tool, args, schema, {
          timeoutMs: options.timeoutMs,
          ...(callSignal ? { signal: callSignal } : {}),
        }),
      );
      out.push(...result.cases);
    }
    return out;
  }
  return {
    fingerprint: (court, numbers, signal) =>
      batched("fingerprint_cases", FingerprintCasesOutput, court, numbers, signal),
    read: (court, numbers, signal) =>
      batched("read_cases", ReadCasesOutput, court, numbers, signal),
  };
}
