import type { Db } from "./database.js";

/*
 * Urgent alerts that ask for an acknowledgement (migration 025): one row per alert, made in the
 * transaction that queues the alert's outbox rows, and the one acknowledgement it may get. Times
 * are passed in; the link's token is never stored (ack/ack-token.ts derives it from the outbox
 * row and a secret).
 */

export interface AcknowledgementRow {
  id: number;
  alertKey: string;
  caseId: number | null;
  changeId: number | null;
  subject: string;
  channels: string[];
  createdAt: string;
  expiresAt: string;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
}

interface RawRow extends Omit<AcknowledgementRow, "channels"> {
  channels: string;
}

const COLUMNS = `id, alert_key AS alertKey, case_id AS caseId, change_id AS changeId, subject,
  channels, created_at AS createdAt, expires_at AS expiresAt, acknowledged_at AS acknowledgedAt,
  acknowledged_by AS acknowledgedBy`;

function toRow(raw: RawRow): AcknowledgementRow {
  let channels: string[] = [];
  try {
    const parsed: unknown = JSON.parse(raw.channels);
    if (Array.isArray(parsed)) channels = parsed.filter((c): c is string => typeof c === "string");
  } catch {
    // an unreadable list routes the event nowhere but the firm-wide webhook
  }
  return { ...raw, channels };
}

/**
 * The acknowledgement of the alert `alertKey`, made on first call (a retried run finds the one it
 * made). Call it in the transaction that queues the alert's rows.
 */
export function ensureAcknowledgement(
  db: Db,
  alert: {
    alertKey: string;
    caseId: number | null;
    changeId: number | null;
    subject: string;
    channels: readonly string[];
    createdAt: string;
    expiresAt: string;
  },
): number {
  db.prepare(
    `INSERT OR IGNORE INTO acknowledgements
       (alert_key, case_id, change_id, subject, channels, created_at, expires_at)
     VALUES (@alertKey, @caseId, @changeId, @subject, @channels, @createdAt, @expiresAt)`,
  ).run({ ...alert, channels: JSON.stringify(alert.channels) });
  const row = db
    .prepare<[string], { id: number }>("SELECT id FROM acknowledgements WHERE alert_key = ?")
    .get(alert.alertKey);
  if (row === undefined) throw new Error(`acknowledgement of ${alert.alertKey} not stored`);
  return row.id;
}

export function acknowledgementById(db: Db, id: number): AcknowledgementRow | null {
  const raw = db
    .prepare<[number], RawRow>(`SELECT ${COLUMNS} FROM acknowledgements WHERE id = ?`)
    .get(id);
  return raw === undefined ? null : toRow(raw);
}

/** Records the acknowledgement; false when the alert was acknowledged already (the first wins). */
export function recordAcknowledgement(
  db: Db,
  id: number,
  by: { who: string; at: string },
): boolean {
  return (
    db
      .prepare<[string, string, number]>(
        `UPDATE acknowledgements SET acknowledged_at = ?, acknowledged_by = ?
         WHERE id = ? AND acknowledged_at IS NULL`,
      )
      .run(by.at, by.who, id).changes === 1
  );
}

/** A case's acknowledgements, newest first. */
export function acknowledgementsOfCase(db: Db, caseId: number): AcknowledgementRow[] {
  return db
    .prepare<[number], RawRow>(
      `SELECT ${COLUMNS} FROM acknowledgements WHERE case_id = ? ORDER BY created_at DESC, id DESC`,
    )
    .all(caseId)
    .map(toRow);
}

/** Every acknowledgement asked since `since` (ISO), newest first, at most `limit`. */
export function recentAcknowledgements(db: Db, since: string, limit: number): AcknowledgementRow[] {
  return db
    .prepare<[string, number], RawRow>(
      `SELECT ${COLUMNS} FROM acknowledgements WHERE created_at >= ?
       ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .all(since, limit)
    .map(toRow);
}

/** What `status` counts: asked, acknowledged, waiting (not expired), expired unacknowledged. */
export function acknowledgementCounts(
  db: Db,
  now: string,
): { asked: number; acknowledged: number; waiting: number; expired: number } {
  const row = db
    .prepare<
      [string, string],
      { asked: number; acknowledged: number; waiting: number; expired: number }
    >(
      `SELECT COUNT(*) AS asked,
         COALESCE(SUM(acknowledged_at IS NOT NULL), 0) AS acknowledged,
         COALESCE(SUM(acknowledged_at IS NULL AND expires_at > ?), 0) AS waiting,
         COALESCE(SUM(acknowledged_at IS NULL AND expires_at <= ?), 0) AS expired
       FROM acknowledgements`,
    )
    .get(now, now);
  return row ?? { asked: 0, acknowledged: 0, waiting: 0, expired: 0 };
}
