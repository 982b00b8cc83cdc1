import { z } from "zod";
import type { CaseLookup, CaseReader } from "../../datajud/case-reader.js";
import { LookupPlan } from "../../datajud/lookup-plan.js";
import { readerOf, type ToolDeps } from "../tool-deps.js";
import { type ResolvedCase, resolveCase, type ToolExtra, withProgress } from "../tool-result.js";

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
      "read every number from this court alias (e.g. stj), and only there; default: each number's own court, then the court that took its cases over (a TRF1 number: TRF1, then TRF6)",
    ),
};

/** The numbers parsed and checked, each once, in the order first given. */
export function resolveTargets(
  cnjNumbers: readonly string[],
  court: string | undefined,
): ResolvedCase[] {
  const seen = new Set<string>();
  const out: ResolvedCase[] = [];
  for (const number of cnjNumbers) {
    const target = resolveCase(number, court);
    if (seen.has(target.digits)) continue;
    seen.add(target.digits);
    out.push(target);
  }
  return out;
}

export interface LookedUp<R> {
  target: ResolvedCase;
  /** The index the result comes from. */
  court: string;
  result: R;
}

/**
 * Asks each number's indices in order, one request per index for every number waiting for it.
 * A number's result comes from the first index that has it; a number no index has gets its first
 * index's (clean) answer. A failed request throws: it is never read as "not there, try the next".
 */
export async function lookUpInOrder<
  R extends { cnjNumber: string; found: boolean; error?: unknown },
>(
  targets: readonly ResolvedCase[],
  ask: (alias: string, digits: string[]) => Promise<R[]>,
): Promise<Array<LookedUp<R>>> {
  const plan = new LookupPlan<ResolvedCase>();
  for (const target of targets) plan.add(target, target.indices);
  const found = new Map<ResolvedCase, LookedUp<R>>();
  const firstAnswer = new Map<ResolvedCase, LookedUp<R>>();
  for (let step = plan.next(); step !== undefined; step = plan.next()) {
    const { index, items } = step;
    const results = await ask(
      index,
      items.map((t) => t.digits),
    );
    const byNumber = new Map(results.map((r) => [r.cnjNumber, r]));
    for (const target of items) {
      const result = byNumber.get(target.formatted);
      if (result === undefined) continue;
      const entry = { target, court: index, result };
      if (!firstAnswer.has(target)) firstAnswer.set(target, entry);
      if (result.found) found.set(target, entry);
      // A case that could not be read is not "not there": its next index is not asked.
      else if (result.error == null) plan.notFound(target);
    }
  }
  return targets.flatMap((t) => {
    const entry = found.get(t) ?? firstAnswer.get(t);
    return entry === undefined ? [] : [entry];
  });
}

/**
 * What read_cases and fingerprint_cases share: the numbers resolved, each looked up through its
 * indices with `ask` (one reader method), progress notifications while DataJud is slow.
 */
export function lookUpBatch<R extends { cnjNumber: string; found: boolean }>(
  deps: ToolDeps,
  extra: ToolExtra,
  input: { cnjNumbers: string[]; court?: string | undefined },
  ask: (reader: CaseReader, alias: string, digits: string[]) => Promise<R[]>,
): Promise<Array<LookedUp<R>>> {
  const targets = resolveTargets(input.cnjNumbers, input.court);
  return withProgress(extra, deps.progressEveryMs, () =>
    lookUpInOrder(targets, (alias, digits) => ask(readerOf(deps), alias, digits)),
  );
}

/** One number through its indices (get_case, list_movements): the lookup of the index that has it. */
export async function lookUpCase(
  reader: Pick<CaseReader, "getCase">,
  target: ResolvedCase,
  signal: AbortSignal | undefined,
): Promise<CaseLookup> {
  const [looked] = await lookUpInOrder([target], async (alias, [digits]) => [
    await reader.getCase(digits ?? target.digits, alias, signal),
  ]);
  if (looked === undefined) throw new Error(`no DataJud answer recorded for ${target.formatted}`);
  return looked.result;
}
