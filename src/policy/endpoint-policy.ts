import type { EndpointPolicy } from "./alert-rules.js";
import { deliveryTime } from "./delivery-time.js";
import type { AlertDelivery, MailSettings } from "./mail-policy.js";

export type { EndpointChannel, EndpointPolicy } from "./alert-rules.js";

/*
 * Who among the webhook and chat endpoints hears of an alert, and when (pure). A case's mute and
 * ignore rules are decided before (movement-rules.ts, publication-rules.ts) and hold for every
 * channel alike. Then:
 * - Routing: the firm-wide endpoint (WEBHOOK_URL, named "webhook") hears of every case event; any
 *   other endpoint, of the cases whose `channels:` name it (defaults.channels for publications
 *   found through an OAB registration outside the watchlist). Operator alerts go to the
 *   endpoints whose events include them, as mail.admin hears them, with no watchlist routing.
 *   An endpoint only ever gets the event types it takes.
 * - Timing: a webhook is a machine: every event at once, never held by quiet hours nor grouped in
 *   a digest (the receiving system decides what to do with it). A chat channel is read by
 *   people: the configuration's quiet hours hold it like mail (urgent alerts go through when
 *   mail.urgentBypassesQuietHours says so) unless the endpoint opts out, and it may take a
 *   digest at its own schedule instead of one message per alert.
 */

export const FIRM_ENDPOINT = "webhook";

/**
 * The endpoints an event goes to. `channels`: the case's (its own and the defaults'), or the
 * defaults' for a publication outside the watchlist; ignored for operator alerts.
 */
export function endpointsFor(
  eventType: string,
  channels: readonly string[],
  endpoints: readonly EndpointPolicy[],
): EndpointPolicy[] {
  const named = new Set(channels);
  return endpoints.filter((e) => {
    if (!e.events.includes(eventType)) return false;
    if (eventType === "operator.alert" || e.name === FIRM_ENDPOINT) return true;
    return named.has(e.name);
  });
}

/** How one endpoint gets one alert queued at `at`: alone or in its digest, and not before when. */
export function endpointDelivery(
  endpoint: EndpointPolicy,
  mail: MailSettings,
  urgent: boolean,
  at: Date,
): AlertDelivery {
  if (endpoint.channel === "webhook") return { kind: "alert", notBefore: null };
  const due = deliveryTime({
    at,
    delivery: endpoint.delivery,
    digestSchedule: endpoint.delivery === "digest" ? endpoint.digestSchedule : null,
    quietHours: endpoint.quietHours ? mail.quietHours : null,
    bypassQuietHours: urgent && mail.urgentBypassesQuietHours,
    timezone: mail.timezone,
  });
  return {
    kind: endpoint.delivery === "digest" ? "digest" : "alert",
    notBefore: due === null ? null : due.toISOString(),
  };
}
