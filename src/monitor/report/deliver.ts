import { type DrainResult, drainOutbox } from "../../notify/outbox/drain.js";
import { drainEndpoints, type EndpointDrainResult } from "../../notify/outbox/endpoint-drain.js";
import type { MailDeps } from "./mail-deps.js";

function drainMail(mail: MailDeps, signal?: AbortSignal): Promise<DrainResult> {
  return drainOutbox({
    db: mail.db,
    transport: mail.transport,
    from: mail.from,
    listId: mail.listId,
    domain: mail.domain,
    clock: mail.clock,
    maxAttempts: mail.maxAttempts,
    logger: mail.logger,
    timezone: mail.timezone,
    claimant: mail.claimant,
    ...(signal ? { signal } : {}),
  });
}

/** Sends every e-mail that is due (stopping at `signal`); what fails waits for its retry. */
export async function deliver(
  mail: MailDeps,
  signal?: AbortSignal,
): Promise<DrainResult & { endpoints: EndpointDrainResult | null }> {
  let result = await drainMail(mail, signal);
  let told: EndpointDrainResult | null = null;
  mail.delivered?.(result);
  if (mail.endpoints !== undefined && !signal?.aborted) {
    // Webhooks and chat after the e-mail: each row claimed, sent and marked as mail is.
    const endpoints = await drainEndpoints({
      db: mail.db,
      endpoints: mail.endpoints.list,
      unsendable: mail.endpoints.declared.filter((e) => e.missing.length > 0),
      limits: mail.endpoints.limits,
      clock: mail.clock,
      maxAttempts: mail.endpoints.maxAttempts,
      logger: mail.logger,
      claimant: mail.claimant,
      operator: { admin: mail.admin, domain: mail.domain, policy: mail.policy },
      ...(signal ? { signal } : {}),
    });
    mail.endpoints.delivered?.(endpoints);
    told = endpoints;
    if (endpoints.operatorAlerts > 0 && !signal?.aborted) {
      // An endpoint was disabled or went dead: mail.admin hears of it now, not at the next drain.
      const more = await drainMail(mail, signal);
      mail.delivered?.(more);
      result = {
        ...more,
        sent: result.sent + more.sent,
        failed: result.failed + more.failed,
        dead: result.dead + more.dead,
        lastError: more.lastError ?? result.lastError,
      };
    }
  }
  return { ...result, endpoints: told };
}
