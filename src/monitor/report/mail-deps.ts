import type { CalendarFor } from "../../deadlines/publication-estimate.js";
import type { Logger } from "../../log.js";
import type { DrainResult } from "../../notify/outbox/drain.js";
import type { EndpointDrainResult } from "../../notify/outbox/endpoint-drain.js";
import type { Endpoint } from "../../notify/transport/endpoint.js";
import type { EndpointLimits } from "../../notify/transport/http-endpoint.js";
import type { MailTransport } from "../../notify/transport/mail-transport.js";
import type { CaseAlertPolicy } from "../../policy/alert-rules.js";
import type { DjenView } from "../../policy/djen-plan.js";
import type { MailPolicy } from "../../policy/mail-policy.js";
import type { Db } from "../../store/database.js";
import type { Claimant } from "../../store/lease.js";
import type { OutboxRow } from "../../store/outbox.js";
import type { Clock } from "../../time/clock.js";
import type { WatchedCase, WatchedOab, WatchedParty } from "../../watchlist/parse-watchlist.js";

/** What queueing and delivering mail needs, built once per process by the composition root. */
export interface MailDeps {
  db: Db;
  transport: MailTransport;
  /** The From header, e.g. `Monitor <monitor@example.com>`. */
  from: string;
  /** The watchlist's List-Id and the domain of our Message-IDs (mailIdentity). */
  listId: string;
  domain: string;
  /** Failed attempts after which an e-mail is given up (`mail.maxAttempts`). */
  maxAttempts: number;
  /** The schedule's time zone: our own instants in e-mails are shown in it. */
  timezone: string;
  /** Who claims outbox rows for their send: this process (one name for rows and `.eml` files). */
  claimant: Claimant;
  /** `mail.admin`: who hears of problems only a person can fix; null: nobody. */
  admin: string | null;
  /** Failed sweeps in a row before mail.admin hears of an outage. */
  failedSweepsThreshold: number;
  /** A case without movement for this many days is flagged in status reports. */
  staleAfterDays: number;
  /** The alert policy of the watchlist in force, built again on each use: a reload applies at once. */
  policy: () => MailPolicy;
  /** The watchlist's cases in force: a status report lists a watcher's cases in its order. */
  cases: () => readonly WatchedCase[];
  /** The watchlist's OAB registrations in force, with who hears of their DJEN publications. */
  oab: () => readonly WatchedOab[];
  /** The watched parties in force (the radar), with who hears of their new lawsuits; absent: none. */
  parties?: () => readonly WatchedParty[];
  /** `defaults.ignore` / `defaults.urgent`: the rules of a publication outside the watchlist. */
  defaultRules: () => CaseAlertPolicy;
  /** `monitor.notifyOnBaseline`: also mail what a case's or registration's first check found. */
  notifyOnBaseline: boolean;
  /** Whether DJEN is on and when each source is due, for the status reports. @default on */
  djen?: DjenView;
  /** Court calendars with the configured closures (deadline estimates); absent: none. */
  calendars?: CalendarFor | undefined;
  clock: Clock;
  logger: Logger;
  /** Told what each drain of the outbox came to (the daemon's metrics). */
  delivered?: (result: DrainResult) => void;
  /** An urgent alert's acknowledgement link for its row (acknowledgement.*); absent: none. */
  ackLink?: (row: OutboxRow) => string | null;
  /** The webhook and chat endpoints, and how to reach them; absent: e-mail only. */
  endpoints?: {
    /** Those this process can send to (it holds their secrets). */
    list: readonly Endpoint[];
    /**
     * Every endpoint the configuration names, with the variables this process lacks: rows for
     * one it cannot send to wait for a process that can, never given up here.
     */
    declared: ReadonlyArray<{ channel: string; name: string; missing: readonly string[] }>;
    limits: EndpointLimits;
    /** `notify.maxAttempts`. */
    maxAttempts: number;
    /** Told what each drain of their rows came to (the daemon's metrics). */
    delivered?: (result: EndpointDrainResult) => void;
  };
}
