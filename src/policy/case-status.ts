import type { CaseRow } from "../store/cases.js";
import type { DjenSourceRow } from "../store/djen-sources.js";
import type { CaseAlertPolicy } from "./alert-rules.js";
import { nextCheckDueAt, type PlanSettings } from "./djen-plan.js";
import { muteState } from "./movement-rules.js";

/*
 * The one status view of a watched case: what `monitor status` prints and the MCP tool
 * list_watched_cases returns (each under the field names of its own contract), built from the
 * stored rows and the watchlist in force. Pure: the caller reads the rows.
 */

/** failing: the last check got no answer; not_found: DataJud answered without it; gone: not found `notFoundThreshold` times in a row. */
export const CASE_STATES = ["ok", "failing", "not_found", "gone", "never_checked"] as const;
export type CaseState = (typeof CASE_STATES)[number];

/** What every view of a DJEN source's last check shows (status report, `monitor status`, MCP). */
export type DjenCheck = Pick<
  DjenSourceRow,
  "lastCheckedAt" | "lastOutcome" | "consecutiveFailures" | "lastError"
> & {
  /** When the next look is due (the last check answered: not failing); null: due now. */
  nextCheckDueAt: string | null;
};

/** A source's last check; with the plan in force, when its next look is due. */
export function djenCheckOf(row: DjenSourceRow, plan: PlanSettings | null = null): DjenCheck {
  return {
    lastCheckedAt: row.lastCheckedAt,
    lastOutcome: row.lastOutcome,
    consecutiveFailures: row.consecutiveFailures,
    lastError: row.lastError,
    nextCheckDueAt: plan === null ? null : nextCheckDueAt(row, plan),
  };
}

export function caseStateOf(row: CaseRow): CaseState {
  if (row.goneAt !== null) return "gone";
  if (row.lastOutcome === null) return "never_checked";
  if (row.lastOutcome === "failed") return "failing";
  if (row.lastOutcome === "not_found") return "not_found";
  return "ok";
}

export interface CaseStatus {
  number: string;
  court: string;
  /** The index DataJud last returned the case from, when not the court's own (TRF1 numbers in TRF6). */
  foundIn: string | null;
  label: string | null;
  state: CaseState;
  /** Per the watchlist in force now: true, the last muted day, or false (also when unreadable). */
  muted: boolean | string;
  lastCheckedAt: string | null;
  lastOutcome: string | null;
  lastChangedAt: string | null;
  lastError: string | null;
  consecutiveFailures: number;
  consecutiveNotFound: number;
  goneAt: string | null;
  /** The case number's last DJEN check; null when DJEN was never asked about it (or is off). */
  djen: DjenCheck | null;
}

/** What the view reads besides each case's row. */
export interface StatusContext {
  /** The watchlist's cases in force (their rules say what is muted); null: it cannot be read. */
  cases: ReadonlyArray<{ digits: string; court: string; policy: CaseAlertPolicy }> | null;
  now: Date;
  timezone: string;
  /** DJEN sources by `kind:key` (`case:<digits>`); empty when DJEN is off. */
  djen: ReadonlyMap<string, DjenSourceRow>;
  /** The DJEN plan in force, for when each source's next look is due; null: none. */
  plan: PlanSettings | null;
}

/** Every watched case's status, in the rows' order. */
export function caseStatuses(rows: readonly CaseRow[], context: StatusContext): CaseStatus[] {
  const policies = new Map((context.cases ?? []).map((c) => [`${c.digits}@${c.court}`, c.policy]));
  return rows.map((row) => {
    const policy = policies.get(`${row.digits}@${row.court}`);
    const source = context.djen.get(`case:${row.digits}`);
    return {
      number: row.number,
      court: row.court,
      foundIn: row.foundIn,
      label: row.label,
      state: caseStateOf(row),
      muted: policy === undefined ? false : muteState(policy, context.now, context.timezone),
      lastCheckedAt: row.lastCheckedAt,
      lastOutcome: row.lastOutcome,
      lastChangedAt: row.lastChangedAt,
      lastError: row.lastError,
      consecutiveFailures: row.consecutiveFailures,
      consecutiveNotFound: row.consecutiveNotFound,
      goneAt: row.goneAt,
      djen: source === undefined ? null : djenCheckOf(source, context.plan),
    };
  });
}
