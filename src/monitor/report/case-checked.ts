import { caseCheckedKey, caseCheckedMessage } from "../../notify/outbox/messages.js";
import {
  addQueued,
  dedupeKey,
  NOTHING_QUEUED,
  type Queued,
  queueMessage,
} from "../../notify/outbox/queue.js";
import type { CaseChecked } from "../../notify/render/case-checked.js";
import type { MailPolicy } from "../../policy/mail-policy.js";
import { isMuted } from "../../policy/movement-rules.js";
import { type CaseRow, getCase } from "../../store/cases.js";
import { type Db, immediate } from "../../store/database.js";
import { getDjenSource } from "../../store/djen-sources.js";
import { outboxIdByDedupeKey } from "../../store/outbox.js";
import { instanceFreshness } from "../../store/source-freshness.js";
import { dateInZone } from "../../time/zoned-time.js";
import type { WatchedCase } from "../../watchlist/parse-watchlist.js";
import { sourcesOfCase } from "./source-check.js";

/*
 * case.checked (docs/channels.md): for the webhook and chat endpoints that ask for it (it is in no
 * endpoint's default events), one event per watched case per day (schedule.timezone), queued by
 * the first sweep of the day that checked the case, whatever that check's outcome: that the case
 * was looked at, what each source answered and how fresh each was. Its dedupe key holds the case
 * and the day, so later sweeps of the day, a retried run or a restart queue nothing more. A muted
 * case hears of nothing on any channel, this included.
 */

export interface CaseCheckedDeps {
  db: Db;
  now: Date;
  /** Our Message-IDs' domain. */
  domain: string;
  policy: MailPolicy;
  /** The watchlist's cases in force. */
  cases: readonly WatchedCase[];
  /** DJEN is on: its check of the case number is part of the event. */
  djenEnabled: boolean;
}

function eventOf(deps: CaseCheckedDeps, row: CaseRow, label: string | null, day: string) {
  const djen = deps.djenEnabled ? (getDjenSource(deps.db, "case", row.digits) ?? null) : undefined;
  const checked: CaseChecked = {
    type: "case_checked",
    caseNumber: row.number,
    court: row.court,
    label,
    day,
    outcome: row.lastOutcome === "failed" ? "failed" : "ok",
    datajud: { checkedAt: row.lastCheckedAt, outcome: row.lastOutcome, error: row.lastError },
    djen:
      djen === undefined
        ? null
        : {
            checkedAt: djen?.lastCheckedAt ?? null,
            outcome: djen?.lastOutcome ?? null,
            error: djen?.lastError ?? null,
          },
    instances: instanceFreshness(deps.db, row.id).map((i) => ({
      instance: i.instance,
      updatedAt: i.lastUpdatedAt ?? i.indexedAt,
    })),
    sources: sourcesOfCase(deps.db, row.id, deps.now),
  };
  return checked;
}

/** Queues today's case.checked of each case checked today that has none yet; rows by endpoint. */
export function queueCaseChecked(deps: CaseCheckedDeps): Queued {
  const { db, policy, now } = deps;
  const takers = (policy.endpoints ?? []).filter((e) => e.events.includes("case.checked"));
  if (takers.length === 0) return NOTHING_QUEUED;
  const day = dateInZone(now.getTime(), policy.timezone);
  const seen = new Set<string>();
  let queued: Queued = NOTHING_QUEUED;
  for (const c of deps.cases) {
    const id = `${c.digits}|${c.court}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const heard = deps.cases.filter(
      (w) =>
        w.digits === c.digits && w.court === c.court && !isMuted(w.policy, now, policy.timezone),
    );
    if (heard.length === 0) continue;
    const row = getCase(db, c.digits, c.court);
    if (row?.lastCheckedAt == null) continue;
    if (dateInZone(Date.parse(row.lastCheckedAt), policy.timezone) !== day) continue;
    const channels = [...new Set(heard.flatMap((w) => w.channels))];
    // Built only while some endpoint lacks it: later sweeps of the day cost one lookup each.
    const key = caseCheckedKey(row.number, row.court, day);
    const told = takers.every(
      (e) =>
        outboxIdByDedupeKey(db, dedupeKey(key, { channel: e.channel, address: e.name })) !==
        undefined,
    );
    if (told) continue;
    const message = caseCheckedMessage(
      eventOf(deps, row, c.label ?? row.label, day),
      row.id,
      channels,
    );
    queued = addQueued(
      queued,
      immediate(db, () => queueMessage({ db, domain: deps.domain, at: now, policy }, message, [])),
    );
  }
  return queued;
}
