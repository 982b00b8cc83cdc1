import { addQueued, type Queued } from "../../notify/outbox/queue.js";
import { queueAdminAlerts } from "../../notify/outbox/queue-operator-alerts.js";
import { queueStatusReports } from "../../notify/outbox/queue-status-reports.js";
import type { SweepTally } from "../../policy/health.js";
import { dateNow } from "../../time/clock.js";
import { queueCaseChecked } from "./case-checked.js";
import type { MailDeps } from "./mail-deps.js";
import { queueDueReceipts } from "./receipts.js";
import { checkSources } from "./source-check.js";

/**
 * The mail a sweep queues besides its changes' alerts: what mail.admin should hear of this sweep
 * (the key refused, DataJud down, a case failing for a day), what one source has that the other
 * lacks (source-check.ts), the day's case.checked events (case-checked.ts), and the status
 * reports and daily receipts now due.
 */
export function queueSweepMail(mail: MailDeps, sweep: SweepTally): Queued {
  const now = dateNow(mail.clock);
  const operator = queueAdminAlerts({
    db: mail.db,
    admin: mail.admin,
    domain: mail.domain,
    now,
    failedSweepsThreshold: mail.failedSweepsThreshold,
    sweep,
    policy: mail.policy(),
  });
  const sources = checkSources({
    db: mail.db,
    now,
    domain: mail.domain,
    admin: mail.admin,
    policy: mail.policy(),
    cases: mail.cases(),
  });
  const checked = queueCaseChecked({
    db: mail.db,
    now,
    domain: mail.domain,
    policy: mail.policy(),
    cases: mail.cases(),
    djenEnabled: mail.djen?.enabled ?? true,
  });
  // Status reports and receipts go by e-mail only.
  return addQueued(operator, sources.queued, checked, {
    email: queueDueStatusReports(mail, now) + queueReceiptsOf(mail, now),
  });
}

/** The daily receipts whose hour has come today and that are not queued yet. */
export function queueReceiptsOf(mail: MailDeps, now: Date): number {
  return queueDueReceipts({
    db: mail.db,
    now,
    domain: mail.domain,
    policy: mail.policy(),
    cases: mail.cases(),
    oab: mail.oab(),
    djenEnabled: mail.djen?.enabled ?? true,
  });
}

/** The status reports whose hour has come and that are not queued yet. */
export function queueDueStatusReports(mail: MailDeps, now: Date): number {
  return queueStatusReports({
    db: mail.db,
    policy: mail.policy(),
    cases: mail.cases(),
    oab: mail.oab(),
    now,
    staleAfterDays: mail.staleAfterDays,
    domain: mail.domain,
    ...(mail.djen === undefined ? {} : { djen: mail.djen }),
  });
}
