import { dateInZone, instantInZone } from "../time/zoned-time.js";

/** Tokens one model call (or a sum of calls) used, as the Messages API reports them. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export const ZERO_USAGE: TokenUsage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
};

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

/**
 * What counts against the caps. Cache reads are left out: they cost a tenth of an input token,
 * and counting them would make a well-cached prefix look as expensive as an uncached one.
 */
export function billableTokens(usage: TokenUsage): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheWriteTokens;
}

export interface TokenBudget {
  /**
   * True when a call estimated at `estimate` tokens fits both the run and the day cap, after
   * what the calls in flight hold.
   */
  canSpend(estimate: number): boolean;
  /**
   * Holds `estimate` tokens for a call about to be sent, so calls summarizing other cases at the
   * same time cannot each see the same remainder; false (nothing held) when it does not fit.
   */
  reserve(estimate: number): boolean;
  /** Gives back what `reserve` held, once the call answered (its `spend` counts what it used). */
  release(estimate: number): void;
  spend(usage: TokenUsage): void;
  remaining(): { run: number; day: number };
}

/** The same budget, also telling `onSpend` what each call used (the daemon's metrics). */
export function observeSpending(
  budget: TokenBudget,
  onSpend: (usage: TokenUsage) => void,
): TokenBudget {
  return {
    canSpend: (estimate) => budget.canSpend(estimate),
    reserve: (estimate) => budget.reserve(estimate),
    release: (estimate) => budget.release(estimate),
    spend: (usage) => {
      budget.spend(usage);
      onSpend(usage);
    },
    remaining: () => budget.remaining(),
  };
}

export interface TokenBudgetOptions {
  /** Tokens one sweep may spend. */
  runLimit: number;
  /** Tokens one São Paulo calendar day may spend, across runs. */
  dayLimit: number;
  /** Already spent today before this run started (from `tokensSpentSince`). */
  spentToday: number;
}

export function createTokenBudget(options: TokenBudgetOptions): TokenBudget {
  let spentRun = 0;
  let spentDay = Math.max(0, options.spentToday);
  let held = 0;
  const remaining = (): { run: number; day: number } => ({
    run: Math.max(0, options.runLimit - spentRun),
    day: Math.max(0, options.dayLimit - spentDay),
  });
  const fits = (estimate: number): boolean => {
    const left = remaining();
    return estimate + held <= left.run && estimate + held <= left.day;
  };
  return {
    canSpend: fits,
    reserve(estimate) {
      if (!fits(estimate)) return false;
      held += estimate;
      return true;
    },
    release(estimate) {
      held = Math.max(0, held - estimate);
    },
    spend(usage) {
      const tokens = billableTokens(usage);
      spentRun += tokens;
      spentDay += tokens;
    },
    remaining,
  };
}

/** A budget that never refuses: for `monitor demo` and tests that are not about the caps. */
export function unlimitedTokenBudget(): TokenBudget {
  return createTokenBudget({
    runLimit: Number.POSITIVE_INFINITY,
    dayLimit: Number.POSITIVE_INFINITY,
    spentToday: 0,
  });
}

/**
 * Midnight in São Paulo of the day `now` falls in, as a UTC ISO string: the lower bound for
 * `tokensSpentSince` when building a day's budget.
 */
export function startOfSaoPauloDay(now: Date): string {
  return new Date(instantInZone(dateInZone(now.getTime()))).toISOString();
}
