import { describe, expect, it } from "vitest";
import { FailureLimiter } from "../../../src/http/failure-limiter.js";
import { FakeClock } from "../../fakes/fake-clock.js";

function limiter(clock: FakeClock, maxClients = 100): FailureLimiter {
  return new FailureLimiter({ burst: 10, perMinute: 6, maxClients, now: () => clock.now() });
}

describe("FailureLimiter", () => {
  it("lets 10 failures through, refuses the rest for 10 s each, and says so once per run", () => {
    const clock = new FakeClock({ now: Date.UTC(2025, 9, 20, 12) });
    const wrong = limiter(clock);

    // 3,000 wrong tokens in 1.6 s, as measured against the daemon.
    const verdicts = Array.from({ length: 3000 }, () => wrong.fail("203.0.113.7"));
    clock.set(clock.now() + 1600);
    const after = wrong.fail("203.0.113.7");

    expect(verdicts.slice(0, 10).every((v) => !v.refused)).toBe(true);
    expect(verdicts.slice(10).every((v) => v.refused)).toBe(true);
    expect(verdicts[10]).toEqual({ refused: true, retryAfterSeconds: 10, firstRefusal: true });
    expect(verdicts.slice(11).filter((v) => v.refused && v.firstRefusal)).toEqual([]);
    // 1.6 s refilled 0.16 of a failure: 8.4 s still to wait, said as 9.
    expect(after).toEqual({ refused: true, retryAfterSeconds: 9, firstRefusal: false });
  });

  it("forgives one failure per 10 s, and a new run of refusals is told again", () => {
    const clock = new FakeClock({ now: Date.UTC(2025, 9, 20, 12) });
    const wrong = limiter(clock);
    for (let i = 0; i < 11; i += 1) wrong.fail("a");

    clock.set(clock.now() + 10_000);
    const forgiven = wrong.fail("a");
    const refused = wrong.fail("a");

    expect(forgiven).toEqual({ refused: false });
    expect(refused).toEqual({ refused: true, retryAfterSeconds: 10, firstRefusal: true });
  });

  it("counts each client apart", () => {
    const clock = new FakeClock();
    const wrong = limiter(clock);
    for (let i = 0; i < 20; i += 1) wrong.fail("a");

    expect(wrong.fail("b")).toEqual({ refused: false });
  });

  it("remembers at most maxClients, forgetting the one heard from least recently", () => {
    const clock = new FakeClock();
    const wrong = limiter(clock, 1000);
    for (let i = 0; i < 20; i += 1) wrong.fail("kept");

    for (let i = 0; i < 20_000; i += 1) {
      wrong.fail(`198.51.${i >> 8}.${i & 255}`);
      if (i % 500 === 0) wrong.fail("kept");
    }

    expect(wrong.size).toBe(1000);
    expect(wrong.fail("kept").refused).toBe(true);
  });
});
