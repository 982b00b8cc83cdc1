import { type DrainResult, drainOutbox } from "../../notify/outbox/drain.js";
import type { MailDeps } from "./mail-deps.js";

/** Sends every e-mail that is due (stopping at `signal`); what fails waits for its retry. */
export function deliver(mail: MailDeps, signal?: AbortSignal): Promise<DrainResult> {
  return drainOutbox({
    db: mail.db,
    transport: mail.transport,
    from: mail.from,
    listId: mail.listId,
    domain: mail.domain,
    now: () => new Date(mail.clock.now()),
    maxAttempts: mail.maxAttempts,
    logger: mail.logger,
    timezone: mail.timezone,
    claimant: mail.claimant,
    ...(signal ? { signal } : {}),
  });
}
