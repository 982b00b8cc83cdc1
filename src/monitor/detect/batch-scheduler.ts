/*
 * The scheduling half of detection: which DataJud request goes next, and how many go at once. It
 * knows batches, indices and places in flight, nothing of what an answer means (detect.ts judges
 * those). Pure: the requests themselves are the caller's `perform`.
 */

/** One request: a batch of an index's cases to fingerprint, or those that moved to read in full. */
export type BatchJob<L, R> =
  | { step: "fingerprint"; index: string; lookups: L[] }
  | { step: "read"; index: string; items: R[] };

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Batches waiting to be sent. Courts take turns for fingerprints, so a slow or failing one holds
 * at most its share of the places. Full reads and fingerprints take turns when both wait: a read
 * commits what moved, a fingerprint is what lets more reads start (reads always first left the
 * last fingerprints waiting behind a wave of reads, and their own reads a wave later still).
 * Cases that moved are read in batches as full as the fingerprints allow, the last partial one
 * once every fingerprint batch of their index is answered.
 */
export class BatchScheduler<L, R> {
  readonly #batchSize: number;
  /** Fingerprint batches waiting to be sent, by index, taken in turn across indices. */
  readonly #fingerprints: Array<{ index: string; batches: L[][] }> = [];
  /** Fingerprint batches of each index not yet answered. */
  readonly #fingerprinting = new Map<string, number>();
  /** Cases of each index that moved, gathered into full batches before they are read. */
  readonly #toRead = new Map<string, R[]>();
  readonly #reads: Array<BatchJob<L, R> & { step: "read" }> = [];
  /** Whose turn it is when both a read and a fingerprint wait. */
  #readNext = true;

  constructor(batchSize: number) {
    this.#batchSize = batchSize;
  }

  /** Cases ready to be asked in `index` join that index's fingerprint batches. */
  fingerprint(index: string, lookups: readonly L[]): void {
    const batches = chunks(lookups, this.#batchSize);
    this.#fingerprinting.set(index, (this.#fingerprinting.get(index) ?? 0) + batches.length);
    const queued = this.#fingerprints.find((f) => f.index === index);
    if (queued === undefined) this.#fingerprints.push({ index, batches });
    else queued.batches.push(...batches);
  }

  /** A case of `index` that moved, to read in full once a batch of them is ready. */
  read(index: string, item: R): void {
    const waiting = this.#toRead.get(index) ?? [];
    waiting.push(item);
    this.#toRead.set(index, waiting);
  }

  /**
   * One more fingerprint batch of `index` answered (or failed): what moved is batched for
   * reading, full batches now, the last partial one once every fingerprint of the index is in.
   */
  fingerprintAnswered(index: string): void {
    const left = (this.#fingerprinting.get(index) ?? 1) - 1;
    this.#fingerprinting.set(index, left);
    const waiting = this.#toRead.get(index) ?? [];
    while (waiting.length >= this.#batchSize || (left === 0 && waiting.length > 0)) {
      this.#reads.push({ step: "read", index, items: waiting.splice(0, this.#batchSize) });
    }
  }

  /** The request to send next, if any waits. */
  next(): BatchJob<L, R> | undefined {
    const job =
      this.#readNext || this.#fingerprints.length === 0
        ? (this.#reads.shift() ?? this.#nextFingerprint())
        : (this.#nextFingerprint() ?? this.#reads.shift());
    if (job !== undefined) this.#readNext = job.step === "fingerprint";
    return job;
  }

  #nextFingerprint(): BatchJob<L, R> | undefined {
    const next = this.#fingerprints.shift();
    const lookups = next?.batches.shift();
    if (next === undefined || lookups === undefined) return undefined;
    if (next.batches.length > 0) this.#fingerprints.push(next);
    return { step: "fingerprint", index: next.index, lookups };
  }
}

/**
 * Runs jobs while there are places and work: at most `concurrency` at once, a new one started as
 * each ends (which may have made more work). Resolves once nothing runs and nothing can start, or
 * once `signal` is aborted and what runs has ended. `perform` must not reject.
 */
export function runJobs<J>(options: {
  concurrency: number;
  signal: AbortSignal;
  next: () => J | undefined;
  perform: (job: J) => Promise<void>;
}): Promise<void> {
  return new Promise((resolve) => {
    let running = 0;
    const pump = (): void => {
      while (!options.signal.aborted && running < options.concurrency) {
        const job = options.next();
        if (job === undefined) break;
        running++;
        void options.perform(job).finally(() => {
          running--;
          pump();
        });
      }
      if (running === 0) resolve();
    };
    pump();
  });
}
