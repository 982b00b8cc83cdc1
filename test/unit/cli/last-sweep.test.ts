import { describe, expect, it } from "vitest";
import { lastSweepLine } from "../../../src/cli/last-sweep.js";
import type { RunReport } from "../../../src/monitor/run-report.js";
import type { RunRow } from "../../../src/store/runs.js";
import { runReport } from "../../support/run-report.js";

const REPORT: RunReport = runReport({
  startedAt: "2026-12-02T13:00:00.000Z",
  finishedAt: "2026-12-02T13:00:09.000Z",
  checked: 3,
  changed: 1,
  datajudRequests: 2,
});

function run(over: Partial<RunRow>, report: Partial<RunReport> = {}): RunRow {
  return {
    id: 7,
    startedAt: "2026-12-02T13:00:00.000Z",
    finishedAt: "2026-12-02T13:00:09.000Z",
    trigger: "manual",
    status: "finished",
    report: { ...REPORT, ...report },
    ...over,
  };
}

describe("lastSweepLine", () => {
  it("never calls an interrupted sweep finished, and says what it had checked", () => {
    const line = lastSweepLine(run({}, { interrupted: true, checked: 2 }), "America/Sao_Paulo");

    expect(line).toBe(
      "last sweep: 02/12/2026 10:00, interrupted (Ctrl-C or SIGTERM) after 2 cases checked; the next sweep checks the rest",
    );
  });

  it("counts DJEN sources beside cases when DJEN was asked", () => {
    const publications: RunReport["publications"] = {
      checked: 4,
      failed: 0,
      newPublications: 0,
      outsideWatchlist: 0,
      cancelled: 0,
      djenRequests: 4,
      deferred: 0,
      notDue: 0,
      nextDueAt: null,
      unreachable: null,
      failures: [],
    };
    const line = lastSweepLine(
      run({}, { interrupted: true, checked: 0, publications }),
      "America/Sao_Paulo",
    );

    expect(line).toContain("after 0 cases and 4 DJEN sources checked");
  });

  it("says how a finished sweep went, a running one and one whose process died", () => {
    expect(lastSweepLine(run({}, { failed: 1 }), "America/Sao_Paulo")).toBe(
      "last sweep: 02/12/2026 10:00, finished: 3 cases checked, 1 changed, 1 failed",
    );
    expect(lastSweepLine(run({ status: "running", report: null }), "America/Sao_Paulo")).toBe(
      "last sweep: 02/12/2026 10:00, still running",
    );
    expect(lastSweepLine(run({ status: "crashed", report: null }), "America/Sao_Paulo")).toContain(
      "ended without a report",
    );
    expect(lastSweepLine(undefined, "America/Sao_Paulo")).toBe("last sweep: none yet");
  });

  it("says when the model stopped answering and the rules wrote the sweep's summaries", () => {
    const report = { modelUnavailable: "a model call went unanswered (no answer in 60 s); ..." };

    expect(lastSweepLine(run({}, report), "America/Sao_Paulo")).toBe(
      "last sweep: 02/12/2026 10:00, finished: 3 cases checked, 1 changed, model unavailable (rules summaries)",
    );
  });
});
