import { acknowledgedMessage } from "../notify/outbox/messages.js";
import { queueMessage } from "../notify/outbox/queue.js";
import type { MailPolicy } from "../policy/mail-policy.js";
import { type AcknowledgementRow, recordAcknowledgement } from "../store/acknowledgements.js";
import { getCaseById } from "../store/cases.js";
import { type Db, immediate } from "../store/database.js";
import type { OutboxRow } from "../store/outbox.js";
import type { Clock } from "../time/clock.js";

/*
 * The one way an urgent alert becomes acknowledged, whichever way the person said so (the link's
 * button, a Telegram or WhatsApp reply "ciente"): who and when recorded on the alert's one
 * acknowledgements row, the first wins, and its alert.acknowledged event queued in the same
 * transaction, so an escalation reading that row stops whatever the way was.
 */

export interface RecordDeps {
  db: Db;
  clock: Clock;
  /** Our Message-ID domain, for the event's row. */
  domain: string;
  /** The policy in force: which endpoints take alert.acknowledged. */
  policy: () => MailPolicy | undefined;
}

/** Records `who` acknowledged `ack` at `at`; false when someone did first (nothing changes). */
export function acknowledge(
  deps: RecordDeps,
  ack: AcknowledgementRow,
  by: { who: string; at: string; via: "link" | "telegram" | "whatsapp" },
): boolean {
  const { db, clock } = deps;
  return immediate(db, () => {
    if (!recordAcknowledgement(db, ack.id, { who: by.who, at: by.at })) return false;
    const kase = ack.caseId === null ? undefined : getCaseById(db, ack.caseId);
    queueMessage(
      { db, domain: deps.domain, at: new Date(clock.now()), policy: deps.policy() },
      acknowledgedMessage({
        ack,
        case:
          kase === undefined ? null : { number: kase.number, court: kase.court, label: kase.label },
        by: by.who,
        at: by.at,
        via: by.via,
      }),
      [],
    );
    return true;
  });
}

/** Who a row speaks for: its watcher's address, a watcher's number, or a chat endpoint. */
export function whoOfRow(row: Pick<OutboxRow, "channel" | "recipient" | "target">): string {
  if (row.channel === "email") return row.recipient;
  if (row.target !== null) return `${row.channel} ${row.target}`;
  return `${row.channel}:${row.recipient}`;
}
