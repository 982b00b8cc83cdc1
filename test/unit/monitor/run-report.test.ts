import { describe, expect, it } from "vitest";
import { type RunReport, sweepResult } from "../../../src/monitor/run-report.js";
import { runReport } from "../../support/run-report.js";

function report(over: Partial<RunReport>): RunReport {
  return runReport({ checked: 3, datajudRequests: 3, ...over });
}

const djen = (checked: number, failed: number): RunReport["publications"] => ({
  checked,
  failed,
  newPublications: 0,
  outsideWatchlist: 0,
  deferred: 0,
  notDue: 0,
  nextDueAt: null,
  unreachable: null,
  cancelled: 0,
  djenRequests: checked,
  failures: [],
});

describe("sweepResult", () => {
  it("tells a clean sweep, a partial one and one in which no case answered", () => {
    const results = [
      report({}),
      report({ failed: 1 }),
      report({ failed: 3 }),
      report({
        failed: 3,
        unreachable: "could not reach DataJud (https://x) for api_publica_tjsp",
      }),
    ].map(sweepResult);

    expect(results).toEqual(["ok", "partial", "failed", "failed"]);
  });

  it("counts DJEN's failed checks as partial, and as failed only when no case was checked", () => {
    const results = [
      report({ publications: djen(4, 1) }),
      report({ publications: djen(4, 4) }),
      report({ checked: 0, publications: djen(2, 2) }),
      report({ checked: 0, publications: djen(2, 0) }),
    ].map(sweepResult);

    expect(results).toEqual(["partial", "partial", "failed", "ok"]);
  });

  it("says interrupted for a sweep stopped before its end, whatever failed before", () => {
    expect(sweepResult(report({ interrupted: true, failed: 3 }))).toBe("interrupted");
  });
});
