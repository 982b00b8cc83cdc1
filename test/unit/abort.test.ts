import { describe, expect, it } from "vitest";
import { followAbort } from "../../src/abort.js";

describe("followAbort", () => {
  it("aborts the controller with the signal's reason, and stops following when told", () => {
    const caller = new AbortController();
    const followed = new AbortController();
    const later = new AbortController();

    followAbort(caller.signal, followed);
    const unfollow = followAbort(caller.signal, later);
    unfollow();
    caller.abort(new Error("stop"));

    expect(followed.signal.aborted).toBe(true);
    expect((followed.signal.reason as Error).message).toBe("stop");
    expect(later.signal.aborted).toBe(false);
  });

  it("aborts at once for a signal already aborted, and never without a signal", () => {
    const done = AbortSignal.abort("gone");
    const now = new AbortController();
    const never = new AbortController();

    followAbort(done, now);
    followAbort(undefined, never)();

    expect(now.signal.reason).toBe("gone");
    expect(never.signal.aborted).toBe(false);
  });
});
