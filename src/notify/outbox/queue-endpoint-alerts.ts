import type { MailPolicy } from "../../policy/mail-policy.js";
import { type Db, immediate } from "../../store/database.js";
import { recordDaemonEndpoints } from "../../store/endpoint-state.js";
import { operatorAlert } from "./messages.js";
import { addQueued, emailEndpoints, NOTHING_QUEUED, type Queued, queueMessage } from "./queue.js";

/*
 * A daemon that starts without a variable an endpoint needs (its URL, token or secret) sends
 * nothing there, and its alerts wait in the outbox: it records which it lacks (status and doctor,
 * other processes, read it) and the operator is told once per spell, by mail.admin and the other
 * endpoints that take operator alerts, in the transaction that records it.
 */

export interface DaemonEndpointsContext {
  db: Db;
  /** `mail.admin`; null: only the endpoints that take operator alerts. */
  admin: string | null;
  /** The domain of our Message-IDs. */
  domain: string;
  now: Date;
  policy?: MailPolicy | undefined;
}

/** Records what this daemon lacks per declared endpoint; queues the operator's alert of each. */
export function recordDaemonSenders(
  context: DaemonEndpointsContext,
  declared: ReadonlyArray<{ channel: string; name: string; missing: readonly string[] }>,
): Queued {
  const { db, policy } = context;
  const admin = context.admin?.trim() ?? "";
  return immediate(db, () => {
    let queued = NOTHING_QUEUED;
    for (const e of recordDaemonEndpoints(db, declared, context.now.toISOString())) {
      // Not to an endpoint this daemon cannot send to: the alert would only wait there too.
      const others = policy?.endpoints?.filter(
        (p) =>
          !declared.some(
            (d) => d.missing.length > 0 && d.channel === p.channel && d.name === p.name,
          ),
      );
      queued = addQueued(
        queued,
        queueMessage(
          {
            db,
            domain: context.domain,
            at: context.now,
            policy:
              policy === undefined || others === undefined
                ? policy
                : { ...policy, endpoints: others },
          },
          operatorAlert(
            {
              type: "endpoint_unsendable",
              channel: e.channel,
              name: e.name,
              missing: e.missing,
              since: e.since,
              lastError: null,
            },
            null,
          ),
          emailEndpoints(admin === "" ? [] : [admin]),
        ),
      );
    }
    return queued;
  });
}
