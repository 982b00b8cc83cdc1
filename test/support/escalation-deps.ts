import { silentLogger } from "../../src/log.js";
import type { MailDeps } from "../../src/monitor/report/mail-deps.js";
import { drainOutbox } from "../../src/notify/outbox/drain.js";
import { createTransport } from "../../src/notify/transport/transports.js";
import { NO_ALERT_POLICY } from "../../src/policy/alert-rules.js";
import type { EscalationChain } from "../../src/policy/escalation.js";
import { type MailPolicy, mailPolicy } from "../../src/policy/mail-policy.js";
import type { Db } from "../../src/store/database.js";
import { thisProcessClaimant } from "../../src/store/lease.js";
import { realSystem } from "../../src/system.js";
import type { Clock } from "../../src/time/clock.js";
import { DOMAIN, FROM, LIST_ID } from "./outbox-store.js";

/** The sample alert's case (sampleAlert): TJDFT, on São Paulo's clock. */
export const ESCALATED_CASE = { digits: "07133834320258070006", court: "tjdft" };

/** within 4 business hours: socia@, then rui@. */
export const TWO_WATCHERS: EscalationChain = {
  within: 4,
  before: null,
  window: { start: 540, end: 1080 },
  chain: [
    { kind: "watcher", address: "socia@example.com" },
    { kind: "watcher", address: "rui@example.com" },
  ],
};

/** Acknowledgement links on (a week unless told), the case's chain `TWO_WATCHERS`. */
export function escalationPolicy(validHours = 168): MailPolicy {
  return mailPolicy(
    {
      cases: [{ ...ESCALATED_CASE, policy: NO_ALERT_POLICY, escalation: TWO_WATCHERS }],
      watchers: [],
    },
    {
      timezone: "America/Sao_Paulo",
      quietHours: null,
      urgentBypassesQuietHours: true,
      defaultDelivery: "instant",
      acknowledgement: { validHours },
    },
  );
}

/** What queueDueEscalations reads of MailDeps, for a process with no configuration of its own. */
export function escalationDeps(db: Db, clock: Clock): MailDeps {
  return {
    db,
    domain: DOMAIN,
    clock,
    logger: silentLogger(),
    policy: () => escalationPolicy(),
  } as unknown as MailDeps;
}

/** One e-mail drain to an SMTP server as this process, on `clock`. */
export async function drainTo(
  db: Db,
  smtpUrl: string,
  clock: Clock,
  outboxDir: string,
): Promise<void> {
  const transport = createTransport({ smtpUrl, outboxDir });
  try {
    await drainOutbox({
      claimant: thisProcessClaimant(realSystem),
      db,
      transport,
      from: FROM,
      listId: LIST_ID,
      domain: DOMAIN,
      clock,
      maxAttempts: 5,
      logger: silentLogger(),
    });
  } finally {
    transport.close();
  }
}
