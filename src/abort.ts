/**
 * Makes `controller` abort when `signal` does (with its reason), and returns what stops following
 * it. A listener removed after each use rather than AbortSignal.any: a long-lived signal (the
 * daemon's, a sweep's, a tool call's) must not collect one listener per sweep, search or call.
 */
export function followAbort(
  signal: AbortSignal | undefined,
  controller: AbortController,
): () => void {
  if (signal === undefined) return () => undefined;
  if (signal.aborted) {
    controller.abort(signal.reason);
    return () => undefined;
  }
  const onAbort = (): void => controller.abort(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}
