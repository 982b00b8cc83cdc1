import type { Db } from "./database.js";

/*
 * DJEN publications, one row per DJEN id. The store keeps what the DJEN phase hands it and does
 * not read the publication itself (djen/ owns that shape): `publication`, `cancellation` and `raw`
 * come back as parsed JSON for the caller to validate.
 */

/** What was done with a publication: mailed, or recorded without mail, and why. */
export type PublicationDisposition = "alert" | "baseline" | "ignored" | "muted" | "cancelled";

export interface NewPublication {
  djenId: string;
  caseNumber: string | null;
  court: string;
  availableOn: string;
  /** DJEN's `dataenvio` (YYYY-MM-DD): the day the court sent it; null when DJEN gave none. */
  sentOn?: string | null;
  kind: string | null;
  documentType: string | null;
  courtUnit: string | null;
  /** The normalized publication without its text and raw item. */
  publication: unknown;
  /** Sanitized plain text, whole. */
  text: string;
  /** The item exactly as DJEN sent it. */
  raw: unknown;
  /** "case:<digits>" or "oab:123456/SP". */
  foundBy: string;
  firstSeenAt: string;
  /** The sweep that found it; null when found between sweeps (the daemon). */
  runId: number | null;
  baseline: boolean;
}

export interface PublicationRow {
  id: number;
  djenId: string;
  caseNumber: string | null;
  court: string;
  availableOn: string;
  kind: string | null;
  documentType: string | null;
  courtUnit: string | null;
  publication: unknown;
  text: string;
  foundBy: string[];
  firstSeenAt: string;
  runId: number | null;
  baseline: boolean;
  disposition: PublicationDisposition | null;
  reportedAt: string | null;
  cancelledAt: string | null;
  cancellation: unknown;
  correctionReportedAt: string | null;
  /** Its current deadline estimate (store/deadline-estimates.ts), null until one is stored. */
  estimate: unknown;
}

interface RawPublication
  extends Omit<
    PublicationRow,
    "publication" | "foundBy" | "baseline" | "cancellation" | "estimate"
  > {
  publication: string;
  foundBy: string;
  baseline: number;
  cancellation: string | null;
  estimate: string | null;
}

const COLUMNS = `id, djen_id AS djenId, case_number AS caseNumber, court,
  available_on AS availableOn, kind, document_type AS documentType, court_unit AS courtUnit,
  publication, text, found_by AS foundBy, first_seen_at AS firstSeenAt, run_id AS runId, baseline,
  disposition, reported_at AS reportedAt, cancelled_at AS cancelledAt, cancellation,
  correction_reported_at AS correctionReportedAt,
  (SELECT e.estimate FROM deadline_estimates e WHERE e.publication_id = publications.id) AS estimate`;

function toRow(raw: RawPublication): PublicationRow {
  return {
    ...raw,
    publication: JSON.parse(raw.publication) as unknown,
    foundBy: JSON.parse(raw.foundBy) as string[],
    baseline: raw.baseline === 1,
    cancellation: raw.cancellation === null ? null : (JSON.parse(raw.cancellation) as unknown),
    estimate: raw.estimate === null ? null : (JSON.parse(raw.estimate) as unknown),
  };
}

/** Stores a publication seen for the first time; false when its DJEN id is already stored. */
export function insertPublication(db: Db, row: NewPublication): boolean {
  const result = db
    .prepare(
      `INSERT OR IGNORE INTO publications
         (djen_id, case_number, court, available_on, sent_on, kind, document_type, court_unit,
          publication, text, raw, found_by, first_seen_at, run_id, baseline)
       VALUES (@djenId, @caseNumber, @court, @availableOn, @sentOn, @kind, @documentType,
          @courtUnit, @publication, @text, @raw, @foundBy, @firstSeenAt, @runId, @baseline)`,
    )
    .run({
      djenId: row.djenId,
      caseNumber: row.caseNumber,
      court: row.court,
      availableOn: row.availableOn,
      sentOn: row.sentOn ?? null,
      kind: row.kind,
      documentType: row.documentType,
      courtUnit: row.courtUnit,
      publication: JSON.stringify(row.publication ?? null),
      text: row.text,
      raw: JSON.stringify(row.raw ?? null),
      foundBy: JSON.stringify([row.foundBy]),
      firstSeenAt: row.firstSeenAt,
      runId: row.runId,
      baseline: row.baseline ? 1 : 0,
    });
  return result.changes === 1;
}

export function getPublicationById(db: Db, id: number): PublicationRow | undefined {
  const raw = db
    .prepare<[number], RawPublication>(`SELECT ${COLUMNS} FROM publications WHERE id = ?`)
    .get(id);
  return raw === undefined ? undefined : toRow(raw);
}

export function getPublication(db: Db, djenId: string): PublicationRow | undefined {
  const raw = db
    .prepare<[string], RawPublication>(`SELECT ${COLUMNS} FROM publications WHERE djen_id = ?`)
    .get(djenId);
  return raw === undefined ? undefined : toRow(raw);
}

/**
 * Another source found a stored publication: it is added to `found_by`, and a publication stored
 * as a baseline in this same run is news after all when this source is past its own baseline.
 */
export function notePublicationFound(
  db: Db,
  djenId: string,
  finder: string,
  options: { runId: number | null; pastBaseline: boolean },
): void {
  db.prepare<{ djenId: string; finder: string }>(
    `UPDATE publications SET found_by = json_insert(found_by, '$[#]', @finder)
     WHERE djen_id = @djenId
       AND NOT EXISTS (SELECT 1 FROM json_each(found_by) WHERE value = @finder)`,
  ).run({ djenId, finder });
  if (options.pastBaseline && options.runId !== null) {
    db.prepare<[string, number]>(
      `UPDATE publications SET baseline = 0
       WHERE djen_id = ? AND run_id = ? AND baseline = 1 AND disposition IS NULL`,
    ).run(djenId, options.runId);
  }
}

/**
 * Records that DJEN now shows a stored publication as cancelled. Only the first sighting counts:
 * returns false when it was already recorded.
 */
export function markPublicationCancelled(
  db: Db,
  djenId: string,
  cancellation: { at: string; details: unknown },
): boolean {
  return (
    db
      .prepare<[string, string, string]>(
        `UPDATE publications SET cancelled_at = ?, cancellation = ?
         WHERE djen_id = ? AND cancelled_at IS NULL`,
      )
      .run(cancellation.at, JSON.stringify(cancellation.details ?? null), djenId).changes === 1
  );
}

/** Publications no report phase has handled yet (a crash may have left some), oldest first. */
export function publicationsAwaitingReport(db: Db): PublicationRow[] {
  return db
    .prepare<[], RawPublication>(
      `SELECT ${COLUMNS} FROM publications WHERE disposition IS NULL ORDER BY id`,
    )
    .all()
    .map(toRow);
}

export function setPublicationDisposition(
  db: Db,
  id: number,
  disposition: PublicationDisposition,
  reportedAt: string,
): void {
  db.prepare<[string, string, number]>(
    "UPDATE publications SET disposition = ?, reported_at = ? WHERE id = ? AND disposition IS NULL",
  ).run(disposition, reportedAt, id);
}

/** Reported publications DJEN later showed as cancelled, whose correction is not queued yet. */
export function correctionsAwaitingReport(db: Db): PublicationRow[] {
  return db
    .prepare<[], RawPublication>(
      `SELECT ${COLUMNS} FROM publications
       WHERE cancelled_at IS NOT NULL AND correction_reported_at IS NULL AND disposition IS NOT NULL
       ORDER BY id`,
    )
    .all()
    .map(toRow);
}

export function markCorrectionReported(db: Db, id: number, at: string): void {
  db.prepare<[string, number]>(
    "UPDATE publications SET correction_reported_at = ? WHERE id = ? AND correction_reported_at IS NULL",
  ).run(at, id);
}

/** A case's publications, newest disponibilização first; `offset` skips the newest ones. */
export function publicationsOfCase(
  db: Db,
  digits: string,
  options: { limit?: number; offset?: number } = {},
): PublicationRow[] {
  return db
    .prepare<[string, number, number], RawPublication>(
      `SELECT ${COLUMNS} FROM publications WHERE case_number = ?
       ORDER BY available_on DESC, id DESC LIMIT ? OFFSET ?`,
    )
    .all(digits, options.limit ?? -1, options.offset ?? 0)
    .map(toRow);
}

export function countPublicationsOfCase(db: Db, digits: string): number {
  return (
    db
      .prepare<[string], { n: number }>(
        "SELECT COUNT(*) AS n FROM publications WHERE case_number = ?",
      )
      .get(digits)?.n ?? 0
  );
}

/**
 * Every publication first seen or seen cancelled at or after `sinceIso`, most recent of the two
 * first, at most `limit`; `court` keeps only DJEN's acronym given (any case).
 */
export function publicationsSeenSince(
  db: Db,
  sinceIso: string,
  options: { limit?: number; court?: string } = {},
): PublicationRow[] {
  return db
    .prepare<{ since: string; court: string | null; limit: number }, RawPublication>(
      `SELECT ${COLUMNS} FROM publications
       WHERE (first_seen_at >= @since OR cancelled_at >= @since)
         AND (@court IS NULL OR lower(court) = lower(@court))
       ORDER BY max(first_seen_at, coalesce(cancelled_at, '')) DESC, id DESC LIMIT @limit`,
    )
    .all({ since: sinceIso, court: options.court ?? null, limit: options.limit ?? -1 })
    .map(toRow);
}

export function countPublicationsSeenSince(
  db: Db,
  sinceIso: string,
  options: { court?: string } = {},
): number {
  return (
    db
      .prepare<{ since: string; court: string | null }, { n: number }>(
        `SELECT COUNT(*) AS n FROM publications
         WHERE (first_seen_at >= @since OR cancelled_at >= @since)
           AND (@court IS NULL OR lower(court) = lower(@court))`,
      )
      .get({ since: sinceIso, court: options.court ?? null })?.n ?? 0
  );
}

/**
 * Every publication made available on or after `sinceDay` (all with null), oldest first, one at a
 * time: an export never holds them all.
 */
export function* eachPublicationAvailableSince(
  db: Db,
  sinceDay: string | null,
): Generator<PublicationRow> {
  const rows = db
    .prepare<[string], RawPublication>(
      `SELECT ${COLUMNS} FROM publications WHERE available_on >= ? ORDER BY available_on, id`,
    )
    .iterate(sinceDay ?? "");
  for (const raw of rows) yield toRow(raw);
}

/** The raw item DJEN sent, for exports that keep everything. */
export function publicationRaw(db: Db, id: number): unknown {
  const raw = db
    .prepare<[number], { raw: string }>("SELECT raw FROM publications WHERE id = ?")
    .get(id)?.raw;
  return raw === undefined ? null : (JSON.parse(raw) as unknown);
}
