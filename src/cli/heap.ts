import { setFlagsFromString } from "node:v8";

/**
 * How far V8 lets the old generation grow past what its last full collection left live, in
 * percent (V8's `--heap-growing-percent`).
 *
 * Why: when collections are cheap next to the work between them (a sweep's mutator utilization
 * is 0.99), V8 lets the old generation reach four times the live heap before collecting it. A
 * first sweep of 5,000 cases keeps about 46 MB live (most of it the modules: CNJ's tables, the
 * holiday rules of date-holidays, zod, the MCP SDK) and its garbage, the records of every batch
 * read, piled up to 200 MB of old generation between collections: a 366 MB peak. At 50 % the
 * old generation stays near 70 MB: 254 MB at the peak, for about 0.5 s more of full collections
 * in a 30 s sweep (docs/performance.md).
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Sets the heap's growth for this process, first thing, unless the operator chose one on the
 * command line (`node --heap-growing-percent=N`), which wins. The flag is read by each full
 * collection as it sizes the next limit, so setting it at start applies to the whole run.
 */
export function boundHeapGrowth(
  execArgv: readonly string[] = process.execArgv,
  setFlags: (flags: string) => void = setFlagsFromString,
): void {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return;
  setFlags(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
