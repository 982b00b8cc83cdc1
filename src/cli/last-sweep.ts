import { formatInstant } from "../datajud/dates.js";
import { countText } from "../datajud/glossary.js";
import { RunReport } from "../monitor/run-report.js";
import type { RunRow } from "../store/runs.js";

/** What was checked before a sweep ended: cases, and DJEN sources when it asked any. */
function checkedText(report: RunReport): string {
  const cases = countText(report.checked, "case", "cases");
  const djen = report.publications?.checked ?? 0;
  return djen > 0 ? `${cases} and ${countText(djen, "DJEN source", "DJEN sources")}` : cases;
}

/**
 * `monitor status`'s line on the last sweep: when it started and how it ended. A sweep stopped by
 * Ctrl-C or SIGTERM is stored as a finished run whose report says interrupted: it is never shown
 * as finished, and what it had checked by then is said.
 */
export function lastSweepLine(run: RunRow | undefined, timeZone: string): string {
  if (run === undefined) return "last sweep: none yet";
  const started = formatInstant(run.startedAt, timeZone);
  if (run.status === "running") return `last sweep: ${started}, still running`;
  if (run.status === "crashed") {
    return `last sweep: ${started}, ended without a report (the process died mid-sweep)`;
  }
  const parsed = RunReport.safeParse(run.report);
  if (!parsed.success) return `last sweep: ${started}, finished`;
  const report = parsed.data;
  if (report.interrupted) {
    return `last sweep: ${started}, interrupted (Ctrl-C or SIGTERM) after ${checkedText(report)} checked; the next sweep checks the rest`;
  }
  const failed = report.failed > 0 ? `, ${report.failed} failed` : "";
  const unreachable = report.unreachable === null ? "" : ", DataJud unreachable";
  // The model that stopped answering is the operator's to look at, not the lawyer's.
  const model = report.modelUnavailable === null ? "" : ", model unavailable (rules summaries)";
  return `last sweep: ${started}, finished: ${checkedText(report)} checked, ${report.changed} changed${failed}${unreachable}${model}`;
}
