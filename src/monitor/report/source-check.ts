import { parseCnjNumber } from "../../datajud/cnj-number.js";
import { courtCaseLink } from "../../datajud/court-links.js";
import { wallClockDay } from "../../datajud/dates.js";
import { djenGapMessage, operatorAlert } from "../../notify/outbox/messages.js";
import {
  addQueued,
  emailEndpoints,
  NOTHING_QUEUED,
  type Queued,
  queuedRows,
  queueMessage,
} from "../../notify/outbox/queue.js";
import type { DjenGapWarning } from "../../notify/render/djen-gap.js";
import type { AlertSources } from "../../notify/render/sources-line.js";
import type { MailPolicy } from "../../policy/mail-policy.js";
import { isMuted } from "../../policy/movement-rules.js";
import {
  AVAILABILITY_CODE,
  courtSilence,
  djenCovered,
  gapUrgent,
  lagDays,
  lagSummary,
  lateDataJudNotes,
  NOTE_HORIZON_DAYS,
  RECORDING_CODES,
  recordingMovement,
  saoPauloDay,
  URGENT_FOR_DAYS,
} from "../../policy/source-freshness.js";
import { getCaseById } from "../../store/cases.js";
import { type Db, immediate } from "../../store/database.js";
import { getDjenSource } from "../../store/djen-sources.js";
import {
  closeSilentCourt,
  countPublicationsNear,
  courtUpdates,
  djenCarriesCourt,
  djenDaysOf,
  gapCandidates,
  insertDjenGap,
  insertSourceLag,
  instanceFreshness,
  lagsByCourt,
  lagsOfCourt,
  matchedMovements,
  movementPlace,
  openSilentCourt,
  openSilentCourts,
  recordingMovementsOf,
  type StoredRecordingMovement,
  unmatchedPublications,
} from "../../store/source-freshness.js";
import { addDays } from "../../time/calendar-date.js";
import type { WatchedCase } from "../../watchlist/parse-watchlist.js";

/*
 * The two sources checked against each other after each sweep (docs/freshness.md), once both
 * chains are committed: each DJEN publication of a watched case is matched to the DataJud
 * movement that records it (the court's lag), a DataJud disponibilização DJEN did not return
 * is warned of once, and a court whose DataJud feed went silent while DJEN publishes is told to
 * mail.admin once. Each finding is committed with the messages it queues. The lawyers' warning
 * goes by e-mail and, as a publication.missing event, to the case's webhooks and chats.
 */

/** How far back publications are matched: a DataJud record months late still measures a lag. */
const MATCH_HORIZON_DAYS = 120;

/** Days around a disponibilização in which any DJEN item of the case means DJEN has it. */
const GAP_TOLERANCE_DAYS = 3;

export interface SourceCheckDeps {
  db: Db;
  now: Date;
  /** Our Message-IDs' domain. */
  domain: string;
  admin: string | null;
  policy: MailPolicy;
  /** The watchlist's cases in force: who hears of a DJEN miss. */
  cases: readonly WatchedCase[];
}

export interface SourceCheckResult {
  lagsMeasured: number;
  gapsFound: number;
  silentOpened: number;
  silentClosed: number;
  /** Rows queued (lawyers' warnings by e-mail; operator alerts by e-mail and endpoints). */
  queued: Queued;
}

export function checkSources(deps: SourceCheckDeps): SourceCheckResult {
  const nowIso = deps.now.toISOString();
  const lagsMeasured = immediate(deps.db, () => measureLags(deps.db, nowIso));
  const gaps = findGaps(deps, nowIso);
  const silence = immediate(deps.db, () => checkSilence(deps, nowIso));
  return {
    lagsMeasured,
    gapsFound: gaps.found,
    silentOpened: silence.opened,
    silentClosed: silence.closed,
    queued: addQueued(gaps.queued, silence.queued),
  };
}

/** Matches each unmatched publication to the movement recording it; returns lags measured. */
export function measureLags(db: Db, nowIso: string): number {
  const since = addDays(saoPauloDay(nowIso), -MATCH_HORIZON_DAYS);
  const movements = new Map<number, StoredRecordingMovement[]>();
  const taken = new Map<number, Set<number>>();
  let measured = 0;
  for (const p of unmatchedPublications(db, since)) {
    let list = movements.get(p.caseId);
    if (list === undefined) {
      list = recordingMovementsOf(db, p.caseId, [...RECORDING_CODES]);
      movements.set(p.caseId, list);
    }
    let used = taken.get(p.caseId);
    if (used === undefined) {
      used = matchedMovements(db, p.caseId);
      taken.set(p.caseId, used);
    }
    const movement = recordingMovement(p.availableOn, list, used);
    if (movement === null) continue;
    used.add(movement.rowId);
    // A movement already there at the instance's first read was seen then, not when DataJud got
    // it: the publication is matched (DataJud has it), no lag is measured.
    const lag = movement.inBaseline ? null : lagDays(p.availableOn, movement.firstSeenAt);
    insertSourceLag(db, {
      publicationId: p.publicationId,
      movementRowId: movement.rowId,
      caseId: p.caseId,
      court: p.court,
      availableOn: p.availableOn,
      seenAt: movement.firstSeenAt,
      lagDays: lag,
      measuredAt: nowIso,
    });
    if (lag !== null) measured++;
  }
  return measured;
}

/**
 * Each DataJud disponibilização seen since the last weeks whose day DJEN was asked completely
 * about for the case, with no DJEN item of the case near that day, in a court DJEN is known to
 * carry: warned once. A day DJEN has not answered whole yet is left for a later sweep.
 */
function findGaps(deps: SourceCheckDeps, nowIso: string): { found: number; queued: Queued } {
  const { db } = deps;
  const today = saoPauloDay(nowIso);
  const since = new Date(Date.parse(nowIso) - URGENT_FOR_DAYS * 86_400_000).toISOString();
  let found = 0;
  let queued: Queued = NOTHING_QUEUED;
  for (const candidate of gapCandidates(db, AVAILABILITY_CODE, since)) {
    const day = candidate.dateTime === null ? null : wallClockDay(candidate.dateTime);
    if (day === null) continue;
    const source = getDjenSource(db, "case", candidate.digits) ?? null;
    if (!djenCovered(source, day)) continue;
    const near = countPublicationsNear(
      db,
      candidate.digits,
      addDays(day, -GAP_TOLERANCE_DAYS),
      addDays(day, GAP_TOLERANCE_DAYS),
    );
    if (near > 0 || !djenCarriesCourt(db, candidate.idx)) continue;
    const watched = deps.cases.filter(
      (c) => c.digits === candidate.digits && c.court === candidate.court,
    );
    const first = watched[0];
    const parsed = parseCnjNumber(candidate.digits);
    const instance = movementPlace(db, candidate.rowId);
    const warning: DjenGapWarning = {
      type: "djen_gap",
      caseNumber: parsed.ok ? parsed.value.formatted : candidate.digits,
      court: candidate.court,
      label: first?.label ?? null,
      instance: instance.instance,
      movementName: instance.name,
      availableOn: day,
      djenAskedAt: source?.lastOkAt ?? nowIso,
      urgent: gapUrgent(day, today),
      foundAt: nowIso,
      courtLink: parsed.ok ? (courtCaseLink(parsed.value, candidate.court)?.url ?? null) : null,
      sources: sourcesOfCase(db, candidate.caseId, deps.now),
    };
    // A muted case hears of nothing, this included; the miss is still recorded and in status.
    const heard = watched.filter((c) => !isMuted(c.policy, deps.now, deps.policy.timezone));
    const recipients = [...new Set(heard.flatMap((c) => c.notify))];
    const channels = heard.length === 0 ? null : [...new Set(heard.flatMap((c) => c.channels))];
    immediate(db, () => {
      const rows = queueMessage(
        { db, domain: deps.domain, at: deps.now, policy: deps.policy },
        djenGapMessage(warning, candidate.rowId, candidate.caseId, channels),
        emailEndpoints(recipients),
      );
      insertDjenGap(db, {
        movementRowId: candidate.rowId,
        caseId: candidate.caseId,
        availableOn: day,
        foundAt: nowIso,
        urgent: warning.urgent,
        queued: queuedRows(rows),
      });
      queued = addQueued(queued, rows);
    });
    found++;
  }
  return { found, queued };
}

/** Opens a silent court (one operator alert) or closes one DataJud moved again for. */
function checkSilence(
  deps: SourceCheckDeps,
  nowIso: string,
): { opened: number; closed: number; queued: Queued } {
  const { db } = deps;
  const open = new Map(openSilentCourts(db).map((s) => [s.court, s]));
  const lags = lagsByCourt(db);
  const result = { opened: 0, closed: 0, queued: NOTHING_QUEUED };
  const horizon = addDays(saoPauloDay(nowIso), -NOTE_HORIZON_DAYS * 3);
  for (const u of courtUpdates(db)) {
    const current = open.get(u.court);
    if (current !== undefined) {
      if (u.lastMovedAt !== null && u.lastMovedAt > current.since) {
        closeSilentCourt(db, current.id, nowIso);
        result.closed++;
      }
      continue;
    }
    const alert = courtSilence(
      {
        court: u.court,
        cases: u.cases,
        newestUpdate: u.newestUpdate,
        lastMovedAt: u.lastMovedAt,
        lag: lagSummary(lags.get(u.court) ?? []),
        djenDays: djenDaysOf(db, u.court, horizon),
      },
      nowIso,
    );
    if (alert === null) continue;
    if (
      !openSilentCourt(db, { court: u.court, since: alert.since, openedAt: nowIso, details: alert })
    )
      continue;
    result.opened++;
    if (deps.admin !== null) {
      result.queued = addQueued(
        result.queued,
        queueMessage(
          { db, domain: deps.domain, at: deps.now, policy: deps.policy },
          operatorAlert(alert, null),
          emailEndpoints([deps.admin]),
        ),
      );
    }
  }
  return result;
}

/**
 * How fresh each source is for one case now, for an alert's footer (docs/freshness.md): the
 * newest DataJud update of its records, DJEN's last complete answer for its number, and whether
 * DJEN has an intimação of it DataJud's record still lacks past the court's lag.
 */
export function sourcesOfCase(db: Db, caseId: number, now: Date): AlertSources {
  const kase = getCaseById(db, caseId);
  let updated: string | null = null;
  for (const i of instanceFreshness(db, caseId)) {
    const at = i.lastUpdatedAt ?? i.indexedAt;
    if (at !== null && (updated === null || at > updated)) updated = at;
  }
  const nowIso = now.toISOString();
  const since = addDays(saoPauloDay(nowIso), -NOTE_HORIZON_DAYS);
  // A movement this very sweep brought may record one not matched yet (matching follows at
  // phase 6): such a publication is not late.
  const movements = recordingMovementsOf(db, caseId, [...RECORDING_CODES]);
  const taken = new Set(matchedMovements(db, caseId));
  const unmatched = unmatchedPublications(db, since, caseId).filter((p) => {
    const movement = recordingMovement(p.availableOn, movements, taken);
    if (movement === null) return true;
    taken.add(movement.rowId);
    return false;
  });
  return {
    dataJudUpdatedAt: updated,
    djenAskedAt:
      kase === undefined ? null : (getDjenSource(db, "case", kase.digits)?.lastOkAt ?? null),
    dataJudLate:
      unmatched.length > 0 &&
      lateDataJudNotes(
        unmatched,
        new Map(unmatched.map((p) => [p.court, lagsOfCourt(db, p.court)])),
        nowIso,
      ).length > 0,
  };
}
