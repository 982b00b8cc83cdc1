import { type Db, statement } from "./database.js";

/*
 * What freshness and the cross-source checks read and write (migration 015): each instance's
 * DataJud update and when it moved, the lags measured per court, DJEN's own lag, the DJEN misses
 * warned of and the silent courts. Only watched cases count.
 */

/**
 * A court's DataJud record updates among its watched cases. "Court" here is the DataJud index the
 * cases are read from (`found_in`, else the case's court: a TRF1 number TRF6 took over is TRF6's).
 */
export interface CourtUpdates {
  /** The index's DataJud alias. */
  court: string;
  cases: number;
  /** The newest `dataHoraUltimaAtualizacao` (else `@timestamp`): the court's wall clock. */
  newestUpdate: string | null;
  /** When the monitor last saw one of them move (our instant). */
  lastMovedAt: string | null;
}

export function courtUpdates(db: Db): CourtUpdates[] {
  return statement<[], CourtUpdates>(
    db,
    `SELECT coalesce(c.found_in, c.court) AS court, COUNT(DISTINCT c.id) AS cases,
       max(coalesce(json_extract(i.record, '$.lastUpdatedAt'), json_extract(i.record, '$.indexedAt')))
         AS newestUpdate,
       max(i.moved_at) AS lastMovedAt
     FROM cases c LEFT JOIN instances i ON i.case_id = c.id
     WHERE c.watched = 1
     GROUP BY 1 ORDER BY 1`,
  ).all();
}

/** One instance's DataJud update and when the monitor saw it move. */
export interface InstanceFreshness {
  caseId: number;
  instance: string;
  /** The court's wall clock. */
  lastUpdatedAt: string | null;
  indexedAt: string | null;
  movedAt: string | null;
}

export function instanceFreshness(db: Db, caseId?: number): InstanceFreshness[] {
  return statement<{ caseId: number | null }, InstanceFreshness>(
    db,
    `SELECT i.case_id AS caseId, i.instance,
       json_extract(i.record, '$.lastUpdatedAt') AS lastUpdatedAt,
       json_extract(i.record, '$.indexedAt') AS indexedAt, i.moved_at AS movedAt
     FROM instances i JOIN cases c ON c.id = i.case_id
     WHERE c.watched = 1 AND (@caseId IS NULL OR i.case_id = @caseId)
     ORDER BY i.case_id, i.id`,
  ).all({ caseId: caseId ?? null });
}

/** A DJEN publication of a watched case no DataJud movement was matched to yet. */
export interface UnmatchedPublication {
  publicationId: number;
  djenId: string;
  caseId: number;
  /** The case's DataJud alias. */
  court: string;
  availableOn: string;
  kind: string | null;
  firstSeenAt: string;
}

/** Active publications of watched cases made available on `sinceDay` or later, not matched yet. */
export function unmatchedPublications(
  db: Db,
  sinceDay: string,
  caseId?: number,
): UnmatchedPublication[] {
  return statement<{ sinceDay: string; caseId: number | null }, UnmatchedPublication>(
    db,
    `SELECT p.id AS publicationId, p.djen_id AS djenId, c.id AS caseId, coalesce(c.found_in, c.court) AS court,
       p.available_on AS availableOn, p.kind, p.first_seen_at AS firstSeenAt
     FROM publications p JOIN cases c ON c.digits = p.case_number AND c.watched = 1
     WHERE p.available_on >= @sinceDay AND p.cancelled_at IS NULL
       AND (@caseId IS NULL
         OR p.case_number = (SELECT k.digits FROM cases k WHERE k.id = @caseId) AND c.id = @caseId)
       AND json_extract(p.publication, '$.active') IS NOT 0
       AND NOT EXISTS (SELECT 1 FROM source_lags l WHERE l.publication_id = p.id)
     ORDER BY p.available_on, p.id`,
  ).all({ sinceDay, caseId: caseId ?? null });
}

/** A movement of a watched case that may record a publication (migration 015's codes). */
export interface StoredRecordingMovement {
  rowId: number;
  caseId: number;
  code: number | null;
  dateTime: string | null;
  firstSeenAt: string;
  /** It was in the instance's first read: seen then, not when DataJud got it. */
  inBaseline: boolean;
}

export function recordingMovementsOf(
  db: Db,
  caseId: number,
  codes: readonly number[],
): StoredRecordingMovement[] {
  return statement<[number, string], Omit<StoredRecordingMovement, "inBaseline"> & { b: number }>(
    db,
    `SELECT m.id AS rowId, m.case_id AS caseId, m.code, m.date_time AS dateTime,
       m.first_seen_at AS firstSeenAt, m.first_seen_at <= i.first_seen_at AS b
     FROM movements m JOIN instances i ON i.id = m.instance_id
     WHERE m.case_id = ? AND m.disappeared_at IS NULL
       AND m.code IN (SELECT value FROM json_each(?))
     ORDER BY m.first_seen_at, m.id`,
  )
    .all(caseId, JSON.stringify(codes))
    .map(({ b, ...m }) => ({ ...m, inBaseline: b === 1 }));
}

/** The movements of a case already matched to a publication. */
export function matchedMovements(db: Db, caseId: number): Set<number> {
  return new Set(
    statement<[number], { id: number }>(
      db,
      "SELECT movement_row_id AS id FROM source_lags WHERE case_id = ? AND movement_row_id IS NOT NULL",
    )
      .all(caseId)
      .map((r) => r.id),
  );
}

export interface NewSourceLag {
  publicationId: number;
  movementRowId: number;
  caseId: number;
  court: string;
  availableOn: string;
  seenAt: string;
  /** Null: the movement came with the instance's first read (matched, not measured). */
  lagDays: number | null;
  measuredAt: string;
}

export function insertSourceLag(db: Db, lag: NewSourceLag): void {
  statement<NewSourceLag>(
    db,
    `INSERT OR IGNORE INTO source_lags
       (publication_id, movement_row_id, case_id, court, available_on, seen_at, lag_days, measured_at)
     VALUES (@publicationId, @movementRowId, @caseId, @court, @availableOn, @seenAt, @lagDays,
       @measuredAt)`,
  ).run(lag);
}

/** Every measured lag (days) of each court, oldest act first. */
export function lagsByCourt(db: Db): Map<string, number[]> {
  const lags = new Map<string, number[]>();
  for (const row of statement<[], { court: string; lag: number }>(
    db,
    `SELECT court, lag_days AS lag FROM source_lags WHERE lag_days IS NOT NULL
     ORDER BY court, available_on, publication_id`,
  ).all()) {
    const list = lags.get(row.court) ?? [];
    list.push(row.lag);
    lags.set(row.court, list);
  }
  return lags;
}

/** The measured lags (days) of one court (index alias), oldest act first. */
export function lagsOfCourt(db: Db, court: string): number[] {
  return statement<[string], { lag: number }>(
    db,
    `SELECT lag_days AS lag FROM source_lags WHERE court = ? AND lag_days IS NOT NULL
     ORDER BY available_on, publication_id`,
  )
    .all(court)
    .map((r) => r.lag);
}

/** DJEN's own lag of each court's watched publications: `dataenvio` to disponibilização. */
export function djenLagsByCourt(db: Db): Map<string, number[]> {
  const lags = new Map<string, number[]>();
  for (const row of statement<[], { court: string; lag: number }>(
    db,
    `SELECT coalesce(c.found_in, c.court) AS court,
       CAST(julianday(p.available_on) - julianday(p.sent_on) AS INTEGER) AS lag
     FROM publications p JOIN cases c ON c.digits = p.case_number AND c.watched = 1
     WHERE p.sent_on IS NOT NULL AND p.sent_on <= p.available_on
     ORDER BY 1, p.available_on, p.id`,
  ).all()) {
    const list = lags.get(row.court) ?? [];
    list.push(row.lag);
    lags.set(row.court, list);
  }
  return lags;
}

/** The newest publication DJEN made available for each court's watched cases, and when asked. */
export function djenActivityByCourt(
  db: Db,
): Map<string, { newestAvailableOn: string; lastAskedAt: string | null }> {
  const rows = statement<
    [],
    { court: string; newestAvailableOn: string; lastAskedAt: string | null }
  >(
    db,
    `SELECT coalesce(c.found_in, c.court) AS court, max(p.available_on) AS newestAvailableOn,
       (SELECT max(s.last_ok_at) FROM djen_sources s JOIN cases c2 ON s.kind = 'case'
          AND s.key = c2.digits
        WHERE coalesce(c2.found_in, c2.court) = coalesce(c.found_in, c.court) AND c2.watched = 1) AS lastAskedAt
     FROM publications p JOIN cases c ON c.digits = p.case_number AND c.watched = 1
     GROUP BY 1`,
  ).all();
  return new Map(rows.map((r) => [r.court, r]));
}

/** Publications of `digits` made available from `from` to `to`, whatever their state. */
export function countPublicationsNear(db: Db, digits: string, from: string, to: string): number {
  return (
    statement<[string, string, string], { n: number }>(
      db,
      "SELECT COUNT(*) AS n FROM publications WHERE case_number = ? AND available_on BETWEEN ? AND ?",
    ).get(digits, from, to)?.n ?? 0
  );
}

/** Whether DJEN ever returned a publication of one of the court's watched cases. */
export function djenCarriesCourt(db: Db, court: string): boolean {
  return (
    statement<[string], { n: number }>(
      db,
      `SELECT EXISTS (SELECT 1 FROM publications p JOIN cases c ON c.digits = p.case_number
         WHERE coalesce(c.found_in, c.court) = ?) AS n`,
    ).get(court)?.n === 1
  );
}

/** A Disponibilização movement of a watched case, seen after its instance's first read. */
export interface GapCandidate {
  rowId: number;
  caseId: number;
  digits: string;
  /** The case's court in the watchlist. */
  court: string;
  /** The DataJud index it is read from (found_in, else its court): freshness is per index. */
  idx: string;
  dateTime: string | null;
  firstSeenAt: string;
}

/** Movements of `code` not judged yet, seen since `sinceIso`. */
export function gapCandidates(db: Db, code: number, sinceIso: string): GapCandidate[] {
  return statement<[number, string], GapCandidate>(
    db,
    `SELECT m.id AS rowId, c.id AS caseId, c.digits, c.court, coalesce(c.found_in, c.court) AS idx,
       m.date_time AS dateTime,
       m.first_seen_at AS firstSeenAt
     FROM movements m JOIN instances i ON i.id = m.instance_id
       JOIN cases c ON c.id = m.case_id AND c.watched = 1
     WHERE m.code = ? AND m.disappeared_at IS NULL AND m.first_seen_at > i.first_seen_at
       AND m.first_seen_at >= ?
       AND NOT EXISTS (SELECT 1 FROM djen_gaps g WHERE g.movement_row_id = m.id)
     ORDER BY m.first_seen_at, m.id`,
  ).all(code, sinceIso);
}

export interface DjenGapRow {
  movementRowId: number;
  caseId: number;
  availableOn: string;
  foundAt: string;
  urgent: boolean;
  queued: number;
}

export function insertDjenGap(db: Db, gap: DjenGapRow): void {
  statement<Omit<DjenGapRow, "urgent"> & { urgent: number }>(
    db,
    `INSERT OR IGNORE INTO djen_gaps (movement_row_id, case_id, available_on, found_at, urgent, queued)
     VALUES (@movementRowId, @caseId, @availableOn, @foundAt, @urgent, @queued)`,
  ).run({ ...gap, urgent: gap.urgent ? 1 : 0 });
}

/** The DJEN misses warned of, newest first; of one case, or of every watched case. */
export function listDjenGaps(db: Db, caseId?: number): DjenGapRow[] {
  return statement<{ caseId: number | null }, Omit<DjenGapRow, "urgent"> & { urgent: number }>(
    db,
    `SELECT g.movement_row_id AS movementRowId, g.case_id AS caseId, g.available_on AS availableOn,
       g.found_at AS foundAt, g.urgent, g.queued
     FROM djen_gaps g JOIN cases c ON c.id = g.case_id AND c.watched = 1
     WHERE @caseId IS NULL OR g.case_id = @caseId
     ORDER BY g.found_at DESC, g.movement_row_id DESC`,
  )
    .all({ caseId: caseId ?? null })
    .map((r) => ({ ...r, urgent: r.urgent === 1 }));
}

export interface SilentCourt {
  id: number;
  court: string;
  since: string;
  openedAt: string;
  details: unknown;
  recoveredAt: string | null;
}

export function openSilentCourts(db: Db): SilentCourt[] {
  return statement<[], Omit<SilentCourt, "details"> & { details: string }>(
    db,
    `SELECT id, court, since, opened_at AS openedAt, details, recovered_at AS recoveredAt
     FROM silent_courts WHERE recovered_at IS NULL ORDER BY court`,
  )
    .all()
    .map((r) => ({ ...r, details: JSON.parse(r.details) as unknown }));
}

/** Opens a silent court; false when one is already open for it. */
export function openSilentCourt(
  db: Db,
  row: { court: string; since: string; openedAt: string; details: unknown },
): boolean {
  return (
    statement<{ court: string; since: string; openedAt: string; details: string }>(
      db,
      `INSERT OR IGNORE INTO silent_courts (court, since, opened_at, details)
       VALUES (@court, @since, @openedAt, @details)`,
    ).run({ ...row, details: JSON.stringify(row.details) }).changes === 1
  );
}

export function closeSilentCourt(db: Db, id: number, at: string): void {
  statement<[string, number]>(
    db,
    "UPDATE silent_courts SET recovered_at = ? WHERE id = ? AND recovered_at IS NULL",
  ).run(at, id);
}

/** Everything a court's freshness is computed from (policy/source-freshness.ts courtFreshness). */
export interface FreshnessInputs {
  updates: CourtUpdates[];
  /** Publications of watched cases made available in the last 120 days no movement records. */
  unmatched: UnmatchedPublication[];
  lags: Map<string, number[]>;
  djenLags: Map<string, number[]>;
  activity: Map<string, { newestAvailableOn: string; lastAskedAt: string | null }>;
  silent: SilentCourt[];
}

export function freshnessInputs(db: Db, today: string): FreshnessInputs {
  const since = new Date(Date.parse(`${today}T00:00:00Z`) - 120 * 86_400_000)
    .toISOString()
    .slice(0, 10);
  return {
    updates: courtUpdates(db),
    unmatched: unmatchedPublications(db, since),
    lags: lagsByCourt(db),
    djenLags: djenLagsByCourt(db),
    activity: djenActivityByCourt(db),
    silent: openSilentCourts(db),
  };
}

/** The instance (grau) and DataJud's name of a movement. */
export function movementPlace(db: Db, rowId: number): { instance: string; name: string } {
  return (
    statement<[number], { instance: string; name: string }>(
      db,
      `SELECT i.instance AS instance, m.name AS name FROM movements m
       JOIN instances i ON i.id = m.instance_id WHERE m.id = ?`,
    ).get(rowId) ?? { instance: "?", name: "Disponibilização no Diário da Justiça Eletrônico" }
  );
}

/** The days of disponibilização of a court's watched, active publications since `since`. */
export function djenDaysOf(db: Db, court: string, since: string): string[] {
  return statement<[string, string], { day: string }>(
    db,
    `SELECT p.available_on AS day FROM publications p
     JOIN cases c ON c.digits = p.case_number AND c.watched = 1
     WHERE coalesce(c.found_in, c.court) = ? AND p.available_on >= ? AND p.cancelled_at IS NULL`,
  )
    .all(court, since)
    .map((r) => r.day);
}
