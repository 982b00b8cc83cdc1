import { describe, expect, it } from "vitest";
import {
  AdaptiveConcurrency,
  type ConcurrencyChange,
  type ConcurrencySlot,
} from "../../../src/pacing/concurrency.js";
import { FakeClock } from "../../fakes/fake-clock.js";

const MINUTE = 60_000;

function gate(max: number): {
  gate: AdaptiveConcurrency;
  clock: FakeClock;
  changes: ConcurrencyChange[];
} {
  const clock = new FakeClock({ now: 0 });
  const changes: ConcurrencyChange[] = [];
  const g = new AdaptiveConcurrency({
    max,
    windowMs: MINUTE,
    clock,
    onChange: (c) => changes.push(c),
  });
  return { gate: g, clock, changes };
}

async function take(g: AdaptiveConcurrency, n: number): Promise<ConcurrencySlot[]> {
  const slots: ConcurrencySlot[] = [];
  for (let i = 0; i < n; i++) slots.push(await g.acquire());
  return slots;
}

describe("AdaptiveConcurrency", () => {
  it("lets `max` requests in at once and queues the rest first come, first served", async () => {
    const { gate: g } = gate(2);
    const [a, b] = await take(g, 2);
    const order: string[] = [];
    const third = g.acquire().then((s) => {
      order.push("third");
      return s;
    });
    const fourth = g.acquire().then((s) => {
      order.push("fourth");
      return s;
    });
    await Promise.resolve();
    const queued = g.usage();

    a?.release();
    (await third).release();
    b?.release();
    (await fourth).release();

    expect(queued).toEqual({ limit: 2, max: 2, inFlight: 2, waiting: 2 });
    expect(order).toEqual(["third", "fourth"]);
    expect(g.usage()).toEqual({ limit: 2, max: 2, inFlight: 0, waiting: 0 });
  });

  it("halves once on a burst of 429s answering one wave, again on the next wave, never below 1", async () => {
    const { gate: g, changes } = gate(16);
    const wave1 = await take(g, 16);
    for (const slot of wave1) slot.congested("rate_limited");
    for (const slot of wave1) slot.release();
    const afterWave1 = g.usage().limit;
    const wave2 = await take(g, 8);
    for (const slot of wave2) slot.congested("rate_limited");
    for (const slot of wave2) slot.release();
    for (let i = 0; i < 5; i++) {
      const [slot] = await take(g, 1);
      slot?.congested("gateway_timeout");
      slot?.release();
    }

    expect(afterWave1).toBe(8);
    expect(g.usage().limit).toBe(1);
    expect(changes).toEqual([
      { from: 16, to: 8, cause: "rate_limited" },
      { from: 8, to: 4, cause: "rate_limited" },
      { from: 4, to: 2, cause: "gateway_timeout" },
      { from: 2, to: 1, cause: "gateway_timeout" },
    ]);
  });

  it("holds new requests back while the halved limit is full, and grows back by one per quiet window", async () => {
    const { gate: g, clock, changes } = gate(4);
    const wave = await take(g, 4);
    wave[0]?.congested("timeout");
    for (const slot of wave.slice(1)) slot.release();
    const held = await take(g, 1);
    let got = false;
    const waiting = g.acquire().then((s) => {
      got = true;
      return s;
    });

    await clock.advance(MINUTE - 1);
    const beforeWindow = { limit: g.usage().limit, got };
    await clock.advance(1);
    const afterOne = g.usage().limit;
    await Promise.resolve();
    const gotAfterOne = got;
    await clock.advance(5 * MINUTE);
    const recovered = g.usage().limit;
    (await waiting).release();
    wave[0]?.release();
    held[0]?.release();

    expect(beforeWindow).toEqual({ limit: 2, got: false });
    expect(afterOne).toBe(3);
    expect(gotAfterOne).toBe(true);
    expect(recovered).toBe(4);
    expect(changes).toEqual([
      { from: 4, to: 2, cause: "timeout" },
      { from: 2, to: 3, cause: "quiet_window" },
      { from: 3, to: 4, cause: "quiet_window" },
    ]);
  });

  it("restarts the quiet window on every congestion signal, even one from an older wave", async () => {
    const { gate: g, clock } = gate(8);
    const wave = await take(g, 8);
    wave[0]?.congested("rate_limited");
    await clock.advance(50_000);
    wave[1]?.congested("rate_limited");
    await clock.advance(50_000);
    const stillHalved = g.usage().limit;
    await clock.advance(10_000);
    for (const slot of wave) slot.release();

    expect(stillHalved).toBe(4);
    expect(g.usage().limit).toBe(5);
  });

  it("drops a waiter whose signal aborts, and refuses an already aborted one", async () => {
    const { gate: g } = gate(1);
    const [slot] = await take(g, 1);
    const controller = new AbortController();
    const waiting = g.acquire(controller.signal);
    controller.abort(new Error("stop"));
    const aborted = AbortSignal.abort(new Error("already"));

    await expect(waiting).rejects.toThrow("stop");
    await expect(g.acquire(aborted)).rejects.toThrow("already");
    expect(g.usage().waiting).toBe(0);
    slot?.release();
    slot?.release();
    expect(g.usage().inFlight).toBe(0);
  });

  it("refuses a ceiling that is not a positive integer", () => {
    const clock = new FakeClock();
    expect(() => new AdaptiveConcurrency({ max: 0, windowMs: MINUTE, clock })).toThrow(RangeError);
    expect(() => new AdaptiveConcurrency({ max: 1.5, windowMs: MINUTE, clock })).toThrow(
      RangeError,
    );
  });
});
