import { z } from "zod";
import { courtDocumentLink } from "../../datajud/court-links.js";
import type { DeadlineEstimate } from "../../deadlines/estimate-schema.js";
import { type CalendarFor, ESTIMATE_NOTE } from "../../deadlines/publication-estimate.js";
import { sameRegistration } from "../../djen/oab.js";
import { lawyerOabText, StoredPublication } from "../../djen/publication.js";
import { publicationFacts } from "../../djen/publication-facts.js";
import { cutPlainText, truncationNote } from "../../djen/publication-text.js";
import type { Logger } from "../../log.js";
import { publicationAlert, publicationKey } from "../../notify/outbox/messages.js";
import {
  addQueued,
  type Endpoint,
  emailEndpoints,
  isChannel,
  NOTHING_QUEUED,
  type Queued,
  queuedEmails,
  queuedRows,
  queueMessage,
} from "../../notify/outbox/queue.js";
import type { PublicationAlertContent } from "../../notify/render/publication-alert.js";
import { type CaseAlertPolicy, NO_ALERT_POLICY } from "../../policy/alert-rules.js";
import type { MailPolicy } from "../../policy/mail-policy.js";
import { decidePublication } from "../../policy/publication-rules.js";
import { getCase } from "../../store/cases.js";
import { type Db, immediate } from "../../store/database.js";
import {
  markEstimateTold,
  openEstimates,
  publicationIdsWithoutEstimate,
} from "../../store/deadline-estimates.js";
import { outboxEndpointsByKeyPrefix } from "../../store/outbox.js";
import {
  correctionsAwaitingReport,
  getPublicationById,
  markCorrectionReported,
  type PublicationDisposition,
  type PublicationRow,
  publicationsAwaitingReport,
  setPublicationDisposition,
} from "../../store/publications.js";
import { type Clock, dateNow } from "../../time/clock.js";
import { dateInZone, SAO_PAULO_ZONE } from "../../time/zoned-time.js";
import type { WatchedCase, WatchedOab } from "../../watchlist/parse-watchlist.js";
import { estimateOf, previousDates, recordEstimate, seatOf } from "./publication-estimates.js";
import { sourcesOfCase } from "./source-check.js";

/*
 * The report phase for DJEN publications: each stored publication no run has reported yet is
 * decided (baseline, muted, ignored, cancelled, or an alert) and its alerts are queued, one per
 * watcher, in the transaction that records the decision; then the corrections of publications
 * DJEN cancelled after they were mailed. Those outside the watchlist go first.
 */

export interface ReportPublicationsDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** The domain of our Message-IDs. */
  mailDomain: string;
  /** The watchlist's rules and watchers; absent: every alert sent at once, nothing ignored. */
  policy?: MailPolicy;
  /** The watchlist in force: its cases, OAB registrations and default rules. */
  cases: readonly WatchedCase[];
  oab: readonly WatchedOab[];
  /** defaults.ignore / defaults.urgent: the rules of a publication outside the watchlist. */
  defaultRules: CaseAlertPolicy;
  /** `monitor.notifyOnBaseline`: mail what a source's first check found too. */
  notifyOnBaseline: boolean;
  /** Court calendars with the configured closures; absent: none configured. */
  calendars?: CalendarFor | undefined;
}

export interface ReportedPublications {
  reported: number;
  /** E-mail rows queued. */
  emailsQueued: number;
  /** Every row queued, by endpoint (e-mail, webhooks, chats). */
  queued: Queued;
  corrections: number;
  /** Open estimates whose dates moved this sweep (a closure configured, a holiday learned). */
  reestimated: number;
}

const Cancellation = z.object({ reason: z.string().nullable(), at: z.string().nullable() });

/** Who a publication concerns: the watched cases of its number, the registrations it names. */
interface Audience {
  cases: WatchedCase[];
  /** The case whose rules apply: the one followed in the court that sent it, else the first. */
  primary: WatchedCase | undefined;
  registrations: WatchedOab[];
  recipients: string[];
}

function audienceOf(
  deps: ReportPublicationsDeps,
  row: PublicationRow,
  publication: StoredPublication,
): Audience {
  const cases = deps.cases.filter((c) => row.caseNumber !== null && c.digits === row.caseNumber);
  const primary =
    cases.find((c) => c.court.toUpperCase() === publication.court) ?? cases[0] ?? undefined;
  const registrations = deps.oab.filter((o) =>
    publication.lawyers.some((lawyer) => sameRegistration(o.registration, lawyer)),
  );
  const seen = new Set<string>();
  const recipients: string[] = [];
  for (const address of [
    ...cases.flatMap((c) => c.notify),
    ...registrations.flatMap((o) => o.notify),
  ]) {
    const key = address.trim().toLowerCase();
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    recipients.push(address.trim());
  }
  return { cases, primary, registrations, recipients };
}

function policyOf(deps: ReportPublicationsDeps, audience: Audience): CaseAlertPolicy {
  const primary = audience.primary;
  if (primary === undefined) return deps.defaultRules;
  return (
    deps.policy?.casePolicy(primary.digits, primary.court) ?? primary.policy ?? NO_ALERT_POLICY
  );
}

/** Everything the e-mail says, computed now so that a resend renders the same e-mail. */
export function publicationContent(
  row: PublicationRow,
  publication: StoredPublication,
  context: {
    notice: PublicationAlertContent["notice"];
    audience: Pick<Audience, "primary" | "registrations">;
    urgency: PublicationAlertContent["urgency"];
    /** The `urgent:` rule that matched, named in the alert. @default null */
    urgentRule?: PublicationAlertContent["urgentRule"];
    /** The estimate to show; absent: the one stored for it, else one computed now. */
    estimate?: DeadlineEstimate | undefined;
    calendars?: CalendarFor | undefined;
    /** A re-estimated notice: the revision and the dates the previous mail gave. */
    reestimate?: { revision: number; previous: PublicationAlertContent["previous"] } | undefined;
  },
): PublicationAlertContent {
  const text = cutPlainText(row.text);
  const primary = context.audience.primary;
  // What DJEN said when it cancelled it (recorded then); the stored item predates it.
  const cancellation =
    Cancellation.safeParse(row.cancellation).data ?? publication.cancellation ?? null;
  return {
    type: "publication",
    notice: context.notice,
    djenId: publication.id,
    caseNumber: publication.caseNumberFormatted,
    watchedCase: primary === undefined ? null : { court: primary.court, label: primary.label },
    outsideWatchlist: primary === undefined,
    registrations: context.audience.registrations.map((o) => o.key),
    ...publicationFacts(publication, {
      text: row.text,
      stored: context.estimate ?? row.estimate,
      calendars: context.calendars,
    }),
    ...(context.reestimate === undefined
      ? {}
      : { estimateRevision: context.reestimate.revision, previous: context.reestimate.previous }),
    countingNote: ESTIMATE_NOTE,
    text: text.text,
    truncationNote: truncationNote(text),
    link: courtDocumentLink(publication.link),
    certificateUrl: publication.certificateUrl,
    parties: publication.recipients,
    lawyers: publication.lawyers.map((l) => ({
      name: l.name,
      oab: lawyerOabText(l),
    })),
    urgent: context.urgency !== null,
    urgency: context.urgency,
    urgentRule: context.urgentRule ?? null,
    cancellation: context.notice === "cancelled" ? cancellation : null,
    fetchedAt:
      context.notice === "cancelled" ? (row.cancelledAt ?? row.firstSeenAt) : row.firstSeenAt,
  };
}

/** The webhook and chat endpoints told of a publication: its cases', or the defaults' outside. */
function channelsOf(deps: ReportPublicationsDeps, content: PublicationAlertContent): string[] {
  if (content.outsideWatchlist) return [...(deps.policy?.defaultChannels ?? [])];
  const digits = content.caseNumber?.replace(/\D/gu, "") ?? "";
  return [...new Set(deps.cases.filter((c) => c.digits === digits).flatMap((c) => c.channels))];
}

function queue(
  deps: ReportPublicationsDeps,
  content: PublicationAlertContent,
  endpoints: readonly Endpoint[],
  caseId: number | null,
  now: Date,
): Queued {
  const withSources =
    caseId === null ? content : { ...content, sources: sourcesOfCase(deps.db, caseId, now) };
  return queueMessage(
    { db: deps.db, domain: deps.mailDomain, at: now, policy: deps.policy },
    publicationAlert(withSources, caseId, channelsOf(deps, content)),
    endpoints,
  );
}

/** Those told of a publication, whatever the watchlist says now; nobody when it was never mailed. */
function toldOf(deps: ReportPublicationsDeps, djenId: string): Endpoint[] {
  return outboxEndpointsByKeyPrefix(deps.db, `${publicationKey(djenId)}:`).flatMap(
    (r): Endpoint[] => (isChannel(r.channel) ? [{ channel: r.channel, address: r.recipient }] : []),
  );
}

function parsed(deps: ReportPublicationsDeps, row: PublicationRow): StoredPublication | null {
  const result = StoredPublication.safeParse(row.publication);
  if (result.success) return result.data;
  deps.logger.error(
    { djenId: row.djenId, issue: result.error.issues[0]?.message },
    "stored DJEN publication cannot be read; not reported",
  );
  return null;
}

function caseIdOf(deps: ReportPublicationsDeps, audience: Audience): number | null {
  const primary = audience.primary;
  return primary === undefined
    ? null
    : (getCase(deps.db, primary.digits, primary.court)?.id ?? null);
}

function reportOne(
  deps: ReportPublicationsDeps,
  row: PublicationRow,
  publication: StoredPublication,
  now: Date,
): { disposition: PublicationDisposition; queued: Queued } {
  const audience = audienceOf(deps, row, publication);
  const decision = decidePublication({
    facts: publication,
    policy: policyOf(deps, audience),
    now,
    timezone: deps.policy?.timezone ?? SAO_PAULO_ZONE,
  });
  const disposition: PublicationDisposition =
    row.cancelledAt !== null || !publication.active
      ? "cancelled"
      : row.baseline && !deps.notifyOnBaseline
        ? "baseline"
        : decision.disposition;
  const at = now.toISOString();
  const seat = seatOf(deps.db, caseIdOf(deps, audience), publication);
  const estimate = estimateOf(row, publication, deps.calendars, seat);
  return immediate(deps.db, () => {
    setPublicationDisposition(deps.db, row.id, disposition, at);
    // Cancelled before anyone was told: there is nothing to correct, nor a deadline to follow.
    if (disposition === "cancelled") {
      markCorrectionReported(deps.db, row.id, at);
      recordEstimate(deps.db, row, estimate, [], at, seat);
      return { disposition, queued: NOTHING_QUEUED };
    }
    const saved = recordEstimate(deps.db, row, estimate, audience.recipients, at, seat);
    if (disposition !== "alert") return { disposition, queued: NOTHING_QUEUED };
    const content = publicationContent(row, publication, {
      notice: "published",
      audience,
      urgency: decision.urgency,
      urgentRule: decision.urgentRule,
      estimate,
    });
    const queued = queue(
      deps,
      content,
      emailEndpoints(audience.recipients),
      caseIdOf(deps, audience),
      now,
    );
    if (audience.recipients.length > 0) markEstimateTold(deps.db, saved.row.id, saved.row.revision);
    return { disposition, queued };
  });
}

/**
 * Re-estimates one open estimate on the calendar as configured now; when a date moved and the
 * publication was mailed, those told of it get one correction with the old and new dates.
 */
function reestimateOne(
  deps: ReportPublicationsDeps,
  row: PublicationRow,
  publication: StoredPublication,
  now: Date,
): { moved: boolean; queued: Queued } {
  const audience = audienceOf(deps, row, publication);
  const seat = seatOf(deps.db, caseIdOf(deps, audience), publication);
  const estimate = estimateOf(row, publication, deps.calendars, seat);
  return immediate(deps.db, () => {
    const saved = recordEstimate(deps.db, row, estimate, [], now.toISOString(), seat);
    if (saved.kind !== "moved") return { moved: false, queued: NOTHING_QUEUED };
    if (saved.row.toldRevision === null) return { moved: true, queued: NOTHING_QUEUED };
    const told = toldOf(deps, row.djenId);
    const content = publicationContent(row, publication, {
      notice: "re-estimated",
      audience,
      urgency: null,
      estimate,
      reestimate: { revision: saved.row.revision, previous: previousDates(saved.before) },
    });
    const queued = queue(deps, content, told, caseIdOf(deps, audience), now);
    markEstimateTold(deps.db, saved.row.id, saved.row.revision);
    return { moved: true, queued };
  });
}

/**
 * Every open estimate (a date today or later, São Paulo) on the calendar as configured now, and
 * an estimate for each publication reported before estimates were kept (stored, not mailed: the
 * alert that went out then counts as told, so a later move is corrected).
 */
function reestimatePublications(
  deps: ReportPublicationsDeps,
  now: Date,
): {
  reestimated: number;
  queued: Queued;
} {
  const result = { reestimated: 0, queued: NOTHING_QUEUED };
  for (const id of publicationIdsWithoutEstimate(deps.db)) {
    const row = getPublicationById(deps.db, id);
    const publication = row === undefined ? null : parsed(deps, row);
    if (row === undefined || publication === null) continue;
    const found = audienceOf(deps, row, publication);
    const seat = seatOf(deps.db, caseIdOf(deps, found), publication);
    const estimate = estimateOf(row, publication, deps.calendars, seat);
    immediate(deps.db, () => {
      const watchers = row.disposition === "cancelled" ? [] : found.recipients;
      const saved = recordEstimate(deps.db, row, estimate, watchers, now.toISOString(), seat);
      if (row.disposition === "alert") markEstimateTold(deps.db, saved.row.id, saved.row.revision);
    });
  }
  for (const open of openEstimates(deps.db, dateInZone(now.getTime()))) {
    const row = getPublicationById(deps.db, open.publicationId);
    if (row === undefined || row.cancelledAt !== null || row.disposition === "cancelled") continue;
    const publication = parsed(deps, row);
    if (publication === null) continue;
    const { moved, queued } = reestimateOne(deps, row, publication, now);
    if (moved) result.reestimated += 1;
    result.queued = addQueued(result.queued, queued);
  }
  return result;
}

function correctOne(
  deps: ReportPublicationsDeps,
  row: PublicationRow,
  publication: StoredPublication,
  now: Date,
): Queued {
  const audience = audienceOf(deps, row, publication);
  return immediate(deps.db, () => {
    // Those told of it, whatever the watchlist says now; nobody when it was never mailed.
    const told = toldOf(deps, row.djenId);
    const content = publicationContent(row, publication, {
      notice: "cancelled",
      audience,
      urgency: null,
    });
    const queued = queue(deps, content, told, caseIdOf(deps, audience), now);
    markCorrectionReported(deps.db, row.id, now.toISOString());
    return queued;
  });
}

export function reportPublications(deps: ReportPublicationsDeps): ReportedPublications {
  const result: ReportedPublications = {
    reported: 0,
    emailsQueued: 0,
    queued: NOTHING_QUEUED,
    corrections: 0,
    reestimated: 0,
  };
  const now = dateNow(deps.clock);
  const watched = new Set(deps.cases.map((c) => c.digits));
  const outside = (row: PublicationRow): boolean =>
    row.caseNumber === null || !watched.has(row.caseNumber);
  // Publications in cases outside the watchlist first: reported apart, ahead of the rest.
  const awaiting = publicationsAwaitingReport(deps.db).sort(
    (a, b) => Number(outside(b)) - Number(outside(a)) || a.id - b.id,
  );
  const quiet: Partial<Record<PublicationDisposition, number>> = {};
  for (const row of awaiting) {
    const publication = parsed(deps, row);
    if (publication === null) continue;
    const { disposition, queued } = reportOne(deps, row, publication, now);
    result.reported += 1;
    result.queued = addQueued(result.queued, queued);
    if (disposition !== "alert") quiet[disposition] = (quiet[disposition] ?? 0) + 1;
  }
  for (const row of correctionsAwaitingReport(deps.db)) {
    const publication = parsed(deps, row);
    if (publication === null) continue;
    const queued = correctOne(deps, row, publication, now);
    result.queued = addQueued(result.queued, queued);
    if (queuedRows(queued) > 0) result.corrections += 1;
  }
  const reestimated = reestimatePublications(deps, now);
  result.reestimated = reestimated.reestimated;
  result.queued = addQueued(result.queued, reestimated.queued);
  result.emailsQueued = queuedEmails(result.queued);
  if (reestimated.reestimated > 0) {
    deps.logger.info(
      { reestimated: reestimated.reestimated, corrections: queuedRows(reestimated.queued) },
      "DJEN deadline estimates moved by the court calendar",
    );
  }
  if (Object.keys(quiet).length > 0) {
    // The answer to "why did no e-mail come?", without reading monitor history.
    deps.logger.info(quiet, "DJEN publications recorded without mail");
  }
  return result;
}
