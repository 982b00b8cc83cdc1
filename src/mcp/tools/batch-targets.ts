import { z } from "zod";
import type { ResolvedCase } from "../tool-result.js";
import { resolveCase } from "../tool-result.js";

export const BatchInput = {
  cnjNumbers: z
    .array(z.string())
    .min(1)
    .max(1000)
    .describe("CNJ numbers, formatted or 20 digits (up to 1000; batched 100 per DataJud request)"),
  court: z
    .string()
    .optional()
    .describe(
      "read every number from this court alias (e.g. stj); default: each number's own court",
    ),
};

/** Numbers grouped by the index they are read from, in the order first seen. */
export function groupByCourt(
  cnjNumbers: readonly string[],
  court: string | undefined,
): Map<string, ResolvedCase[]> {
  const groups = new Map<string, ResolvedCase[]>();
  for (const number of cnjNumbers) {
    const target = resolveCase(number, court);
    const group = groups.get(target.court) ?? [];
    group.push(target);
    groups.set(target.court, group);
  }
  return groups;
}
