import { formatCnjNumber } from "../../datajud/cnj-number.js";
import type { CalendarFor } from "../../deadlines/publication-estimate.js";
import { StoredPublication } from "../../djen/publication.js";
import type { Logger } from "../../log.js";
import { partyMatchAlert, publicationAlert } from "../../notify/outbox/messages.js";
import {
  addQueued,
  emailEndpoints,
  NOTHING_QUEUED,
  type Queued,
  queuedEmails,
  queueMessage,
} from "../../notify/outbox/queue.js";
import type { PublicationAlertContent } from "../../notify/render/publication-alert.js";
import type { MailPolicy } from "../../policy/mail-policy.js";
import { startsDeadline } from "../../policy/publication-rules.js";
import { CONFIDENCE_RANK } from "../../radar/classify.js";
import { formatTaxId } from "../../radar/tax-id.js";
import { type Db, immediate } from "../../store/database.js";
import {
  type HitDisposition,
  type PartyHitRow,
  partyCaseReported,
  partyHitsAwaitingReport,
  setPartyHitDisposition,
} from "../../store/party-hits.js";
import type { PublicationRow } from "../../store/publications.js";
import { type Clock, dateNow } from "../../time/clock.js";
import type { WatchedCase, WatchedParty } from "../../watchlist/parse-watchlist.js";
import { estimateOf } from "./publication-estimates.js";
import { publicationContent } from "./report-publications.js";

/*
 * The report phase of the party radar: each stored hit not reported yet is decided. The first
 * hit of a (party, case) is the news of a new lawsuit: one alert, to the party's watchers, with
 * the best-matched item of that case among those awaiting (confirmado before provável before
 * possível homônimo), its dates and deadline estimate as for any DJEN item, and the command that
 * starts watching the case; a source's first answer is a baseline (recorded, not told). Later
 * items of that case are no new lawsuit: recorded, or mailed as the case's publications when the
 * party says `later: publications`. Decision and alert are committed in one transaction.
 */

export interface ReportPartyHitsDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  mailDomain: string;
  policy?: MailPolicy | undefined;
  parties: readonly WatchedParty[];
  cases: readonly WatchedCase[];
  notifyOnBaseline: boolean;
  calendars?: CalendarFor | undefined;
  /** How the command line is called, for the alert's `watch` command. @default "datajud-monitor" */
  program?: string;
}

export interface ReportedPartyHits {
  reported: number;
  /** New lawsuits told (one per party and case). */
  newCases: number;
  /** E-mail rows queued. */
  emailsQueued: number;
  /** Every row queued, by endpoint (e-mail, webhooks, chats). */
  queued: Queued;
}

/** The publication row shape the publication alert is built from, for a hit. */
function rowOf(hit: PartyHitRow): PublicationRow {
  return {
    id: hit.id,
    djenId: hit.djenId,
    caseNumber: hit.caseNumber,
    court: hit.court,
    availableOn: hit.availableOn,
    kind: hit.kind,
    documentType: null,
    courtUnit: null,
    publication: hit.publication,
    text: hit.text,
    foundBy: [`party:${hit.foundBy}`],
    firstSeenAt: hit.firstSeenAt,
    runId: hit.runId,
    baseline: hit.baseline,
    disposition: null,
    reportedAt: null,
    cancelledAt: null,
    cancellation: null,
    correctionReportedAt: null,
    estimate: null,
  };
}

/** A shell word: quoted when it holds anything but safe characters. */
function shellWord(text: string): string {
  return /^[\w./@:-]+$/u.test(text) ? text : `'${text.replace(/'/gu, `'\\''`)}'`;
}

/** The command that adds the case to the watchlist, as the alert gives it. */
export function watchCommand(program: string, caseNumber: string, party: WatchedParty): string {
  const label = `${party.name.slice(0, 60)} (nova ação)`;
  return `${program} watch ${formatCnjNumber(caseNumber)} --label ${shellWord(label)}`;
}

function contentOf(
  deps: ReportPartyHitsDeps,
  hit: PartyHitRow,
  publication: StoredPublication,
  party: WatchedParty,
  later: boolean,
): PublicationAlertContent {
  const row = rowOf(hit);
  const urgency = startsDeadline(publication) ? "starts_deadline" : null;
  const content = publicationContent(row, publication, {
    notice: "published",
    audience: { primary: undefined, registrations: [] },
    urgency,
    estimate: estimateOf(row, publication, deps.calendars),
    calendars: deps.calendars,
  });
  return {
    ...content,
    radar: {
      party: party.name,
      partyKey: party.key,
      document:
        party.document === null
          ? null
          : `${party.document.kind.toUpperCase()} ${formatTaxId(party.document)}`,
      confidence: hit.confidence,
      reason: hit.reason,
      recipient: hit.recipient,
      side: hit.side,
      watchCommand: watchCommand(deps.program ?? "datajud-monitor", hit.caseNumber, party),
      later,
    },
  };
}

function parsed(deps: ReportPartyHitsDeps, hit: PartyHitRow): StoredPublication | null {
  const result = StoredPublication.safeParse(hit.publication);
  if (result.success) return result.data;
  deps.logger.error(
    { djenId: hit.djenId, issue: result.error.issues[0]?.message },
    "stored radar hit cannot be read; not reported",
  );
  return null;
}

/** Best match first, then the oldest. */
function best(a: PartyHitRow, b: PartyHitRow): number {
  return CONFIDENCE_RANK[a.confidence] - CONFIDENCE_RANK[b.confidence] || a.id - b.id;
}

export function reportPartyHits(deps: ReportPartyHitsDeps): ReportedPartyHits {
  const result: ReportedPartyHits = {
    reported: 0,
    newCases: 0,
    emailsQueued: 0,
    queued: NOTHING_QUEUED,
  };
  const now = dateNow(deps.clock);
  const at = now.toISOString();
  const watched = new Set(deps.cases.map((c) => c.digits));
  const groups = new Map<string, PartyHitRow[]>();
  for (const hit of partyHitsAwaitingReport(deps.db)) {
    const key = `${hit.partyKey}|${hit.caseNumber}`;
    groups.set(key, [...(groups.get(key) ?? []), hit]);
  }
  for (const hits of groups.values()) {
    const first = hits[0];
    if (first === undefined) continue;
    const party = deps.parties.find((p) => p.key === first.partyKey);
    const queued = immediate(deps.db, (): Queued => {
      const decide = (hit: PartyHitRow, disposition: HitDisposition): void => {
        setPartyHitDisposition(deps.db, hit.id, disposition, at);
        result.reported += 1;
      };
      if (party === undefined || watched.has(first.caseNumber)) {
        for (const hit of hits) decide(hit, party === undefined ? "unwatched" : "watched");
        return NOTHING_QUEUED;
      }
      const ranked = [...hits].sort(best);
      let count: Queued = NOTHING_QUEUED;
      let laterOnes = ranked;
      if (!partyCaseReported(deps.db, party.key, first.caseNumber)) {
        const [news, ...rest] = ranked;
        laterOnes = rest;
        if (news !== undefined) {
          const publication = parsed(deps, news);
          if (news.baseline && !deps.notifyOnBaseline) decide(news, "baseline");
          else if (publication !== null) {
            count = addQueued(
              count,
              queueMessage(
                { db: deps.db, domain: deps.mailDomain, at: now, policy: deps.policy },
                partyMatchAlert(contentOf(deps, news, publication, party, false), party.channels),
                emailEndpoints(party.notify),
              ),
            );
            decide(news, "alert");
            result.newCases += 1;
          }
        }
      }
      for (const hit of laterOnes) {
        const publication = party.later === "publications" ? parsed(deps, hit) : null;
        if (publication === null || hit.baseline) {
          decide(hit, "later");
          continue;
        }
        count = addQueued(
          count,
          queueMessage(
            { db: deps.db, domain: deps.mailDomain, at: now, policy: deps.policy },
            publicationAlert(contentOf(deps, hit, publication, party, true), null, party.channels),
            emailEndpoints(party.notify),
          ),
        );
        decide(hit, "publication");
      }
      return count;
    });
    result.queued = addQueued(result.queued, queued);
    result.emailsQueued += queuedEmails(queued);
  }
  if (result.newCases > 0) {
    deps.logger.info(
      { newCases: result.newCases, reported: result.reported },
      "party radar: new lawsuits told",
    );
  }
  return result;
}
