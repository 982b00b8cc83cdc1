import { describe, expect, it } from "vitest";
import { caseFingerprint, fingerprintOf, isUnstamped } from "../../../../src/datajud/normalize.js";
import {
  judgeFingerprint,
  judgeNotFound,
  type PriorState,
  suspectAnswers,
} from "../../../../src/monitor/detect/judge.js";

const NOW = Date.parse("2026-12-02T10:00:00.000Z");
const DAY = 86_400_000;

function prior(patch: Partial<PriorState> = {}): PriorState {
  return {
    seenBefore: true,
    storedFingerprint: "fp1",
    lastFullReadAt: new Date(NOW - DAY).toISOString(),
    consecutiveNotFound: 0,
    goneAt: null,
    ...patch,
  };
}

const options = { now: NOW, fullRereadDays: 7, force: false };

describe("judgeFingerprint", () => {
  it("reads a case it has never seen", () => {
    expect(judgeFingerprint(prior({ seenBefore: false }), "fp1", options)).toEqual({
      action: "read",
      reason: "first_check",
    });
  });

  it("skips the full read when the fingerprint did not move", () => {
    expect(judgeFingerprint(prior(), "fp1", options)).toEqual({ action: "unchanged" });
  });

  it("reads when the fingerprint moved", () => {
    expect(judgeFingerprint(prior(), "fp2", options)).toEqual({
      action: "read",
      reason: "fingerprint_moved",
    });
  });

  it("re-reads in full once the interval has passed, even with the same fingerprint", () => {
    const stale = prior({ lastFullReadAt: new Date(NOW - 7 * DAY).toISOString() });

    expect(judgeFingerprint(stale, "fp1", options)).toEqual({
      action: "read",
      reason: "full_reread_due",
    });
  });

  it("reads when forced or when a missing case reappears", () => {
    expect(judgeFingerprint(prior(), "fp1", { ...options, force: true }).action).toBe("read");
    expect(judgeFingerprint(prior({ consecutiveNotFound: 1 }), "fp1", options)).toEqual({
      action: "read",
      reason: "reappeared",
    });
  });
});

describe("judgeNotFound", () => {
  it("declares a seen case gone only on the third consecutive clean not-found", () => {
    const first = judgeNotFound(prior(), 3);
    const second = judgeNotFound(prior({ consecutiveNotFound: first.consecutiveNotFound }), 3);
    const third = judgeNotFound(prior({ consecutiveNotFound: second.consecutiveNotFound }), 3);
    const fourth = judgeNotFound(
      prior({ consecutiveNotFound: 3, goneAt: "2026-12-01T00:00:00.000Z" }),
      3,
    );

    expect([first.declareGone, second.declareGone, third.declareGone]).toEqual([
      false,
      false,
      true,
    ]);
    expect(fourth.declareGone).toBe(false);
  });

  it("never declares gone a case it has never seen", () => {
    expect(judgeNotFound(prior({ seenBefore: false, consecutiveNotFound: 5 }), 3).declareGone).toBe(
      false,
    );
  });
});

describe("suspectAnswers", () => {
  const c = (answer: string, found: boolean, seenBefore = true) => ({ answer, found, seenBefore });

  it("distrusts an answer in which every case seen before is missing", () => {
    const suspect = suspectAnswers([c("a", false), c("a", false), c("a", false, false)]);

    expect([...suspect]).toEqual(["a"]);
  });

  it("believes an answer where some case seen before is still there, or only one was ever seen", () => {
    const suspect = suspectAnswers([
      c("a", false),
      c("a", true),
      c("b", false),
      c("b", false, false),
      c("c", false, false),
      c("c", false, false),
    ]);

    expect([...suspect]).toEqual([]);
  });

  it("judges each answer on its own", () => {
    const suspect = suspectAnswers([c("a", true), c("a", true), c("b", false), c("b", false)]);

    expect([...suspect]).toEqual(["b"]);
  });
});

describe("a record without update times (the STJ's partial answers)", () => {
  const stamps = { lastUpdatedAtRaw: null, indexedAtRaw: null };

  it("has a fingerprint that says so, on the record and on its case", () => {
    const bare = fingerprintOf({ id: "STJ_1", ...stamps });
    const stamped = fingerprintOf({
      id: "STJ_2",
      lastUpdatedAtRaw: "2026-11-30T10:00:00.000Z",
      indexedAtRaw: null,
    });

    expect(isUnstamped(bare)).toBe(true);
    expect(isUnstamped(stamped)).toBe(false);
    expect(
      isUnstamped(
        caseFingerprint([
          { id: "STJ_1", fingerprint: bare },
          { id: "STJ_2", fingerprint: stamped },
        ]),
      ),
    ).toBe(true);
    expect(isUnstamped(caseFingerprint([{ id: "STJ_2", fingerprint: stamped }]))).toBe(false);
  });

  it("is read in full at every sweep, since only its content can show a change", () => {
    const fp = caseFingerprint([
      { id: "STJ_1", fingerprint: fingerprintOf({ id: "STJ_1", ...stamps }) },
    ]);

    expect(judgeFingerprint(prior({ storedFingerprint: fp }), fp, options)).toEqual({
      action: "read",
      reason: "unstamped",
    });
  });
});
