import type { Db } from "./database.js";

export type HealthIncidentKind =
  | "sweeps_failing"
  | "auth_rejected"
  | "djen_failing"
  | "watchlist_invalid";

export interface NewHealthIncident {
  kind: HealthIncidentKind;
  /** The first failure of the incident: a refused check, or the start of a failed sweep. */
  startedAt: string;
  /** When the e-mail that opened it was queued. */
  openedAt: string;
  /** Who was told; the recovery goes to the same address. */
  recipient: string;
  details: unknown;
}

export interface HealthIncident extends NewHealthIncident {
  id: number;
  /** Null while the incident is open. */
  recoveredAt: string | null;
}

interface RawIncident extends Omit<HealthIncident, "details"> {
  details: string;
}

const COLUMNS = `id, kind, started_at AS startedAt, opened_at AS openedAt, recipient, details,
  recovered_at AS recoveredAt`;

function toIncident(raw: RawIncident): HealthIncident {
  const details: unknown = JSON.parse(raw.details);
  return { ...raw, details };
}

/**
 * Opens an incident. At most one per kind is open (a unique index): check `openIncidentOf` in the
 * same transaction first.
 */
export function openIncident(db: Db, incident: NewHealthIncident): number {
  const result = db
    .prepare<{
      kind: string;
      startedAt: string;
      openedAt: string;
      recipient: string;
      details: string;
    }>(
      `INSERT INTO health_incidents (kind, started_at, opened_at, recipient, details)
       VALUES (@kind, @startedAt, @openedAt, @recipient, @details)`,
    )
    .run({
      kind: incident.kind,
      startedAt: incident.startedAt,
      openedAt: incident.openedAt,
      recipient: incident.recipient,
      details: JSON.stringify(incident.details ?? {}),
    });
  return Number(result.lastInsertRowid);
}

/** The open incident of this kind, if any. */
export function openIncidentOf(db: Db, kind: HealthIncidentKind): HealthIncident | undefined {
  const raw = db
    .prepare<[string], RawIncident>(
      `SELECT ${COLUMNS} FROM health_incidents WHERE kind = ? AND recovered_at IS NULL`,
    )
    .get(kind);
  return raw === undefined ? undefined : toIncident(raw);
}

/** Returns false when it was not open (already closed, or no such incident). */
export function closeIncident(db: Db, id: number, recoveredAt: string): boolean {
  return (
    db
      .prepare<[string, number]>(
        "UPDATE health_incidents SET recovered_at = ? WHERE id = ? AND recovered_at IS NULL",
      )
      .run(recoveredAt, id).changes === 1
  );
}

/** Newest first. */
export function listIncidents(db: Db, limit = 100): HealthIncident[] {
  return db
    .prepare<[number], RawIncident>(
      `SELECT ${COLUMNS} FROM health_incidents ORDER BY id DESC LIMIT ?`,
    )
    .all(limit)
    .map(toIncident);
}
