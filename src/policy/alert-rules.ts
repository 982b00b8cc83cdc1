/*
 * What the watchlist says about when a change is worth an e-mail: movements to ignore or to treat
 * as urgent, muted cases, and how each watcher wants their mail. The watchlist parser builds these;
 * the alert policy (this folder) applies them.
 */

/** One item of an `ignore:` or `urgent:` list. */
export type MovementRule =
  /** A TPU movement code, written as a number (or a string of digits). */
  | { kind: "code"; code: number }
  /**
   * A piece of the movement's name, matched anywhere in it, ignoring case, accents and repeated
   * spaces: "conclusao" matches "Conclusão" and "Juntada" matches "Juntada de Petição".
   */
  | { kind: "name"; text: string; folded: string };

export interface CaseAlertPolicy {
  /** `defaults.ignore` followed by the case's own, without repeats. */
  ignore: MovementRule[];
  /** `defaults.urgent` followed by the case's own, without repeats. Urgent wins over ignore. */
  urgent: MovementRule[];
  /** `muted: true`: no alerts until the line is removed. */
  muted: boolean;
  /** `muted_until: YYYY-MM-DD`: no alerts through the end of that day (schedule time zone). */
  mutedUntil: string | null;
}

export const NO_ALERT_POLICY: CaseAlertPolicy = Object.freeze({
  ignore: [],
  urgent: [],
  muted: false,
  mutedUntil: null,
}) as CaseAlertPolicy;

export type Delivery = "instant" | "digest";

/** One item of `watchers:`: how one address gets its mail. Unlisted addresses use the defaults. */
export interface WatcherSettings {
  /** Normalized like the notify lists (domain lower-cased). */
  address: string;
  /** Null: `mail.mode` from the configuration. */
  delivery: Delivery | null;
  /** Cron for a digest (schedule time zone); null: a digest after every sweep. Only with digest. */
  digestSchedule: string | null;
  /** Cron for the periodic status report; null: none. */
  statusReport: string | null;
  /** Their WhatsApp number (E.164, with its "+"), for a per-watcher whatsapp endpoint; null: none. */
  whatsapp?: string | null;
  /**
   * The daily receipt's hour, "HH:MM" in the schedule's zone: what was checked, and which source
   * was late or failing, in the next digest or alone; null: none (docs/freshness.md).
   */
  receipt?: string | null;
  /** Where the entry starts in the file. */
  line: number;
}

/** Lower case, no accents, single spaces: how names and name rules are compared. */
export { foldText } from "../text.js";

/** How one webhook or chat endpoint takes alerts (the configuration's notify.endpoints). */
export type EndpointChannel = "webhook" | "slack" | "teams" | "telegram" | "whatsapp";

export interface EndpointPolicy {
  name: string;
  channel: EndpointChannel;
  /** The event types it takes. */
  events: readonly string[];
  /** Chat only; a webhook is always instant. */
  delivery: Delivery;
  /** Cron of a chat digest (schedule time zone); null: a digest after every sweep. */
  digestSchedule: string | null;
  /** Chat only: whether the configuration's quiet hours hold its messages. */
  quietHours: boolean;
  /**
   * WhatsApp without a number of its own: it takes each watcher's alerts to the watcher's
   * `whatsapp:` number, never a case's `channels:` routing.
   */
  perWatcher?: boolean;
}
