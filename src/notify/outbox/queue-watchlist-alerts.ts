import type { MailPolicy } from "../../policy/mail-policy.js";
import {
  decideWatchlistAccepted,
  decideWatchlistRefused,
  type WatchlistDecision,
} from "../../policy/watchlist-health.js";
import { type Db, immediate } from "../../store/database.js";
import { closeIncident, openIncident, openIncidentOf } from "../../store/health-incidents.js";
import {
  keepGoodWatchlist,
  lastGoodWatchlist,
  markWatchlistRefused,
} from "../../store/last-good-watchlist.js";
import { operatorAlert } from "./messages.js";
import { emailEndpoints, queuedRows, queueMessage } from "./queue.js";

/**
 * The watchlist's side of monitor health: every watchlist a process accepts is kept as the last
 * good copy, and the daemon running on that copy because the file is invalid is an incident with
 * one operator alert each way (policy/watchlist-health.ts). The copy, the incident and the alert
 * are written in one transaction.
 */

export interface WatchlistHealthContext {
  db: Db;
  /** `mail.admin`; null: nobody is told (status and /readyz still say it). */
  admin: string | null;
  /** The domain of our Message-IDs. */
  domain: string;
  now: Date;
  /** The alert policy in force: its endpoints that take operator alerts hear these too. */
  policy?: MailPolicy | undefined;
}

function apply(context: WatchlistHealthContext, decision: WatchlistDecision): number {
  const { db } = context;
  if (decision.close !== null) closeIncident(db, decision.close, context.now.toISOString());
  if (decision.open !== null) openIncident(db, decision.open);
  let queued = 0;
  for (const finding of decision.findings) {
    queued += queuedRows(
      queueMessage(
        { db, domain: context.domain, at: context.now, policy: context.policy },
        operatorAlert(finding.alert, null),
        emailEndpoints([finding.recipient]),
      ),
    );
  }
  return queued;
}

/**
 * A valid watchlist was accepted (the daemon's start or reload, run-once): kept as the last good
 * copy; a watchlist incident open is over, and told so. Returns the alerts queued.
 */
export function acceptWatchlist(
  context: WatchlistHealthContext,
  copy: { path: string; text: string },
): number {
  const nowIso = context.now.toISOString();
  return immediate(context.db, () => {
    keepGoodWatchlist(context.db, { ...copy, acceptedAt: nowIso });
    const decision = decideWatchlistAccepted({
      admin: context.admin?.trim() ?? "",
      nowIso,
      open: openIncidentOf(context.db, "watchlist_invalid"),
      file: copy.path,
    });
    return apply(context, decision);
  });
}

/**
 * The daemon runs on the last good copy because the file is invalid: the refusal is recorded
 * (since its first moment, with the newest errors) and, the first time, the operator is told.
 * Returns the alerts queued; none when no copy is stored.
 */
export function refuseWatchlist(
  context: WatchlistHealthContext,
  refusal: { file: string; errors: readonly string[]; cases: number; atStart: boolean },
): number {
  const nowIso = context.now.toISOString();
  return immediate(context.db, () => {
    if (!markWatchlistRefused(context.db, { at: nowIso, errors: refusal.errors })) return 0;
    const copy = lastGoodWatchlist(context.db);
    if (copy === undefined) return 0;
    const decision = decideWatchlistRefused({
      admin: context.admin?.trim() ?? "",
      nowIso,
      open: openIncidentOf(context.db, "watchlist_invalid"),
      refusal: {
        since: copy.refusedSince ?? nowIso,
        file: refusal.file,
        errors: refusal.errors,
        goodCopyAcceptedAt: copy.acceptedAt,
        goodCopyCases: refusal.cases,
        atStart: refusal.atStart,
      },
    });
    return apply(context, decision);
  });
}
