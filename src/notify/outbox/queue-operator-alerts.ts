import {
  type CaseFailingAlert,
  caseFailingAlert,
  casesToReport,
  DEFAULT_FAILING_AFTER_MS,
  keyRefusal,
  lastAnswerAnywhere,
} from "../../policy/failing-cases.js";
import { caseGoneAlert } from "../../policy/gone-cases.js";
import {
  type AuthState,
  assertFailedSweepsThreshold,
  decideDjenHealth,
  decideKeyHealth,
  decideSweepsFailing,
  decideSweepsRecovery,
  type HealthDecision,
  type HealthFinding,
  type SweepTally,
  streakReachesThreshold,
  sweepsHealthQuestion,
} from "../../policy/health.js";
import type { MailPolicy } from "../../policy/mail-policy.js";
import { goneWatchedCases } from "../../store/cases.js";
import { type Db, immediate } from "../../store/database.js";
import {
  failingCases,
  firstFailureAfter,
  lastAnsweredOfHealthyCases,
  latestFailedCheckOfRun,
} from "../../store/failing-cases.js";
import { closeIncident, openIncident, openIncidentOf } from "../../store/health-incidents.js";
import {
  djenFailedStreakBefore,
  failedStreakBefore,
  sweepVerdictsBefore,
} from "../../store/runs.js";
import type { AdminAlert } from "../render/operator-mail.js";
import { operatorAlert } from "./messages.js";
import { addQueued, emailEndpoints, NOTHING_QUEUED, type Queued, queueMessage } from "./queue.js";

/**
 * Mail to `mail.admin` about problems only a person can fix. Case findings are derived from what
 * the sweeps stored (the `checks` table), so they are the same whichever process asks; monitor
 * health (the key, failed sweeps) is an incident that opens and closes (policy/health.ts). Each
 * finding is an outbox row with its own key: it is mailed once, however many sweeps still see it.
 */

export interface QueueAdminAlertsInput {
  db: Db;
  /**
   * `mail.admin`; null: nobody is told (the sweep's own log lines remain), no incident opens,
   * and an open one closes without a recovery e-mail.
   */
  admin: string | null;
  /** The domain of our Message-IDs. */
  domain: string;
  now: Date;
  /** How long a case may keep failing before the operator hears of it. @default 24 h */
  failingAfterMs?: number;
  /** Failed sweeps in a row before the operator hears of it (`mail.healthAfterFailedSweeps`). */
  failedSweepsThreshold: number;
  /** The sweep that just ran, its run still 'running'; null when called outside a sweep. */
  sweep: SweepTally | null;
  /** The alert policy in force: its webhook and chat endpoints hear operator alerts too. */
  policy?: MailPolicy | undefined;
}

interface Finding {
  recipient: string;
  caseId: number | null;
  alert: AdminAlert;
}

function record(db: Db, decision: HealthDecision, nowIso: string): void {
  if (decision.close !== null) closeIncident(db, decision.close, nowIso);
  if (decision.open !== null) openIncident(db, decision.open);
}

interface HealthEvaluation {
  findings: HealthFinding[];
  /** A sweeps incident is open after this evaluation: DataJud is down as a whole. */
  outage: boolean;
}

/**
 * Opens and closes health incidents and returns the e-mails that say so; inside the transaction
 * that queues those e-mails, so an incident and its e-mail exist together. The key comes first, so
 * a sweep failing for the key does not also open a sweeps incident.
 */
function evaluateHealth(
  db: Db,
  input: QueueAdminAlertsInput,
  admin: string,
  auth: AuthState | null,
): HealthEvaluation {
  const nowIso = input.now.toISOString();
  const threshold = input.failedSweepsThreshold;
  const openKey = openIncidentOf(db, "auth_rejected");
  const key = decideKeyHealth({ admin, nowIso, auth, open: openKey });
  record(db, key, nowIso);
  const sweep = input.sweep;
  const open = openIncidentOf(db, "sweeps_failing");
  const question = sweepsHealthQuestion({
    admin,
    sweep,
    open,
    keyIncidentOpen: key.open !== null || (openKey !== undefined && key.close === null),
  });
  let sweeps: HealthDecision | null = null;
  if (question === "recovery" && sweep !== null && open !== undefined) {
    sweeps = decideSweepsRecovery({
      admin,
      nowIso,
      open,
      streakBefore: failedStreakBefore(db, sweep.runId),
    });
  } else if (
    question === "streak" &&
    sweep !== null &&
    streakReachesThreshold(sweepVerdictsBefore(db, sweep.runId, threshold - 1), threshold)
  ) {
    sweeps = decideSweepsFailing({
      admin,
      nowIso,
      sweep,
      streakBefore: failedStreakBefore(db, sweep.runId),
      lastFailed: latestFailedCheckOfRun(db, sweep.runId),
    });
  }
  if (sweeps !== null) record(db, sweeps, nowIso);
  const djen = decideDjenHealth({
    admin,
    nowIso,
    sweep,
    open: openIncidentOf(db, "djen_failing"),
    threshold,
    streakBefore: () =>
      sweep === null ? { failedSweeps: 0, since: null } : djenFailedStreakBefore(db, sweep.runId),
  });
  record(db, djen, nowIso);
  return {
    findings: [...key.findings, ...(sweeps?.findings ?? []), ...djen.findings],
    outage: sweeps?.open != null || (open !== undefined && sweeps?.close == null),
  };
}

/**
 * Queues what the operator has not been told yet, and opens or closes health incidents in the same
 * transaction; call it after each sweep, before the drain. Returns how many rows were new (0 when
 * nothing is wrong, or everything was already queued).
 */
export function queueAdminAlerts(input: QueueAdminAlertsInput): Queued {
  const admin = input.admin?.trim() ?? "";
  const failingAfterMs = input.failingAfterMs ?? DEFAULT_FAILING_AFTER_MS;
  const { db } = input;
  assertFailedSweepsThreshold(input.failedSweepsThreshold);
  return immediate(db, () => {
    const failing = failingCases(db);
    const answered = lastAnswerAnywhere(failing, lastAnsweredOfHealthyCases(db));
    const auth = keyRefusal(
      failing,
      failing.map((c) => firstFailureAfter(db, c.id, answered, "auth")),
    );
    const health = evaluateHealth(db, input, admin, auth);
    // While whole sweeps fail, that one e-mail speaks for every case; one per case would be noise.
    const cases: Finding[] =
      admin === "" || health.outage
        ? []
        : casesToReport(failing, auth !== null).flatMap((c) => {
            const since = firstFailureAfter(db, c.id, c.answeredAt, null);
            const alert: CaseFailingAlert | null = caseFailingAlert(
              c,
              since,
              input.now,
              failingAfterMs,
            );
            return alert === null ? [] : [{ recipient: admin, caseId: c.id, alert }];
          });
    // Declared only on clean answers, so an outage never hides or causes one.
    const gone: Finding[] =
      admin === ""
        ? []
        : goneWatchedCases(db).flatMap((c) => {
            const alert = caseGoneAlert(c);
            return alert === null ? [] : [{ recipient: admin, caseId: c.id, alert }];
          });
    const findings: Finding[] = [
      ...health.findings.map((f) => ({ ...f, caseId: null })),
      ...cases,
      ...gone,
    ];
    let queued: Queued = NOTHING_QUEUED;
    for (const finding of findings) {
      queued = addQueued(
        queued,
        queueMessage(
          { db, domain: input.domain, at: input.now, policy: input.policy },
          operatorAlert(finding.alert, finding.caseId),
          emailEndpoints([finding.recipient]),
        ),
      );
    }
    return queued;
  });
}
