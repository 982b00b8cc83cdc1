import { immediate } from "../store/database.js";
import { sealLedger } from "../store/ledger.js";
import { countDueOutboxAll } from "../store/outbox.js";
import { dateNow } from "../time/clock.js";
import { deliver } from "./report/deliver.js";
import { queueDueEscalations } from "./report/escalate.js";
import type { MailDeps } from "./report/mail-deps.js";
import { queueDueStatusReports, queueReceiptsOf } from "./report/queue-mail.js";

/**
 * Between sweeps (the daemon, every minute): the status reports and daily receipts whose hour
 * came are queued, and
 * whatever has come due on any channel is sent (digests at their hour, alerts held by quiet hours,
 * retries; e-mail, webhooks and chat alike). A query on an index when nothing is due; null then.
 */
export async function mailTick(
  mail: MailDeps,
  signal?: AbortSignal,
): Promise<Awaited<ReturnType<typeof deliver>> | null> {
  const now = dateNow(mail.clock);
  queueDueStatusReports(mail, now);
  queueReceiptsOf(mail, now);
  // An escalation step whose time came is due at once: counted below like any due row.
  queueDueEscalations(mail, now);
  // What DJEN between sweeps and the last minute's sends wrote is chained into the record of
  // watching within a minute, whatever is due.
  immediate(mail.db, () => sealLedger(mail.db));
  if (countDueOutboxAll(mail.db, now.toISOString()) === 0) return null;
  const result = await deliver(mail, signal);
  immediate(mail.db, () => sealLedger(mail.db));
  return result;
}
