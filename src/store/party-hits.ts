import type { Db } from "./database.js";

/*
 * The party radar's hits (migration 022): a DJEN item naming a watched party in a case outside
 * the watchlist, with how sure the match is. The store keeps what the radar hands it and does not
 * read the publication itself: `publication` comes back as parsed JSON for the caller to validate.
 */

export type HitConfidence = "confirmado" | "provavel" | "homonimo";
export type HitDisposition =
  | "alert"
  | "baseline"
  | "later"
  | "publication"
  | "watched"
  | "unwatched";

export interface NewPartyHit {
  partyKey: string;
  partyName: string;
  djenId: string;
  caseNumber: string;
  court: string;
  availableOn: string;
  kind: string | null;
  confidence: HitConfidence;
  reason: string;
  recipient: string | null;
  side: string | null;
  foundBy: string;
  publication: unknown;
  text: string;
  firstSeenAt: string;
  runId: number | null;
  baseline: boolean;
}

export interface PartyHitRow extends Omit<NewPartyHit, "baseline"> {
  id: number;
  baseline: boolean;
  disposition: HitDisposition | null;
  reportedAt: string | null;
}

interface RawHit extends Omit<PartyHitRow, "publication" | "baseline"> {
  publication: string;
  baseline: number;
}

const COLUMNS = `id, party_key AS partyKey, party_name AS partyName, djen_id AS djenId,
  case_number AS caseNumber, court, available_on AS availableOn, kind, confidence, reason,
  recipient, side, found_by AS foundBy, publication, text, first_seen_at AS firstSeenAt,
  run_id AS runId, baseline, disposition, reported_at AS reportedAt`;

function toRow(raw: RawHit): PartyHitRow {
  return {
    ...raw,
    publication: JSON.parse(raw.publication) as unknown,
    baseline: raw.baseline === 1,
  };
}

/** Stores a hit; false when this party's hit of that DJEN item is already stored. */
export function insertPartyHit(db: Db, hit: NewPartyHit): boolean {
  return (
    db
      .prepare(
        `INSERT OR IGNORE INTO party_hits
           (party_key, party_name, djen_id, case_number, court, available_on, kind, confidence,
            reason, recipient, side, found_by, publication, text, first_seen_at, run_id, baseline)
         VALUES (@partyKey, @partyName, @djenId, @caseNumber, @court, @availableOn, @kind,
            @confidence, @reason, @recipient, @side, @foundBy, @publication, @text, @firstSeenAt,
            @runId, @baseline)`,
      )
      .run({
        ...hit,
        publication: JSON.stringify(hit.publication ?? null),
        baseline: hit.baseline ? 1 : 0,
      }).changes === 1
  );
}

/** Whether this party's hit of that DJEN item is stored. */
export function hasPartyHit(db: Db, partyKey: string, djenId: string): boolean {
  return (
    db
      .prepare<[string, string], { n: number }>(
        "SELECT 1 AS n FROM party_hits WHERE party_key = ? AND djen_id = ?",
      )
      .get(partyKey, djenId) !== undefined
  );
}

/** Hits no report phase has handled yet, oldest first. */
export function partyHitsAwaitingReport(db: Db): PartyHitRow[] {
  return db
    .prepare<[], RawHit>(`SELECT ${COLUMNS} FROM party_hits WHERE disposition IS NULL ORDER BY id`)
    .all()
    .map(toRow);
}

/**
 * Whether the party's new lawsuit in that case was already reported (told, or recorded as a
 * baseline): a later item of the case is then no news of a new lawsuit.
 */
export function partyCaseReported(db: Db, partyKey: string, caseNumber: string): boolean {
  return (
    db
      .prepare<[string, string], { n: number }>(
        `SELECT 1 AS n FROM party_hits WHERE party_key = ? AND case_number = ?
           AND disposition IN ('alert', 'baseline') LIMIT 1`,
      )
      .get(partyKey, caseNumber) !== undefined
  );
}

export function setPartyHitDisposition(
  db: Db,
  id: number,
  disposition: HitDisposition,
  reportedAt: string,
): void {
  db.prepare<[string, string, number]>(
    "UPDATE party_hits SET disposition = ?, reported_at = ? WHERE id = ? AND disposition IS NULL",
  ).run(disposition, reportedAt, id);
}

export interface PartyHitFilter {
  /** One party's key; all when absent. */
  partyKey?: string;
  /** First seen at or after this instant (ISO). */
  since?: string;
  /** Only the news of new lawsuits (disposition alert or baseline). */
  newCasesOnly?: boolean;
  limit?: number;
}

/** Hits, the most recently seen first. */
export function listPartyHits(db: Db, filter: PartyHitFilter = {}): PartyHitRow[] {
  return db
    .prepare<{ party: string | null; since: string; news: number; limit: number }, RawHit>(
      `SELECT ${COLUMNS} FROM party_hits
       WHERE (@party IS NULL OR party_key = @party) AND first_seen_at >= @since
         AND (@news = 0 OR disposition IN ('alert', 'baseline'))
       ORDER BY first_seen_at DESC, id DESC LIMIT @limit`,
    )
    .all({
      party: filter.partyKey ?? null,
      since: filter.since ?? "",
      news: filter.newCasesOnly === true ? 1 : 0,
      limit: filter.limit ?? -1,
    })
    .map(toRow);
}

/** Hits per party, disposition and confidence: what `status` and /metrics count. */
export function countPartyHits(db: Db): Array<{
  partyKey: string;
  disposition: HitDisposition | null;
  confidence: HitConfidence;
  n: number;
}> {
  return db
    .prepare<
      [],
      { partyKey: string; disposition: HitDisposition | null; confidence: HitConfidence; n: number }
    >(
      `SELECT party_key AS partyKey, disposition, confidence, COUNT(*) AS n FROM party_hits
       GROUP BY party_key, disposition, confidence ORDER BY party_key`,
    )
    .all();
}

/** Hits by confidence and disposition over every party ("unreported" before one is decided). */
export function partyHitTotals(
  db: Db,
): Array<{ confidence: string; disposition: string; n: number }> {
  return db
    .prepare<[], { confidence: string; disposition: string; n: number }>(
      `SELECT confidence, coalesce(disposition, 'unreported') AS disposition, COUNT(*) AS n
       FROM party_hits GROUP BY confidence, coalesce(disposition, 'unreported')`,
    )
    .all();
}
