import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../../src/log.js";
import type {
  PublicationGateway,
  PublicationSource,
} from "../../../../src/monitor/publications/djen-gateway.js";
import {
  type Asked,
  askBatches,
  type Batch,
} from "../../../../src/monitor/publications/watch-publications.js";
import { SlidingWindowLimiter } from "../../../../src/pacing/limiter.js";
import { closeDatabase, type Db, openDatabase } from "../../../../src/store/database.js";
import { FakeClock } from "../../../fakes/fake-clock.js";

/*
 * DJEN calls in flight at once (djen.concurrency), on the fake clock: DJEN answering in 15 s, one
 * call at a time sends 4 requests a minute where the limiter allows 20. Each registration is one
 * call of one request here, so calls and requests are the same count.
 */

const SECOND = 1_000;
const LATENCY_MS = 15 * SECOND;
const START = Date.UTC(2025, 9, 6, 13, 0);

let dir: string;
let db: Db;
let clock: FakeClock;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "monitor-djen-concurrency-"));
  db = openDatabase(join(dir, "monitor.db"));
  clock = new FakeClock({ now: START });
});

afterEach(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

const registrations = (n: number): Batch[] =>
  Array.from({ length: n }, (_, i) => ({ cnjNumbers: [], oab: [`${100_000 + i}/SP`] }));

const answered = (oab: string): PublicationSource => ({
  kind: "oab",
  key: oab,
  complete: true,
  publications: [],
  error: null,
});

/** A DJEN that answers after `latencyMs(call)` of the fake clock, counting what is in flight. */
function slowDjen(options: {
  limiter?: SlidingWindowLimiter;
  latencyMs?: (call: number) => number;
  answer?: (oab: string) => PublicationSource;
}) {
  const sent: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const gateway: PublicationGateway = {
    read: async (sources, _window, signal) => {
      const call = sent.length;
      await options.limiter?.acquire(signal);
      sent.push(clock.now());
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        await clock.sleep(options.latencyMs?.(call) ?? LATENCY_MS, signal);
      } finally {
        inFlight--;
      }
      return sources.oab.map(options.answer ?? answered);
    },
  };
  return { gateway, sent, maxInFlight: () => maxInFlight };
}

async function ask(
  gateway: PublicationGateway,
  batches: Batch[],
  concurrency: number,
  signal = new AbortController().signal,
): Promise<Asked> {
  const asking = askBatches(
    {
      db,
      clock,
      logger: silentLogger(),
      phase: {
        gateway,
        windowDays: 2,
        maxMinutesPerSweep: 0,
        concurrency,
        plan: { caseEveryHours: 8, oabEveryHours: 4, partyEveryHours: 24 },
        requests: () => 0,
      },
      runId: null,
      write: true,
      signal,
      budgetMs: 0,
      lastOk: new Map(),
    },
    batches,
  );
  let done = false;
  void asking.finally(() => {
    done = true;
  });
  while (!done) await clock.advance(SECOND);
  return asking;
}

/** The most requests sent in any window of `windowMs` (each window starting at a send). */
function mostInAnyWindow(sent: readonly number[], windowMs: number): number {
  return Math.max(0, ...sent.map((at) => sent.filter((t) => t >= at && t < at + windowMs).length));
}

describe("askBatches with DJEN calls in flight at once", () => {
  it("keeps up to djen.concurrency calls in flight, and no more", async () => {
    const djen = slowDjen({});

    const asked = await ask(djen.gateway, registrations(12), 4);

    expect(djen.maxInFlight()).toBe(4);
    expect(asked.outcomes.filter((o) => o.ok)).toHaveLength(12);
    // The first call alone, then three waves of up to four 15-s calls.
    expect(djen.sent.slice(0, 2).map((at) => (at - START) / SECOND)).toEqual([0, 15]);
    expect(clock.now() - START).toBeLessThanOrEqual(4 * LATENCY_MS + SECOND);
  });

  it("asks one call at a time at concurrency 1, as before", async () => {
    const djen = slowDjen({});

    await ask(djen.gateway, registrations(4), 1);

    expect(djen.maxInFlight()).toBe(1);
    expect(djen.sent.map((at) => (at - START) / SECOND)).toEqual([0, 15, 30, 45]);
  });

  it("reaches the limiter's 20 a minute at 15 s latency where one at a time makes 4, never more", async () => {
    const limiter = () => new SlidingWindowLimiter({ limit: 20, windowMs: 60_000, clock });
    const oneAtATime = slowDjen({ limiter: limiter() });
    await ask(oneAtATime.gateway, registrations(10), 1);
    const sequentialMinute = mostInAnyWindow(oneAtATime.sent, 60_000);

    clock = new FakeClock({ now: START });
    const parallel = slowDjen({ limiter: limiter() });
    await ask(parallel.gateway, registrations(60), 8);

    expect(sequentialMinute).toBe(4);
    expect(mostInAnyWindow(parallel.sent, 60_000)).toBe(20);
    expect(parallel.maxInFlight()).toBeLessThanOrEqual(8);
  });

  it("records the answers in the batches' order when later calls answer first", async () => {
    // The first call is the slowest: the others answer while it waits.
    const djen = slowDjen({ latencyMs: (call) => (call === 0 ? 40 * SECOND : 5 * SECOND) });
    const batches = registrations(6);

    const asked = await ask(djen.gateway, batches, 3);

    expect(asked.outcomes.map((o) => o.key)).toEqual(batches.map((b) => b.oab[0]));
  });

  it("finds a DJEN that refuses this server with one call, and fails the rest unasked", async () => {
    const refused = (oab: string): PublicationSource => ({
      kind: "oab",
      key: oab,
      complete: false,
      publications: [],
      error: { kind: "geo_blocked", message: "DJEN refused", retryable: false },
    });
    const djen = slowDjen({ answer: refused });

    const asked = await ask(djen.gateway, registrations(8), 4);

    expect(djen.sent).toHaveLength(1);
    expect(asked.stopped).toBe("DJEN refused");
    expect(asked.outcomes).toHaveLength(8);
    expect(asked.outcomes.every((o) => o.error?.kind === "geo_blocked")).toBe(true);
  });

  it("asks nothing more once DJEN refuses this server, and fails what was not asked", async () => {
    const djen = slowDjen({
      answer: (oab) =>
        oab === "100001/SP"
          ? {
              kind: "oab",
              key: oab,
              complete: false,
              publications: [],
              error: { kind: "geo_blocked", message: "DJEN refused", retryable: false },
            }
          : answered(oab),
      // The first call answers; of the three sent then, the refusal comes first, the two others
      // are still in flight.
      latencyMs: (call) => (call <= 1 ? SECOND : 10 * SECOND),
    });

    const asked = await ask(djen.gateway, registrations(8), 3);

    expect(djen.sent).toHaveLength(4);
    expect(asked.stopped).toBe("DJEN refused");
    expect(asked.outcomes.map((o) => o.ok)).toEqual([
      true,
      false,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(asked.outcomes.slice(4).every((o) => o.error?.kind === "geo_blocked")).toBe(true);
  });

  it("stops at an abort, each call in flight ended with it, and is interrupted", async () => {
    const djen = slowDjen({});
    const controller = new AbortController();
    const asking = ask(djen.gateway, registrations(10), 4, controller.signal);
    await clock.advance(20 * SECOND);
    controller.abort();

    const asked = await asking;

    expect(asked.interrupted).toBe(true);
    // The first call at 0 s, answered at 15 s; four more then, cut at 20 s.
    expect(djen.sent).toHaveLength(5);
    expect(asked.outcomes).toHaveLength(1);
  });
});
