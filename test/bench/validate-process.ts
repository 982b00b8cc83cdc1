/**
 * `monitor validate`'s work on one watchlist file, in a fresh process: its peak RSS is what
 * validating that file costs (the bench's hostile rows: a watchlist with a 50 MB label).
 */
import { readFileSync } from "node:fs";
import { parseWatchlist } from "../../src/watchlist/parse-watchlist.js";

export interface ValidateResult {
  ok: boolean;
  firstError: string | null;
  seconds: number;
  peakRss: number;
}

const file = process.env.BENCH_WATCHLIST ?? "";
const started = performance.now();
const result = parseWatchlist(readFileSync(file), file);
const reply: ValidateResult = {
  ok: result.ok,
  firstError: result.ok ? null : (result.errors[0]?.message.slice(0, 200) ?? null),
  seconds: (performance.now() - started) / 1000,
  peakRss: process.resourceUsage().maxRSS * 1024,
};
process.send?.(reply, () => process.exit(0));
