import { describe, expect, it } from "vitest";
import {
  type BatchJob,
  BatchScheduler,
  runJobs,
} from "../../../../src/monitor/detect/batch-scheduler.js";

type Job = BatchJob<string, string>;

function describeJob(job: Job | undefined): string {
  if (job === undefined) return "-";
  const cases = job.step === "fingerprint" ? job.lookups : job.items;
  return `${job.step} ${job.index} ${cases.join(",")}`;
}

function drain(scheduler: BatchScheduler<string, string>): string[] {
  const jobs: string[] = [];
  for (let job = scheduler.next(); job !== undefined; job = scheduler.next()) {
    jobs.push(describeJob(job));
  }
  return jobs;
}

describe("BatchScheduler", () => {
  it("cuts an index's cases into batches and lets courts take turns", () => {
    const scheduler = new BatchScheduler<string, string>(2);
    scheduler.fingerprint("tjsp", ["a", "b", "c", "d", "e"]);
    scheduler.fingerprint("trf1", ["x", "y"]);
    scheduler.fingerprint("tjsp", ["f"]);

    expect(drain(scheduler)).toEqual([
      "fingerprint tjsp a,b",
      "fingerprint trf1 x,y",
      "fingerprint tjsp c,d",
      "fingerprint tjsp e",
      "fingerprint tjsp f",
    ]);
  });

  it("reads what moved in full batches, the partial last one once the index's fingerprints are in", () => {
    const scheduler = new BatchScheduler<string, string>(2);
    scheduler.fingerprint("tjsp", ["a", "b", "c", "d", "e", "f"]);
    const first = scheduler.next();
    scheduler.read("tjsp", "a");
    scheduler.fingerprintAnswered("tjsp");
    const second = scheduler.next();
    scheduler.read("tjsp", "c");
    scheduler.read("tjsp", "d");
    scheduler.fingerprintAnswered("tjsp");

    const afterTwo = drain(scheduler);
    scheduler.read("tjsp", "e");
    scheduler.fingerprintAnswered("tjsp");

    expect([describeJob(first), describeJob(second)]).toEqual([
      "fingerprint tjsp a,b",
      "fingerprint tjsp c,d",
    ]);
    // a waits for a second case; with c it makes a full batch; d and then e wait for the last.
    expect(afterTwo).toEqual(["read tjsp a,c", "fingerprint tjsp e,f"]);
    expect(drain(scheduler)).toEqual(["read tjsp d,e"]);
  });

  it("alternates reads and fingerprints when both wait, instead of reads always first", () => {
    const scheduler = new BatchScheduler<string, string>(1);
    scheduler.fingerprint("tjsp", ["a", "b", "c"]);
    scheduler.next();
    scheduler.read("tjsp", "a");
    scheduler.read("tjsp", "x");
    scheduler.fingerprintAnswered("tjsp");

    expect(drain(scheduler)).toEqual([
      "read tjsp a",
      "fingerprint tjsp b",
      "read tjsp x",
      "fingerprint tjsp c",
    ]);
  });
});

describe("runJobs", () => {
  /** Jobs that end only when the test says, to see how many run at once. */
  function gatedJobs(count: number) {
    const waiting: Array<() => void> = [];
    let started = 0;
    let inFlight = 0;
    let most = 0;
    return {
      next: (): number | undefined => (started < count ? started++ : undefined),
      perform: (): Promise<void> => {
        inFlight++;
        most = Math.max(most, inFlight);
        return new Promise<void>((resolve) =>
          waiting.push(() => {
            inFlight--;
            resolve();
          }),
        );
      },
      endOne: async (): Promise<void> => {
        waiting.shift()?.();
        await new Promise((resolve) => setImmediate(resolve));
      },
      get started() {
        return started;
      },
      get most() {
        return most;
      },
    };
  }

  it("keeps at most `concurrency` jobs running, starts the next as one ends, and resolves when all have", async () => {
    const jobs = gatedJobs(5);
    let done = false;

    const run = runJobs({ concurrency: 2, signal: new AbortController().signal, ...jobs }).then(
      () => {
        done = true;
      },
    );
    const startedAtFirst = jobs.started;
    for (let i = 0; i < 5; i++) await jobs.endOne();
    await run;

    expect(startedAtFirst).toBe(2);
    expect(jobs.most).toBe(2);
    expect(jobs.started).toBe(5);
    expect(done).toBe(true);
  });

  it("starts nothing more once stopped, and resolves when what runs has ended", async () => {
    const jobs = gatedJobs(5);
    const stop = new AbortController();

    const run = runJobs({ concurrency: 2, signal: stop.signal, ...jobs });
    stop.abort();
    await jobs.endOne();
    await jobs.endOne();
    await run;

    expect(jobs.started).toBe(2);
  });
});
