/**
 * Delivery started as each alert is committed, without waiting for the other alerts of the
 * phase: one drain at a time, and an alert committed while a drain runs gets another drain right
 * after it (a drain sends what was due when it started). The phase's alerts never wait for one
 * another's summaries, and drains do not pile up.
 */
export class Courier {
  readonly #drain: () => Promise<void>;
  #running: Promise<void> | null = null;
  #again = false;
  #error: { reason: unknown } | null = null;

  constructor(drain: () => Promise<void>) {
    this.#drain = drain;
  }

  /** Something was committed: deliver it now, or right after the drain in progress. */
  kick(): void {
    if (this.#running !== null) {
      this.#again = true;
      return;
    }
    this.#running = this.#rounds()
      .catch((reason: unknown) => {
        this.#error ??= { reason };
      })
      .finally(() => {
        this.#running = null;
      });
  }

  /** Resolves once no drain is running; rejects with the first drain's error, if one failed. */
  async idle(): Promise<void> {
    while (this.#running !== null) await this.#running;
    if (this.#error !== null) throw this.#error.reason;
  }

  async #rounds(): Promise<void> {
    do {
      this.#again = false;
      await this.#drain();
    } while (this.#again && this.#error === null);
  }
}
