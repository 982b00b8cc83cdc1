import { describe, expect, it } from "vitest";
import {
  addUsage,
  billableTokens,
  createTokenBudget,
  observeSpending,
  startOfSaoPauloDay,
} from "../../../src/summarize/token-budget.js";

const USAGE = {
  inputTokens: 1000,
  outputTokens: 200,
  cacheReadTokens: 5000,
  cacheWriteTokens: 300,
};

describe("token budget", () => {
  it("counts input, output and cache writes, not cache reads", () => {
    const budget = createTokenBudget({ runLimit: 10_000, dayLimit: 100_000, spentToday: 40_000 });

    budget.spend(USAGE);

    expect(billableTokens(USAGE)).toBe(1500);
    expect(budget.remaining()).toEqual({ run: 8500, day: 58_500 });
  });

  it("refuses an estimate above either remaining cap", () => {
    const budget = createTokenBudget({ runLimit: 5000, dayLimit: 100_000, spentToday: 97_000 });

    expect(budget.canSpend(3000)).toBe(true);
    expect(budget.canSpend(3001)).toBe(false);
    budget.spend({ ...USAGE, inputTokens: 3000, outputTokens: 0, cacheWriteTokens: 0 });
    expect(budget.canSpend(1)).toBe(false);
    expect(budget.remaining()).toEqual({ run: 2000, day: 0 });
  });

  it("holds what calls in flight may spend, so concurrent calls cannot share one remainder", () => {
    const budget = createTokenBudget({ runLimit: 5000, dayLimit: 100_000, spentToday: 0 });

    expect(budget.reserve(3000)).toBe(true);
    expect(budget.reserve(2001)).toBe(false);
    expect(budget.canSpend(2000)).toBe(true);
    expect(budget.reserve(2000)).toBe(true);
    expect(budget.canSpend(1)).toBe(false);
    budget.release(3000);
    budget.spend({ ...USAGE, inputTokens: 1000, outputTokens: 0, cacheWriteTokens: 0 });
    expect(budget.canSpend(2000)).toBe(true);
    expect(budget.canSpend(2001)).toBe(false);
    budget.release(2000);
    expect(budget.remaining()).toEqual({ run: 4000, day: 99_000 });
  });

  it("never reports a negative remainder", () => {
    const budget = createTokenBudget({ runLimit: 100, dayLimit: 100, spentToday: 500 });

    budget.spend(USAGE);

    expect(budget.remaining()).toEqual({ run: 0, day: 0 });
  });

  it("adds usages field by field", () => {
    expect(addUsage(USAGE, USAGE)).toEqual({
      inputTokens: 2000,
      outputTokens: 400,
      cacheReadTokens: 10_000,
      cacheWriteTokens: 600,
    });
  });

  it("starts the day at midnight in São Paulo", () => {
    expect(startOfSaoPauloDay(new Date("2026-12-02T12:00:00.000Z"))).toBe(
      "2026-12-02T03:00:00.000Z",
    );
    expect(startOfSaoPauloDay(new Date("2026-12-02T02:59:59.000Z"))).toBe(
      "2026-12-01T03:00:00.000Z",
    );
    expect(startOfSaoPauloDay(new Date("2026-12-02T03:00:00.000Z"))).toBe(
      "2026-12-02T03:00:00.000Z",
    );
    // Summer time before 2019 (UTC-02:00): a fixed -3 h would start the day an hour late.
    expect(startOfSaoPauloDay(new Date("2018-12-01T12:00:00.000Z"))).toBe(
      "2018-12-01T02:00:00.000Z",
    );
  });
});

describe("observeSpending", () => {
  it("tells each call's usage and still spends it from the budget it wraps", () => {
    const budget = createTokenBudget({ runLimit: 1000, dayLimit: 10_000, spentToday: 0 });
    const told: number[] = [];
    const observed = observeSpending(budget, (usage) => told.push(usage.inputTokens));

    observed.spend({
      inputTokens: 300,
      outputTokens: 100,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });

    expect(told).toEqual([300]);
    expect(observed.remaining()).toEqual(budget.remaining());
    expect(budget.remaining().run).toBe(600);
    expect(observed.canSpend(600)).toBe(true);
    expect(observed.canSpend(601)).toBe(false);
  });
});
