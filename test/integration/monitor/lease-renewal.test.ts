import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/log.js";
import type {
  DataJudGateway,
  FingerprintedCase,
} from "../../../src/monitor/detect/datajud-gateway.js";
import { LeaseLostError } from "../../../src/monitor/run.js";
import type { RunReport } from "../../../src/monitor/run-report.js";
import { runSweep } from "../../../src/monitor/sweep.js";
import { closeDatabase, type Db, openDatabase } from "../../../src/store/database.js";
import { acquireLease, releaseLease } from "../../../src/store/lease.js";
import { markStaleRunsCrashed } from "../../../src/store/runs.js";
import { parseWatchlist, type WatchedCase } from "../../../src/watchlist/parse-watchlist.js";
import { FakeClock, fakeSystem } from "../../fakes/fake-clock.js";
import { type TempStore, tempStore } from "../../support/outbox-store.js";
import { notFoundAnswer } from "../../support/sweep-harness.js";

/*
 * The sweep's lease (10 minutes) is renewed every 200 s on the injected clock. A sweep held up in
 * DataJud while the test moves that clock shows the renewal keeping the lease, and stopping the
 * sweep once another process has taken it.
 */

const HOLDER = "4242@test-host:00c0ffee";
const RENEW_EVERY_MS = 200_000;

function cases(): WatchedCase[] {
  const parsed = parseWatchlist(
    [
      "cases:",
      '  - number: "0713383-43.2025.8.07.0006"', // tjdft
      '  - number: "1035289-48.2022.8.26.0602"', // tjsp
    ].join("\n"),
    "watchlist.yaml",
  );
  if (!parsed.ok) throw new Error("bad test watchlist");
  return parsed.watchlist.cases;
}

/** Answers "not found" for every court, except that the first call waits until `release()`. */
function heldGateway(): { gateway: DataJudGateway; held: Promise<void>; release(): void } {
  let release = (): void => undefined;
  let entered = (): void => undefined;
  const held = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let first = true;
  const gateway: DataJudGateway = {
    async fingerprint(court, numbers, signal): Promise<FingerprintedCase[]> {
      if (first) {
        first = false;
        entered();
        await new Promise<void>((resolve, reject) => {
          gate.then(resolve, reject);
          signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
        });
      }
      return notFoundAnswer(court, numbers);
    },
    async read() {
      throw new Error("nothing is read in these tests");
    },
  };
  return { gateway, held, release };
}

function leaseRow(db: Db): { holder: string; expiresAt: string } | undefined {
  return db
    .prepare<[], { holder: string; expiresAt: string }>(
      "SELECT holder, expires_at AS expiresAt FROM lease WHERE id = 1",
    )
    .get();
}

let store: TempStore;
let clock: FakeClock;

beforeEach(() => {
  store = tempStore("monitor-lease-");
  clock = new FakeClock({ now: Date.parse("2026-03-02T10:00:00.000Z") });
});

afterEach(() => {
  store.dispose();
});

function sweep(gateway: DataJudGateway): Promise<RunReport> {
  return runSweep(
    {
      db: store.db,
      gateway,
      clock,
      logger: silentLogger(),
      settings: { fullRereadDays: 30, notFoundThreshold: 3, concurrency: 1, batchSize: 100 },
      datajudRequests: () => 0,
      holder: HOLDER,
      random: Math.random,
      host: fakeSystem(clock),
    },
    { watchlist: cases(), force: false, dryRun: false, trigger: "manual" },
  );
}

describe("the sweep lease's renewal", () => {
  it("keeps the lease of a sweep that takes longer than the lease itself", async () => {
    const { gateway, held, release } = heldGateway();
    const running = sweep(gateway);
    await held;

    await clock.advance(3 * RENEW_EVERY_MS);
    const renewed = leaseRow(store.db);
    release();
    const report = await running;

    expect(renewed).toEqual({
      holder: HOLDER,
      expiresAt: new Date(clock.now() + 10 * 60_000).toISOString(),
    });
    expect(report.interrupted).toBe(false);
    expect(report.checked).toBe(2);
    expect(leaseRow(store.db)).toBeUndefined();
  });

  it("stops the sweep when another process has taken the lease, and leaves that lease alone", async () => {
    const { gateway, held } = heldGateway();
    const outcome = sweepError(gateway);
    await held;
    // This process stalled past its lease; another one took the database meanwhile.
    takeOver();

    await clock.advance(RENEW_EVERY_MS);

    expect(await outcome).toBeInstanceOf(LeaseLostError);
    expect(leaseRow(store.db)?.holder).toBe("77@other-host:0badf00d");
  });

  it("writes nothing once resumed past its lease, before any renewal: exits with one line, the other run's record kept", async () => {
    const { gateway, held, release } = heldGateway();
    const outcome = sweepError(gateway);
    await held;
    // SIGSTOP past the lease: another run took over and marked this one crashed; then SIGCONT,
    // with DataJud's answer waiting and no renewal due yet on this process's clock.
    takeOver();
    release();

    const error = await outcome;

    expect(error).toBeInstanceOf(LeaseLostError);
    expect((error as Error).message).toMatch(
      /^this sweep \(4242@test-host:00c0ffee\) lost the database lease to 77@other-host:0badf00d while it was stopped/,
    );
    expect(store.db.prepare("SELECT status, report FROM runs").all()).toEqual([
      { status: "crashed", report: null },
    ]);
    expect(store.db.prepare("SELECT COUNT(*) AS n FROM checks").get()).toEqual({ n: 0 });
    expect(leaseRow(store.db)?.holder).toBe("77@other-host:0badf00d");
  });
});

/** The sweep's error, or null when it ended with a report. */
function sweepError(gateway: DataJudGateway): Promise<unknown> {
  return sweep(gateway).then(
    () => null,
    (error: unknown) => error,
  );
}

/** Another process takes the expired lease and closes the run it found running, as a sweep does. */
function takeOver(): void {
  const other = openDatabase(store.dbPath);
  releaseLease(other, HOLDER);
  acquireLease(other, { holder: "77@other-host:0badf00d", now: clock.now(), ttlMs: 60_000 });
  markStaleRunsCrashed(other);
  closeDatabase(other);
}
