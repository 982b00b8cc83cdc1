/**
 * Tells a sweep's listener (progress, metrics) of an event. A listener that throws is ignored:
 * a progress hook must never change what a sweep records.
 */
export function tellListener<E>(listener: ((event: E) => void) | undefined, event: E): void {
  try {
    listener?.(event);
  } catch {
    // Deliberately ignored: see above.
  }
}
