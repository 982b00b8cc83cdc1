import { describe, expect, it } from "vitest";
import {
  fullJitterDelayMs,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
} from "../../../src/pacing/backoff.js";

describe("fullJitterDelayMs", () => {
  it("scales the random draw over [0, base * 2^attempt)", () => {
    const half = (): number => 0.5;

    const delays = [1, 2, 3].map((attempt) => fullJitterDelayMs(attempt, half));

    expect(delays).toEqual([1000, 2000, 4000]);
    expect(fullJitterDelayMs(1, () => 0)).toBe(0);
  });

  it("caps the interval at 20 s by default and honours custom base and cap", () => {
    const almostOne = (): number => 0.999_999;

    const capped = fullJitterDelayMs(10, almostOne);
    const custom = fullJitterDelayMs(3, () => 0.5, { baseMs: 100, capMs: 500 });

    expect(capped).toBe(19_999);
    expect(custom).toBe(250);
  });

  it("stays inside the interval even for a random source that returns 1 or garbage", () => {
    const one = fullJitterDelayMs(1, () => 1);
    const nan = fullJitterDelayMs(1, () => Number.NaN);
    const negative = fullJitterDelayMs(1, () => -3);

    expect(one).toBe(1999);
    expect(nan).toBe(0);
    expect(negative).toBe(0);
  });

  it("always lands in [0, min(cap, base * 2^attempt)) for any draw", () => {
    const draws = Array.from({ length: 200 }, (_, i) => i / 200);

    const outside = [];
    for (let attempt = 1; attempt <= 12; attempt++) {
      const ceiling = Math.min(20_000, 1000 * 2 ** attempt);
      for (const r of draws) {
        const delay = fullJitterDelayMs(attempt, () => r);
        if (delay < 0 || delay >= ceiling || !Number.isInteger(delay))
          outside.push({ attempt, r, delay });
      }
    }

    expect(outside).toEqual([]);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.UTC(2025, 5, 2, 12, 0, 0);

  it("reads delay-seconds", () => {
    const values = ["3", " 7 ", "0", "1.5"].map((h) => parseRetryAfter(h, now));

    expect(values).toEqual([3000, 7000, 0, 1500]);
  });

  it("reads an HTTP-date relative to now, never negative", () => {
    const future = new Date(now + 30_000).toUTCString();
    const past = new Date(now - 30_000).toUTCString();

    expect(parseRetryAfter(future, now)).toBe(30_000);
    expect(parseRetryAfter(past, now)).toBe(0);
  });

  it("caps long waits at 120 s", () => {
    const seconds = parseRetryAfter("600", now);
    const date = parseRetryAfter(new Date(now + 3_600_000).toUTCString(), now);

    expect(seconds).toBe(MAX_RETRY_AFTER_MS);
    expect(date).toBe(120_000);
  });

  it("is undefined when absent or unreadable", () => {
    const values = [null, "", "soon", "-5", "12abc"].map((h) => parseRetryAfter(h, now));

    expect(values).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});
