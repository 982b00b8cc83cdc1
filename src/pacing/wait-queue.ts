interface Waiter<T> {
  resolve: (value: T) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/**
 * Callers waiting their turn, first come first served, each leaving the queue when its signal
 * aborts (rejected with the signal's reason): what the limiter and the concurrency gate share.
 */
export class WaitQueue<T> {
  readonly #waiters: Waiter<T>[] = [];
  readonly #onAbandoned: (() => void) | undefined;

  /** `onAbandoned`: a waiter left because its signal aborted. */
  constructor(onAbandoned?: () => void) {
    this.#onAbandoned = onAbandoned;
  }

  get length(): number {
    return this.#waiters.length;
  }

  /** Settled by `serveNext`, or rejected with the signal's reason if it aborts first. */
  wait(signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = { resolve, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = (): void => {
          const at = this.#waiters.indexOf(waiter);
          if (at === -1) return;
          this.#waiters.splice(at, 1);
          reject(signal.reason);
          this.#onAbandoned?.();
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.#waiters.push(waiter);
    });
  }

  /** Serves the oldest waiter with what `take` gives it; false when nobody waits. */
  serveNext(take: () => T): boolean {
    const next = this.#waiters.shift();
    if (next === undefined) return false;
    if (next.signal && next.onAbort) next.signal.removeEventListener("abort", next.onAbort);
    next.resolve(take());
    return true;
  }
}
