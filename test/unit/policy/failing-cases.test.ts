import { describe, expect, it } from "vitest";
import {
  caseFailingAlert,
  casesToReport,
  keyRefusal,
  lastAnswerAnywhere,
} from "../../../src/policy/failing-cases.js";
import type { FailingCaseRow } from "../../../src/store/failing-cases.js";

const HOUR = 3_600_000;

function failing(id: number, patch: Partial<FailingCaseRow> = {}): FailingCaseRow {
  return {
    id,
    number: `0713383-43.2025.8.07.000${id}`,
    court: "tjdft",
    label: null,
    watched: true,
    failures: 2,
    lastCheckedAt: "2026-03-02T09:00:00.000Z",
    answeredAt: null,
    latest: { at: "2026-03-02T09:00:00.000Z", errorKind: "timeout", error: "slow" },
    ...patch,
  };
}

const refused = (id: number, watched = true): FailingCaseRow =>
  failing(id, {
    watched,
    latest: { at: "2026-03-02T09:00:00.000Z", errorKind: "auth", error: "401" },
  });

describe("lastAnswerAnywhere", () => {
  it("is the latest answer of a healthy case or of a failing case before it failed", () => {
    const cases = [failing(1, { answeredAt: "2026-03-01T12:00:00.000Z" }), failing(2)];

    expect(lastAnswerAnywhere(cases, "2026-03-01T10:00:00.000Z")).toBe("2026-03-01T12:00:00.000Z");
    expect(lastAnswerAnywhere([failing(2)], null)).toBeNull();
  });
});

describe("keyRefusal", () => {
  it("starts at the first refusal and counts the watched cases the key stops", () => {
    const cases = [refused(1), refused(2, false), failing(3)];

    const auth = keyRefusal(cases, ["2026-03-02T08:00:00.000Z", "2026-03-01T08:00:00.000Z", null]);

    expect(auth).toEqual({ since: "2026-03-01T08:00:00.000Z", lastError: "401", affectedCases: 1 });
  });

  it("is null when no case was refused since DataJud last answered", () => {
    expect(keyRefusal([refused(1)], [null])).toBeNull();
  });
});

describe("casesToReport and caseFailingAlert", () => {
  it("leaves unwatched cases out, and those the key e-mail speaks for", () => {
    const cases = [failing(1), failing(2, { watched: false }), refused(3)];

    expect(casesToReport(cases, true).map((c) => c.id)).toEqual([1]);
    expect(casesToReport(cases, false).map((c) => c.id)).toEqual([1, 3]);
  });

  it("reports a case only once it has failed for longer than the threshold", () => {
    const now = new Date("2026-03-02T09:00:00.000Z");
    const since = "2026-03-01T08:00:00.000Z";

    const due = caseFailingAlert(failing(1), since, now, 24 * HOUR);
    const early = caseFailingAlert(failing(1), since, now, 26 * HOUR);
    const never = caseFailingAlert(failing(1), null, now, 24 * HOUR);

    expect(due).toEqual({
      type: "case_failing",
      caseNumber: "0713383-43.2025.8.07.0001",
      court: "tjdft",
      label: null,
      failingSince: since,
      lastCheckedAt: "2026-03-02T09:00:00.000Z",
      failures: 2,
      lastErrorKind: "timeout",
      lastError: "slow",
      thresholdHours: 24,
    });
    expect(early).toBeNull();
    expect(never).toBeNull();
  });
});
