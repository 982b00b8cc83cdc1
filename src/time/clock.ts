/** Time as a parameter, so tests control waiting and "now". */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/*
 * "Now" is read from a Clock only. Deciding code is handed it as a Date, and it is stored and
 * sent as ISO-8601 UTC text: these two say so once instead of `new Date(clock.now())` everywhere.
 */

/** The clock's instant as a Date: how deciding code is given "now". */
export function dateNow(clock: Clock): Date {
  return new Date(clock.now());
}

/** The clock's instant as ISO-8601 UTC text: how an instant is stored and sent. */
export function isoNow(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}
