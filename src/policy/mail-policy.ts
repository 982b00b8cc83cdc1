import {
  type CaseAlertPolicy,
  type Delivery,
  type EndpointPolicy,
  NO_ALERT_POLICY,
  type WatcherSettings,
} from "./alert-rules.js";
import { deliveryTime, type QuietHours, quietHoursEnd } from "./delivery-time.js";
import type { EscalationChain } from "./escalation.js";

export interface MailSettings {
  timezone: string;
  quietHours: QuietHours | null;
  urgentBypassesQuietHours: boolean;
  /** `mail.mode`: the delivery of watchers the watchlist does not give one. */
  defaultDelivery: Delivery;
  /** The configured webhook and chat endpoints (endpoint-policy.ts); absent: none. */
  endpoints?: readonly EndpointPolicy[];
  /**
   * Urgent alerts ask for an acknowledgement, by a link valid this long (`acknowledgement.*`, on
   * only with a public base URL and ACK_SECRET); absent: no alert asks.
   */
  acknowledgement?: { validHours: number };
}

/**
 * Who gets what mail, when: the current watchlist's rules and watchers with the configuration's
 * mail settings. Built again from the watchlist in force each time it is needed, so a reloaded
 * watchlist applies to the next change reported.
 */
export interface MailPolicy extends MailSettings {
  /** Rules of a case; a case no longer in the watchlist has none (its watchers still hear). */
  casePolicy(digits: string, court: string): CaseAlertPolicy;
  /** The watchlist's `watchers:` entry for an address, matched without regard to case. */
  watcher(address: string): WatcherSettings | undefined;
  /** Every `watchers:` entry, in file order. */
  watchers: readonly WatcherSettings[];
  /** The endpoints a case's `channels:` name (with the defaults'); none for a case not listed. */
  channels(digits: string, court: string): readonly string[];
  /** `defaults.channels`: who hears of a publication outside the watchlist. */
  defaultChannels: readonly string[];
  /**
   * The escalation chain of a listed case (its own, else the defaults'); null for a case not
   * listed, turned off, or none configured.
   */
  escalation(digits: string, court: string): EscalationChain | null;
  /** `defaults.escalation`: the chain of a publication outside the watchlist; null: none. */
  defaultEscalation: EscalationChain | null;
}

/** How one message goes out: alone ("alert") or in the recipient's digest, and not before when. */
export interface AlertDelivery {
  kind: "alert" | "digest";
  /** ISO time before which it is not sent (a digest's hour, the end of quiet hours); null: now. */
  notBefore: string | null;
}

/** What the alert policy reads of a watchlist: each case's rules and the `watchers:` entries. */
export interface PolicySource {
  cases: ReadonlyArray<{
    digits: string;
    court: string;
    policy: CaseAlertPolicy;
    channels?: readonly string[];
    escalation?: EscalationChain | null;
  }>;
  watchers: readonly WatcherSettings[];
  defaults?: { channels?: readonly string[]; escalation?: EscalationChain | null };
}

export function mailPolicy(watchlist: PolicySource, settings: MailSettings): MailPolicy {
  const cases = new Map(watchlist.cases.map((c) => [`${c.digits}|${c.court}`, c.policy]));
  const watchers = new Map(watchlist.watchers.map((w) => [w.address.toLowerCase(), w]));
  const channels = new Map(
    watchlist.cases.map((c) => [`${c.digits}|${c.court}`, c.channels ?? []]),
  );
  const escalations = new Map(
    watchlist.cases.map((c) => [`${c.digits}|${c.court}`, c.escalation ?? null]),
  );
  return {
    ...settings,
    escalation: (digits, court) => escalations.get(`${digits}|${court}`) ?? null,
    defaultEscalation: watchlist.defaults?.escalation ?? null,
    channels: (digits, court) => channels.get(`${digits}|${court}`) ?? [],
    defaultChannels: watchlist.defaults?.channels ?? [],
    casePolicy: (digits, court) => cases.get(`${digits}|${court}`) ?? NO_ALERT_POLICY,
    watcher: (address) => watchers.get(address.trim().toLowerCase()),
    watchers: watchlist.watchers,
  };
}

/** How one watcher gets one alert queued at `at`: alone or in a digest, and not before when. */
export function alertDelivery(
  policy: MailPolicy,
  recipient: string,
  urgent: boolean,
  at: Date,
): AlertDelivery {
  const watcher = policy.watcher(recipient);
  const delivery = watcher?.delivery ?? policy.defaultDelivery;
  const due = deliveryTime({
    at,
    delivery,
    digestSchedule: delivery === "digest" ? (watcher?.digestSchedule ?? null) : null,
    quietHours: policy.quietHours,
    bypassQuietHours: urgent && policy.urgentBypassesQuietHours,
    timezone: policy.timezone,
  });
  return {
    kind: delivery === "digest" ? "digest" : "alert",
    notBefore: due === null ? null : due.toISOString(),
  };
}

/**
 * When a queued message may go out. alert: as its watcher gets alerts (alone or in their digest;
 * held by quiet hours, which an urgent one crosses when the settings allow); after-quiet-hours:
 * alone, held by quiet hours (a status report); now: at once, alone (operator mail, a test).
 */
export type DeliveryTiming =
  | { rule: "alert"; urgent: boolean }
  | { rule: "after-quiet-hours" }
  | { rule: "now" };

const AT_ONCE: AlertDelivery = { kind: "alert", notBefore: null };

/**
 * The one delivery-time rule of the outbox: how a message queued at `at` for `address` goes out.
 * Without a policy (no watchlist in force) everything goes out at once, alone.
 */
export function deliveryOf(
  policy: MailPolicy | undefined,
  address: string,
  timing: DeliveryTiming,
  at: Date,
): AlertDelivery {
  if (policy === undefined || timing.rule === "now") return AT_ONCE;
  if (timing.rule === "alert") return alertDelivery(policy, address, timing.urgent, at);
  const end = quietHoursEnd(at, policy.quietHours, policy.timezone);
  return { kind: "alert", notBefore: end === null ? null : end.toISOString() };
}
