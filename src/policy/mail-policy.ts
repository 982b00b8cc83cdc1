import {
  type CaseAlertPolicy,
  type Delivery,
  NO_ALERT_POLICY,
  type WatcherSettings,
} from "./alert-rules.js";
import { deliveryTime, type QuietHours } from "./delivery-time.js";

export interface MailSettings {
  timezone: string;
  quietHours: QuietHours | null;
  urgentBypassesQuietHours: boolean;
  /** `mail.mode`: the delivery of watchers the watchlist does not give one. */
  defaultDelivery: Delivery;
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
}

/** How one watcher gets one alert: alone or in their digest, and not before when. */
export interface AlertDelivery {
  kind: "alert" | "digest";
  /** ISO time before which it is not sent (a digest's hour, the end of quiet hours); null: now. */
  notBefore: string | null;
}

/** What the alert policy reads of a watchlist: each case's rules and the `watchers:` entries. */
export interface PolicySource {
  cases: ReadonlyArray<{ digits: string; court: string; policy: CaseAlertPolicy }>;
  watchers: readonly WatcherSettings[];
}

export function mailPolicy(watchlist: PolicySource, settings: MailSettings): MailPolicy {
  const cases = new Map(watchlist.cases.map((c) => [`${c.digits}|${c.court}`, c.policy]));
  const watchers = new Map(watchlist.watchers.map((w) => [w.address.toLowerCase(), w]));
  return {
    ...settings,
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
