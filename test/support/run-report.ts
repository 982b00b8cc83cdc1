import type { RunReport } from "../../src/monitor/run-report.js";

/** A finished run's report that found nothing and sent nothing, with `over` on top. */
export function runReport(over: Partial<RunReport> = {}): RunReport {
  return {
    startedAt: "2026-01-05T10:00:00.000Z",
    finishedAt: "2026-01-05T10:01:00.000Z",
    checked: 0,
    changed: 0,
    failed: 0,
    datajudRequests: 0,
    llmCalls: 0,
    emailsQueued: 0,
    emailsSent: 0,
    dryRun: false,
    interrupted: false,
    unreachable: null,
    modelUnavailable: null,
    cases: [],
    publications: null,
    mail: null,
    endpoints: [],
    queued: {},
    ...over,
  };
}
