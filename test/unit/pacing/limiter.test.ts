import { describe, expect, it } from "vitest";
import { SlidingWindowLimiter } from "../../../src/pacing/limiter.js";
import { FakeClock } from "../../fakes/fake-clock.js";

const MINUTE = 60_000;

/** A small seeded PRNG so the property check is reproducible. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function track(clock: FakeClock, promise: Promise<void>): { at: number | null; error: unknown } {
  const state: { at: number | null; error: unknown } = { at: null, error: undefined };
  promise.then(
    () => {
      state.at = clock.now();
    },
    (error: unknown) => {
      state.error = error;
    },
  );
  return state;
}

describe("SlidingWindowLimiter", () => {
  it("grants up to the limit at once, then waits until the oldest grant is a window old", async () => {
    const clock = new FakeClock({ now: 0 });
    const limiter = new SlidingWindowLimiter({ limit: 3, windowMs: 1000, clock });
    const first = [0, 1, 2].map(() => track(clock, limiter.acquire()));
    await clock.advance(0);
    await clock.advance(400);
    const fourth = track(clock, limiter.acquire());

    await clock.advance(599);
    const before = fourth.at;
    await clock.advance(1);

    expect(first.map((s) => s.at)).toEqual([0, 0, 0]);
    expect(before).toBeNull();
    expect(fourth.at).toBe(1000);
  });

  it("does not let a second burst through right after a window boundary", async () => {
    const clock = new FakeClock({ now: 0 });
    const limiter = new SlidingWindowLimiter({ limit: 3, windowMs: 1000, clock });
    await clock.advance(900);
    const early = [0, 1, 2].map(() => track(clock, limiter.acquire()));
    await clock.advance(200);
    const late = [0, 1, 2].map(() => track(clock, limiter.acquire()));

    await clock.advance(5000);

    expect(early.map((s) => s.at)).toEqual([900, 900, 900]);
    expect(late.map((s) => s.at)).toEqual([1900, 1900, 1900]);
  });

  it("never holds more than N grants in any 60 s window over 500 acquisitions, FIFO and without idling", async () => {
    const limit = 120;
    const clock = new FakeClock({ now: 0 });
    const limiter = new SlidingWindowLimiter({ limit, windowMs: MINUTE, clock });
    const random = seeded(20250101);
    const arrivals: number[] = [];
    let t = 0;
    for (let i = 0; i < 500; i++) {
      t += random() < 0.8 ? 0 : Math.floor(random() * 20_000);
      arrivals.push(t);
    }
    const arrivedAt: number[] = [];
    const grants: Array<{ i: number; at: number }> = [];
    let next = 0;

    for (let steps = 0; grants.length < arrivals.length && steps < 10_000; steps++) {
      while (next < arrivals.length && (arrivals[next] ?? 0) <= clock.now()) {
        const i = next++;
        arrivedAt[i] = clock.now();
        void limiter.acquire().then(() => grants.push({ i, at: clock.now() }));
      }
      const upcoming = arrivals[next];
      await clock.advance(upcoming === undefined ? MINUTE : upcoming - clock.now());
    }

    expect(grants).toHaveLength(500);
    expect(grants.map((g) => g.i)).toEqual(arrivals.map((_, i) => i));
    const times = grants.map((g) => g.at);
    for (let k = limit; k < times.length; k++) {
      expect((times[k] ?? 0) - (times[k - limit] ?? 0)).toBeGreaterThanOrEqual(MINUTE);
    }
    // The earliest schedule a FIFO sliding window allows: nobody waits longer than needed.
    const ideal: number[] = [];
    for (let k = 0; k < times.length; k++) {
      ideal.push(
        Math.max(
          arrivedAt[k] ?? 0,
          ideal[k - 1] ?? 0,
          (ideal[k - limit] ?? Number.NEGATIVE_INFINITY) + MINUTE,
        ),
      );
    }
    expect(times).toEqual(ideal);
    expect(Math.max(...times)).toBeGreaterThan(3 * MINUTE);
  });

  it("with a margin, the server never counts more than the limit in any window, each request arriving up to the margin late", async () => {
    const limit = 6;
    const clock = new FakeClock({ now: 0 });
    const limiter = new SlidingWindowLimiter({ limit, windowMs: MINUTE, marginMs: 1000, clock });
    const unspaced = new SlidingWindowLimiter({ limit, windowMs: MINUTE, clock });
    const spaced: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < 30; i++) {
      void limiter.acquire().then(() => spaced.push(clock.now()));
      void unspaced.acquire().then(() => plain.push(clock.now()));
    }

    await clock.advance(10 * MINUTE);

    // The worst shift: every burst but the next one arrives a whole margin late.
    const mostInAWindow = (grants: number[]): number => {
      let most = 0;
      for (let late = 0; late < grants.length; late += limit) {
        const arrivals = grants.map((at, k) => at + (k >= late && k < late + limit ? 1000 : 0));
        for (const start of arrivals) {
          const within = arrivals.filter((at) => at >= start && at < start + MINUTE).length;
          most = Math.max(most, within);
        }
      }
      return most;
    };
    expect(spaced).toHaveLength(30);
    expect(mostInAWindow(spaced)).toBe(limit);
    expect(mostInAWindow(plain)).toBe(2 * limit);
  });

  it("rejects a waiting acquire with the signal's reason and moves the next waiter up", async () => {
    const clock = new FakeClock({ now: 0 });
    const limiter = new SlidingWindowLimiter({ limit: 1, windowMs: 1000, clock });
    await limiter.acquire();
    const controller = new AbortController();
    const reason = new Error("caller gave up");
    const aborted = track(clock, limiter.acquire(controller.signal));
    const after = track(clock, limiter.acquire());
    await clock.advance(100);

    controller.abort(reason);
    await clock.advance(900);

    expect(aborted.error).toBe(reason);
    expect(aborted.at).toBeNull();
    expect(after.at).toBe(1000);
  });

  it("rejects at once when the signal is already aborted, without using a slot", async () => {
    const clock = new FakeClock({ now: 0 });
    const limiter = new SlidingWindowLimiter({ limit: 1, windowMs: 1000, clock });
    const reason = new Error("already cancelled");

    const result = limiter.acquire(AbortSignal.abort(reason));

    await expect(result).rejects.toBe(reason);
    const next = track(clock, limiter.acquire());
    await clock.advance(0);
    expect(next.at).toBe(0);
  });

  it("leaves no sleep pending once the last waiter is gone", async () => {
    const clock = new FakeClock({ now: 0 });
    const limiter = new SlidingWindowLimiter({ limit: 1, windowMs: 1000, clock });
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = track(clock, limiter.acquire(controller.signal));
    await clock.advance(10);
    const pendingWhileWaiting = clock.pending;

    controller.abort(new Error("stop"));
    await clock.advance(0);

    expect(pendingWhileWaiting).toBe(1);
    expect(clock.pending).toBe(0);
    expect(waiting.error).toBeInstanceOf(Error);
  });

  it("reports the grants in the window ending now, what is left and who waits", async () => {
    const clock = new FakeClock({ now: 0 });
    const limiter = new SlidingWindowLimiter({ limit: 3, windowMs: 1000, clock });
    await limiter.acquire();
    await clock.advance(600);
    await limiter.acquire();
    const afterTwo = limiter.usage();
    await clock.advance(500);
    const afterFirstLeft = limiter.usage();
    await limiter.acquire();
    await limiter.acquire();
    const queued = track(clock, limiter.acquire());
    const full = limiter.usage();

    expect(afterTwo).toEqual({ limit: 3, windowMs: 1000, used: 2, remaining: 1, waiting: 0 });
    expect(afterFirstLeft).toMatchObject({ used: 1, remaining: 2 });
    expect(full).toMatchObject({ used: 3, remaining: 0, waiting: 1 });
    expect(queued.at).toBeNull();
  });

  it("refuses a limit or window that cannot work", () => {
    const clock = new FakeClock();

    const zero = (): SlidingWindowLimiter =>
      new SlidingWindowLimiter({ limit: 0, windowMs: 1000, clock });
    const fraction = (): SlidingWindowLimiter =>
      new SlidingWindowLimiter({ limit: 1.5, windowMs: 1000, clock });
    const noWindow = (): SlidingWindowLimiter =>
      new SlidingWindowLimiter({ limit: 1, windowMs: 0, clock });
    const negativeMargin = (): SlidingWindowLimiter =>
      new SlidingWindowLimiter({ limit: 1, windowMs: 1000, marginMs: -1, clock });

    expect(zero).toThrow(RangeError);
    expect(fraction).toThrow(RangeError);
    expect(noWindow).toThrow(RangeError);
    expect(negativeMargin).toThrow(RangeError);
  });
});

describe("SlidingWindowLimiter.expectedWaitMsFor", () => {
  it("says when the last of n requests asked now would go, behind those queued", async () => {
    // limit 3 in 1,000 ms: grants at 0, 0 and 400; asked at 500.
    const clock = new FakeClock({ now: 0 });
    const limiter = new SlidingWindowLimiter({ limit: 3, windowMs: 1000, clock });
    await limiter.acquire();
    await limiter.acquire();
    await clock.advance(400);
    await limiter.acquire();
    await clock.advance(100);

    // The 4th fits when the grant at 0 is a window old: 1,000 - 500.
    expect(limiter.expectedWaitMsFor(1)).toBe(500);
    // The 5th at 1,000 too (the second grant at 0); the 6th when the one at 400 is: 1,400.
    expect(limiter.expectedWaitMsFor(2)).toBe(500);
    expect(limiter.expectedWaitMsFor(3)).toBe(900);
    // The 7th a window after the 4th's grant (1,000): 2,000.
    expect(limiter.expectedWaitMsFor(4)).toBe(1500);
    // With one caller already queued, one more asked now is the 5th.
    const queued = track(clock, limiter.acquire());
    expect(limiter.expectedWaitMsFor(1)).toBe(500);
    expect(limiter.expectedWaitMsFor(2)).toBe(900);
    await clock.advance(500);
    expect(queued.at).toBe(1000);
  });

  it("is 0 while the requests fit now", () => {
    const clock = new FakeClock({ now: 0 });
    const limiter = new SlidingWindowLimiter({ limit: 3, windowMs: 1000, clock });
    expect(limiter.expectedWaitMsFor(3)).toBe(0);
  });
});
