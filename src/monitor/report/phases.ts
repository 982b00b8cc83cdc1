import type { EndpointTally } from "../../notify/outbox/endpoint-drain.js";
import { addQueued, type Queued } from "../../notify/outbox/queue.js";
import { endpointStatuses } from "../../policy/endpoint-status.js";
import type { SweepTally } from "../../policy/health.js";
import { endpointStates } from "../../store/endpoint-state.js";
import { endpointOutbox, outboxCounts, retryingOutbox } from "../../store/outbox.js";
import { tokensSpentSince } from "../../store/summaries.js";
import type { Summarizer } from "../../summarize/summarizer.js";
import {
  createTokenBudget,
  startOfSaoPauloDay,
  type TokenBudget,
} from "../../summarize/token-budget.js";
import { dateNow } from "../../time/clock.js";
import type { EndpointReport, MailReport } from "../run-report.js";
import { deliver } from "./deliver.js";
import type { MailDeps } from "./mail-deps.js";
import { queueSweepMail } from "./queue-mail.js";
import { reportPartyHits } from "./report-party-hits.js";
import { reportPublications } from "./report-publications.js";
import { summarizeChanges } from "./summarize-changes.js";

/**
 * What follows the phases: `summarize` once detection is committed, `publications` once the DJEN
 * phase is, each followed by `deliver` when it queued mail; `queue` and `deliver` once both are.
 */
export interface ReportPhases {
  /**
   * Every stored DJEN publication not reported yet is decided and its alerts queued (those
   * outside the watchlist first), then the corrections of cancelled ones; returns the rows queued.
   */
  publications?(): Queued;
  /**
   * Every stored change without a summary gets one (the model, or the rules), and its alerts are
   * queued with it, to whom and when the alert policy says; `queued` hears each change's rows as
   * soon as they are committed. `modelUnavailable`: why the model stopped being asked partway.
   */
  summarize(
    signal: AbortSignal,
    queued?: (queued: Queued) => void,
  ): Promise<{ llmCalls: number; queued: Queued; modelUnavailable: string | null }>;
  /** What mail.admin should hear of this sweep, and the status reports now due. */
  queue(sweep: SweepTally): Queued;
  /**
   * Every e-mail that is due is sent. Two may run at once (one per phase): each row is claimed
   * before its send, so none goes twice. Says what came of it and what still waits.
   */
  deliver(signal: AbortSignal): Promise<Delivered>;
}

/** A delivery's mail, and the webhook and chat endpoints it sent to or left waiting. */
export interface Delivered extends MailReport {
  endpoints?: EndpointReport[];
}

/** What the phases after detection need, built once per process by the composition root. */
export interface ReportDeps {
  mail: MailDeps;
  /** The summarizer of one sweep, with that sweep's token budget. */
  summarizer: (budget: TokenBudget) => Summarizer;
  /** Tokens one sweep may spend, and one day (São Paulo) across sweeps. */
  budget: { runLimit: number; dayLimit: number };
}

/** The phases after detection, as the sweep runs them. */
export function reportPhases(deps: ReportDeps): ReportPhases {
  const { mail } = deps;
  return {
    publications: () =>
      addQueued(
        reportPublications({
          db: mail.db,
          clock: mail.clock,
          logger: mail.logger,
          mailDomain: mail.domain,
          policy: mail.policy(),
          cases: mail.cases(),
          oab: mail.oab(),
          defaultRules: mail.defaultRules(),
          notifyOnBaseline: mail.notifyOnBaseline,
          calendars: mail.calendars,
        }).queued,
        // The party radar's hits: new lawsuits naming a watched party (report-party-hits.ts).
        reportPartyHits({
          db: mail.db,
          clock: mail.clock,
          logger: mail.logger,
          mailDomain: mail.domain,
          policy: mail.policy(),
          parties: mail.parties?.() ?? [],
          cases: mail.cases(),
          notifyOnBaseline: mail.notifyOnBaseline,
          calendars: mail.calendars,
        }).queued,
      ),
    summarize: (signal, queued) => {
      const now = dateNow(mail.clock);
      // A fresh run budget per sweep; the day's budget counts what is already stored today.
      const summarizer = deps.summarizer(
        createTokenBudget({
          ...deps.budget,
          spentToday: tokensSpentSince(mail.db, startOfSaoPauloDay(now)),
        }),
      );
      return summarizeChanges(
        {
          db: mail.db,
          summarizer,
          clock: mail.clock,
          logger: mail.logger,
          mailDomain: mail.domain,
          policy: mail.policy(),
          calendars: mail.calendars,
          ...(queued === undefined ? {} : { queued }),
        },
        signal,
      );
    },
    queue: (sweep) => queueSweepMail(mail, sweep),
    deliver: async (signal) => {
      const drained = await deliver(mail, signal);
      const retrying = retryingOutbox(mail.db);
      return {
        sent: drained.sent,
        failed: drained.failed,
        dead: drained.dead,
        // E-mail only: each webhook and chat endpoint says what waits for it in `endpoints`.
        pending: outboxCounts(mail.db, "email").pending,
        retrying: retrying.rows,
        lastError: drained.lastError ?? retrying.lastError,
        nextAttemptAt: retrying.nextAttemptAt,
        endpoints: endpointsAfter(mail, drained.endpoints?.byEndpoint ?? []),
      };
    },
  };
}

/**
 * Each webhook and chat endpoint this delivery sent to, failed at or gave up on, or that has
 * alerts waiting: this delivery's counts, and what the outbox and the endpoint's state say now.
 */
function endpointsAfter(
  mail: MailDeps,
  tallies: ReadonlyArray<{ channel: string; name: string } & EndpointTally>,
): EndpointReport[] {
  if (mail.endpoints === undefined) return [];
  const declared = mail.endpoints.declared;
  const statuses = endpointStatuses(declared, endpointOutbox(mail.db), endpointStates(mail.db));
  return statuses.flatMap((s): EndpointReport[] => {
    const missing = declared.find((d) => d.channel === s.channel && d.name === s.name)?.missing;
    const tally = tallies.find((t) => t.channel === s.channel && t.name === s.name);
    if (tally === undefined && s.pending === 0) return [];
    return [
      {
        channel: s.channel,
        name: s.name,
        sent: tally?.sent ?? 0,
        failed: tally?.failed ?? 0,
        dead: tally?.dead ?? 0,
        pending: s.pending,
        retrying: s.retrying,
        nextAttemptAt: s.nextAttemptAt,
        lastError: s.lastError,
        condition: s.condition,
        disabledReason: s.disabledReason,
        missing: [...(missing ?? [])],
        // The sweep counts what it queued (sweep.ts); a delivery alone queues nothing.
        queued: 0,
      },
    ];
  });
}
