import { receiptKey, receiptMessage } from "../../notify/outbox/messages.js";
import { dedupeKey, emailEndpoints, queuedRows, queueMessage } from "../../notify/outbox/queue.js";
import type { Receipt, ReceiptCase, ReceiptOab } from "../../notify/render/receipt.js";
import type { MailPolicy } from "../../policy/mail-policy.js";
import { isMuted } from "../../policy/movement-rules.js";
import { getCase } from "../../store/cases.js";
import { type Db, immediate } from "../../store/database.js";
import { getDjenSource } from "../../store/djen-sources.js";
import { checkTally } from "../../store/ledger.js";
import { outboxIdByDedupeKey } from "../../store/outbox.js";
import { type PublicationRow, publicationsSeenSince } from "../../store/publications.js";
import { openSilentCourts } from "../../store/source-freshness.js";
import { addDays } from "../../time/calendar-date.js";
import { dateInZone, instantInZone } from "../../time/zoned-time.js";
import type { WatchedCase, WatchedOab } from "../../watchlist/parse-watchlist.js";
import { sourcesOfCase } from "./source-check.js";

/*
 * The daily receipts (docs/freshness.md): each watcher with `receipt: "HH:MM"` gets, once a day
 * once that hour has come (schedule.timezone), what was checked of their cases since the same
 * hour the day before, when, and which source was late or failing. Called every minute by the
 * daemon's mail tick and after every sweep; the dedupe key (day, address) makes it once per day
 * per watcher, across restarts. A day the monitor was down at the hour still gets its receipt
 * when it comes back within a day. A muted case is left out, as from everything else the watcher
 * hears.
 */

export interface ReceiptDeps {
  db: Db;
  now: Date;
  /** Our Message-IDs' domain. */
  domain: string;
  policy: MailPolicy;
  /** The watchlist's cases in force. */
  cases: readonly WatchedCase[];
  /** The watchlist's OAB registrations in force: a watcher's are in their receipt. */
  oab: readonly WatchedOab[];
  /** DJEN is on: each case's and registration's DJEN checks are in the receipt. */
  djenEnabled: boolean;
}

interface Due {
  address: string;
  day: string;
  periodStart: string;
}

/** When the monitor began watching any of the address's cases and registrations; null: not yet. */
function watchingSince(deps: ReceiptDeps, address: string): number | null {
  const who = address.toLowerCase();
  const told = (notify: readonly string[]) => notify.some((a) => a.toLowerCase() === who);
  const starts = [
    ...deps.cases
      .filter((c) => told(c.notify))
      .flatMap((c) => getCase(deps.db, c.digits, c.court)?.createdAt ?? []),
    ...deps.oab
      .filter((o) => told(o.notify))
      .flatMap((o) => getDjenSource(deps.db, "oab", o.key)?.lastCheckedAt ?? []),
  ].map((iso) => Date.parse(iso));
  return starts.length === 0 ? null : Math.min(...starts);
}

/**
 * Each receipt due: the latest hour of each watcher's that has passed (today's, else yesterday's,
 * so a receipt whose hour passed while the monitor was down goes when it is back), not queued
 * yet, and not of a time before the monitor watched anything of the watcher's.
 */
function dueReceipts(deps: ReceiptDeps): Due[] {
  const { db, policy, now } = deps;
  const today = dateInZone(now.getTime(), policy.timezone);
  const due: Due[] = [];
  for (const watcher of policy.watchers) {
    const hour = watcher.receipt ?? null;
    if (hour === null) continue;
    const day =
      now.getTime() >= instantInZone(today, hour, policy.timezone) ? today : addDays(today, -1);
    const key = dedupeKey(receiptKey(day), { channel: "email", address: watcher.address });
    if (outboxIdByDedupeKey(db, key) !== undefined) continue;
    const since = watchingSince(deps, watcher.address);
    if (since === null || since > instantInZone(day, hour, policy.timezone)) continue;
    const start = instantInZone(addDays(day, -1), hour, policy.timezone);
    due.push({ address: watcher.address, day, periodStart: new Date(start).toISOString() });
  }
  return due;
}

function receiptCase(
  deps: ReceiptDeps,
  c: WatchedCase,
  periodStart: string,
  read: readonly PublicationRow[],
  silent: ReadonlyMap<string, string>,
): ReceiptCase {
  const row = getCase(deps.db, c.digits, c.court);
  const tally = checkTally(deps.db, c.digits, periodStart);
  const sources = row === undefined ? null : sourcesOfCase(deps.db, row.id, deps.now);
  const djen = deps.djenEnabled ? getDjenSource(deps.db, "case", c.digits) : undefined;
  const published = read.filter(
    (p) => p.caseNumber === c.digits && !p.baseline && p.firstSeenAt >= periodStart,
  ).length;
  return {
    caseNumber: c.number,
    court: c.court,
    label: c.label,
    datajud: {
      checks: tally.datajud,
      failed: tally.datajudFailed,
      lastCheckedAt: row?.lastCheckedAt ?? null,
      lastOutcome: row?.lastOutcome ?? null,
      lastError: row?.lastError ?? null,
      updatedAt: sources?.dataJudUpdatedAt ?? null,
      late: sources?.dataJudLate ?? false,
      silentSince: silent.get(row?.foundIn ?? c.court) ?? null,
    },
    djen: deps.djenEnabled
      ? {
          checks: tally.djen,
          failed: tally.djenFailed,
          lastCheckedAt: djen?.lastCheckedAt ?? null,
          lastOkAt: djen?.lastOkAt ?? null,
          lastOutcome: djen?.lastOutcome ?? null,
          lastError: djen?.lastError ?? null,
        }
      : null,
    news: tally.datajudChanged + published,
  };
}

function receiptOab(deps: ReceiptDeps, o: WatchedOab, periodStart: string): ReceiptOab {
  const tally = checkTally(deps.db, `oab:${o.key}`, periodStart);
  const source = getDjenSource(deps.db, "oab", o.key);
  return {
    registration: o.key,
    checks: tally.djen,
    failed: tally.djenFailed,
    lastOkAt: source?.lastOkAt ?? null,
    lastOutcome: source?.lastOutcome ?? null,
    lastError: source?.lastError ?? null,
  };
}

/** Queues each receipt whose hour has come today and that is not queued yet; returns how many. */
export function queueDueReceipts(deps: ReceiptDeps): number {
  const due = dueReceipts(deps);
  if (due.length === 0) return 0;
  const { db, policy, now } = deps;
  const oldest = due.map((d) => d.periodStart).sort()[0] ?? now.toISOString();
  const read = publicationsSeenSince(db, oldest);
  // A court is its DataJud index here, as in the freshness figures.
  const silent = new Map(openSilentCourts(db).map((s) => [s.court, s.since]));
  return immediate(db, () => {
    let queued = 0;
    for (const { address, day, periodStart } of due) {
      const who = address.toLowerCase();
      const seen = new Set<string>();
      const cases = deps.cases.filter((c) => {
        const id = `${c.digits}|${c.court}`;
        if (seen.has(id) || !c.notify.some((a) => a.toLowerCase() === who)) return false;
        if (isMuted(c.policy, now, policy.timezone)) return false;
        seen.add(id);
        return true;
      });
      const receipt: Receipt = {
        type: "receipt",
        day,
        periodStart,
        generatedAt: now.toISOString(),
        cases: cases.map((c) => receiptCase(deps, c, periodStart, read, silent)),
        oab: deps.djenEnabled
          ? deps.oab
              .filter((o) => o.notify.some((a) => a.toLowerCase() === who))
              .map((o) => receiptOab(deps, o, periodStart))
          : [],
      };
      queued += queuedRows(
        queueMessage(
          { db, domain: deps.domain, at: now, policy },
          receiptMessage(receipt),
          emailEndpoints([address]),
        ),
      );
    }
    return queued;
  });
}
