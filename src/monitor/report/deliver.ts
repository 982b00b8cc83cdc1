import { CHANNELS, senderOf } from "../../notify/outbox/channels.js";
import { type DrainResult, drainOutbox } from "../../notify/outbox/drain.js";
import { drainEndpoints, type EndpointDrainResult } from "../../notify/outbox/endpoint-drain.js";
import { dateNow } from "../../time/clock.js";
import { queueDueEscalations } from "./escalate.js";
import type { MailDeps } from "./mail-deps.js";

/** A delivery, and once more when it queued an operator alert (an endpoint disabled or dead). */
const PASSES = 2;

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
    ...(mail.ackLink === undefined ? {} : { ackLink: mail.ackLink }),
    ...(signal ? { signal } : {}),
  });
}

function drainChannel(
  mail: MailDeps & { endpoints: NonNullable<MailDeps["endpoints"]> },
  channel: string,
  signal?: AbortSignal,
): Promise<EndpointDrainResult> {
  return drainEndpoints({
    db: mail.db,
    endpoints: mail.endpoints.list,
    unsendable: mail.endpoints.declared.filter((e) => e.missing.length > 0),
    channels: [channel],
    limits: mail.endpoints.limits,
    clock: mail.clock,
    maxAttempts: mail.endpoints.maxAttempts,
    logger: mail.logger,
    claimant: mail.claimant,
    operator: { admin: mail.admin, domain: mail.domain, policy: mail.policy },
    ...(mail.ackLink === undefined ? {} : { ackLink: mail.ackLink }),
    ...(signal ? { signal } : {}),
  });
}

function addMail(a: DrainResult, b: DrainResult): DrainResult {
  return {
    sent: a.sent + b.sent,
    failed: a.failed + b.failed,
    dead: a.dead + b.dead,
    deferred: b.deferred,
    lastError: b.lastError ?? a.lastError,
  };
}

function addEndpoints(a: EndpointDrainResult | null, b: EndpointDrainResult): EndpointDrainResult {
  if (a === null) return b;
  const byEndpoint = a.byEndpoint.map((e) => ({ ...e }));
  for (const e of b.byEndpoint) {
    const same = byEndpoint.find((x) => x.channel === e.channel && x.name === e.name);
    if (same === undefined) byEndpoint.push({ ...e });
    else {
      same.sent += e.sent;
      same.failed += e.failed;
      same.dead += e.dead;
    }
  }
  return {
    sent: a.sent + b.sent,
    failed: a.failed + b.failed,
    dead: a.dead + b.dead,
    operatorAlerts: a.operatorAlerts + b.operatorAlerts,
    byEndpoint,
  };
}

const NOTHING_SENT: DrainResult = { sent: 0, failed: 0, dead: 0, deferred: 0, lastError: null };

/**
 * The one delivery loop: every channel's due rows, in CHANNELS order (e-mail, then each webhook
 * and chat channel), each by its channel's sender (notify/outbox/channels.ts). The sweep's
 * deliver phase, the daemon's minute tick and its start all run it, so a webhook retry, a chat
 * digest or an alert quiet hours held goes out on the tick it comes due, e-mail or not. When an
 * endpoint was disabled or went dead, the operator alert it queued goes out in a second pass of
 * the same delivery, not at the next one. Escalation steps now due (escalate.ts) are queued first.
 * Stops at `signal`; what fails waits for its retry.
 */
export async function deliver(
  mail: MailDeps,
  signal?: AbortSignal,
): Promise<DrainResult & { endpoints: EndpointDrainResult | null }> {
  // Escalation steps now due are committed first, then sent with the rest.
  queueDueEscalations(mail, dateNow(mail.clock));
  let result = NOTHING_SENT;
  let told: EndpointDrainResult | null = null;
  for (let pass = 0; pass < PASSES; pass++) {
    let operatorAlerts = 0;
    for (const channel of CHANNELS) {
      if (signal?.aborted) break;
      if (senderOf(channel) === "mail") {
        const drained = await drainMail(mail, signal);
        mail.delivered?.(drained);
        result = addMail(result, drained);
        continue;
      }
      const endpoints = mail.endpoints;
      if (endpoints === undefined) continue;
      const drained = await drainChannel({ ...mail, endpoints }, channel, signal);
      endpoints.delivered?.(drained);
      told = addEndpoints(told, drained);
      operatorAlerts += drained.operatorAlerts;
    }
    if (operatorAlerts === 0 || signal?.aborted) break;
  }
  return { ...result, endpoints: told };
}
