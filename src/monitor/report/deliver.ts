import { type DrainResult, drainOutbox } from "../../notify/outbox/drain.js";
import { drainEndpoints } from "../../notify/outbox/endpoint-drain.js";
import type { MailDeps } from "./mail-deps.js";

/** Sends every e-mail that is due (stopping at `signal`); what fails waits for its retry. */
export async function deliver(mail: MailDeps, signal?: AbortSignal): Promise<DrainResult> {
  const result = await drainOutbox({
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
  mail.delivered?.(result);
  if (mail.endpoints !== undefined && !signal?.aborted) {
    // Webhooks and chat after the e-mail: each row claimed, sent and marked as mail is.
    const endpoints = await drainEndpoints({
      db: mail.db,
      endpoints: mail.endpoints.list,
      limits: mail.endpoints.limits,
      now: () => new Date(mail.clock.now()),
      maxAttempts: mail.endpoints.maxAttempts,
      logger: mail.logger,
      claimant: mail.claimant,
      ...(signal ? { signal } : {}),
    });
    mail.endpoints.delivered?.(endpoints);
  }
  return result;
}
