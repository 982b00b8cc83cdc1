import type { AcknowledgementRow } from "./acknowledgements.js";
import type { Db } from "./database.js";

/*
 * The escalation steps of urgent alerts nobody acknowledged (migration 027): planned once per
 * alert with the instant each is due, queued once. Times are passed in. What a step's state is
 * follows from its row and its alert's acknowledgement: queued (sent to the outbox), stopped
 * (acknowledged before it was due to go), expired (the alert's links expired first), waiting.
 */

export type EscalationState = "waiting" | "queued" | "stopped" | "expired";

export interface EscalationRow {
  id: number;
  ackId: number;
  step: number;
  targetKind: "watcher" | "endpoint";
  target: string;
  dueAt: string;
  dueBy: "within" | "before" | "last-day";
  lastDay: string | null;
  lastDayKind: "period" | "hearing" | null;
  lastDayName: string | null;
  plannedAt: string;
  queuedAt: string | null;
  problem: string | null;
}

/** A step with its alert: what `status` and `history` show. */
export interface EscalationView extends EscalationRow {
  caseId: number | null;
  subject: string;
  alertQueuedAt: string;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
  /** When the alert's links (and so its chain) expire. */
  expiresAt: string;
}

export type PlannedStep = Omit<
  EscalationRow,
  "id" | "ackId" | "plannedAt" | "queuedAt" | "problem"
>;

const COLUMNS = `e.id, e.ack_id AS ackId, e.step, e.target_kind AS targetKind, e.target,
  e.due_at AS dueAt, e.due_by AS dueBy, e.last_day AS lastDay, e.last_day_kind AS lastDayKind,
  e.last_day_name AS lastDayName, e.planned_at AS plannedAt, e.queued_at AS queuedAt, e.problem`;

const VIEW_COLUMNS = `${COLUMNS}, a.case_id AS caseId, a.subject, a.created_at AS alertQueuedAt,
  a.acknowledged_at AS acknowledgedAt, a.acknowledged_by AS acknowledgedBy, a.expires_at AS expiresAt`;

/** A step's state at `now`. */
export function escalationState(view: EscalationView, now: string): EscalationState {
  if (view.queuedAt !== null) return "queued";
  if (view.acknowledgedAt !== null) return "stopped";
  return view.expiresAt <= now ? "expired" : "waiting";
}

/** Open alerts (asked, unacknowledged, unexpired) the escalation tick has not looked at yet. */
export function acknowledgementsToPlan(db: Db, now: string): AcknowledgementRow[] {
  return db
    .prepare<[string], AcknowledgementRow & { channels: string }>(
      `SELECT id, alert_key AS alertKey, case_id AS caseId, change_id AS changeId, subject,
         channels, created_at AS createdAt, expires_at AS expiresAt,
         acknowledged_at AS acknowledgedAt, acknowledged_by AS acknowledgedBy
       FROM acknowledgements
       WHERE escalation_checked_at IS NULL AND acknowledged_at IS NULL AND expires_at > ?
       ORDER BY id`,
    )
    .all(now)
    .map((raw) => ({ ...raw, channels: parseChannels(raw.channels) }));
}

function parseChannels(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((c): c is string => typeof c === "string") : [];
  } catch {
    return [];
  }
}

/**
 * The alert an acknowledgement asks about, as its first row stored it (a movement or a
 * publication; an escalation's own rows are not the alert); null when it is another kind.
 */
export function alertOfAcknowledgement(
  db: Db,
  ackId: number,
): { messageType: "movement" | "publication"; payload: unknown } | null {
  const row = db
    .prepare<[number], { messageType: "movement" | "publication"; payload: string }>(
      `SELECT message_type AS messageType, payload FROM outbox
       WHERE ack_id = ? AND message_type IN ('movement', 'publication') ORDER BY id LIMIT 1`,
    )
    .get(ackId);
  return row === undefined
    ? null
    : { messageType: row.messageType, payload: JSON.parse(row.payload) };
}

/**
 * Who got the alert first, in the order its rows were queued: e-mail addresses, `channel:name`
 * for a chat endpoint, `whatsapp +55...` for a watcher's number.
 */
export function firstRecipients(db: Db, ackId: number): string[] {
  const rows = db
    .prepare<[number], { channel: string; recipient: string; target: string | null }>(
      `SELECT channel, recipient, target FROM outbox
       WHERE ack_id = ? AND message_type != 'escalation' ORDER BY id`,
    )
    .all(ackId);
  const out: string[] = [];
  for (const r of rows) {
    const name =
      r.channel === "email"
        ? r.recipient
        : r.target !== null
          ? `${r.channel} ${r.target}`
          : `${r.channel}:${r.recipient}`;
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/**
 * When the alert first goes out: the earliest instant one of its rows may be sent (its queued
 * instant, or the digest's hour or the end of quiet hours it waits for); and when a copy of it
 * was first sent, null while none was. An escalation's own rows are not the alert.
 */
export function alertTiming(
  db: Db,
  ackId: number,
): { outAt: string | null; firstSentAt: string | null } {
  const row = db
    .prepare<[number], { outAt: string | null; firstSentAt: string | null }>(
      `SELECT MIN(COALESCE(next_attempt_at, created_at)) AS outAt, MIN(sent_at) AS firstSentAt
       FROM outbox WHERE ack_id = ? AND message_type != 'escalation'`,
    )
    .get(ackId);
  return row ?? { outAt: null, firstSentAt: null };
}

/**
 * Records the alert's chain (none: nothing planned) and that it was looked at; call it in one
 * transaction. A second call for the same alert adds nothing. `expiresAt`, when later than the
 * alert's, is its links' new expiry: a chain due after them would otherwise never go.
 */
export function planEscalation(
  db: Db,
  ackId: number,
  steps: readonly PlannedStep[],
  at: string,
  expiresAt: string | null = null,
): void {
  if (expiresAt !== null) {
    db.prepare(
      `UPDATE acknowledgements SET expires_at = ?
       WHERE id = ? AND escalation_checked_at IS NULL AND expires_at < ?`,
    ).run(expiresAt, ackId, expiresAt);
  }
  const insert = db.prepare(
    `INSERT OR IGNORE INTO escalations
       (ack_id, step, target_kind, target, due_at, due_by, last_day, last_day_kind,
        last_day_name, planned_at)
     VALUES (@ackId, @step, @targetKind, @target, @dueAt, @dueBy, @lastDay, @lastDayKind,
        @lastDayName, @at)`,
  );
  for (const s of steps) insert.run({ ...s, ackId, at });
  db.prepare(
    "UPDATE acknowledgements SET escalation_checked_at = ? WHERE id = ? AND escalation_checked_at IS NULL",
  ).run(at, ackId);
}

/** Steps due by `now` of alerts still open (unacknowledged, links unexpired), oldest first. */
export function dueEscalations(db: Db, now: string): EscalationRow[] {
  return db
    .prepare<[string, string], EscalationRow>(
      `SELECT ${COLUMNS} FROM escalations e JOIN acknowledgements a ON a.id = e.ack_id
       WHERE e.queued_at IS NULL AND e.due_at <= ?
         AND a.acknowledged_at IS NULL AND a.expires_at > ?
       ORDER BY e.due_at, e.ack_id, e.step`,
    )
    .all(now, now);
}

/** Every step of one alert, in order. */
export function stepsOfAlert(db: Db, ackId: number): EscalationRow[] {
  return db
    .prepare<[number], EscalationRow>(
      `SELECT ${COLUMNS} FROM escalations e WHERE e.ack_id = ? ORDER BY e.step`,
    )
    .all(ackId);
}

/**
 * Marks the step queued (with why it queued nothing, if so); false when it was already: call it
 * in the transaction that queues its rows, and queue nothing on false.
 */
export function markEscalationQueued(
  db: Db,
  id: number,
  at: string,
  problem: string | null = null,
): boolean {
  return (
    db
      .prepare<[string, string | null, number]>(
        "UPDATE escalations SET queued_at = ?, problem = ? WHERE id = ? AND queued_at IS NULL",
      )
      .run(at, problem, id).changes === 1
  );
}

export interface EscalationCounts {
  waiting: number;
  queued: number;
  stopped: number;
  expired: number;
  /** Due, but nothing could be queued (its endpoint left the configuration): `problem` says why. */
  unsent: number;
  /** The earliest instant a waiting step is due; null when none waits. */
  nextDueAt: string | null;
}

/** What `status` counts, at `now`. */
export function escalationCounts(db: Db, now: string): EscalationCounts {
  const row = db
    .prepare<[string, string, string], EscalationCounts>(
      `SELECT
         COALESCE(SUM(e.queued_at IS NULL AND a.acknowledged_at IS NULL AND a.expires_at > ?), 0) AS waiting,
         COALESCE(SUM(e.queued_at IS NOT NULL AND e.problem IS NULL), 0) AS queued,
         COALESCE(SUM(e.problem IS NOT NULL), 0) AS unsent,
         COALESCE(SUM(e.queued_at IS NULL AND a.acknowledged_at IS NOT NULL), 0) AS stopped,
         COALESCE(SUM(e.queued_at IS NULL AND a.acknowledged_at IS NULL AND a.expires_at <= ?), 0) AS expired,
         MIN(CASE WHEN e.queued_at IS NULL AND a.acknowledged_at IS NULL AND a.expires_at > ?
             THEN e.due_at END) AS nextDueAt
       FROM escalations e JOIN acknowledgements a ON a.id = e.ack_id`,
    )
    .get(now, now, now);
  return row ?? { waiting: 0, queued: 0, stopped: 0, expired: 0, unsent: 0, nextDueAt: null };
}

/** The steps still waiting, the next due first, at most `limit`. */
export function waitingEscalations(db: Db, now: string, limit: number): EscalationView[] {
  return db
    .prepare<[string, number], EscalationView>(
      `SELECT ${VIEW_COLUMNS} FROM escalations e JOIN acknowledgements a ON a.id = e.ack_id
       WHERE e.queued_at IS NULL AND a.acknowledged_at IS NULL AND a.expires_at > ?
       ORDER BY e.due_at, e.ack_id, e.step LIMIT ?`,
    )
    .all(now, limit);
}

/** A case's steps, newest alert first, each alert's steps in order. */
export function escalationsOfCase(db: Db, caseId: number): EscalationView[] {
  return db
    .prepare<[number], EscalationView>(
      `SELECT ${VIEW_COLUMNS} FROM escalations e JOIN acknowledgements a ON a.id = e.ack_id
       WHERE a.case_id = ? ORDER BY a.created_at DESC, e.ack_id DESC, e.step`,
    )
    .all(caseId);
}

export interface EscalationFacts {
  subject: string;
  alertQueuedAt: string;
  step: number;
  to: string;
  toKind: "watcher" | "endpoint";
  dueAt: string;
  dueBy: string;
  lastDay: string | null;
  lastDayKind: string | null;
  queuedAt: string | null;
  problem: string | null;
  acknowledgedAt: string | null;
  expiresAt: string;
}

/** A step as history and MCP give it: facts only, our instants. */
export function escalationFacts(e: EscalationView): EscalationFacts {
  return {
    subject: e.subject,
    alertQueuedAt: e.alertQueuedAt,
    step: e.step,
    to: e.target,
    toKind: e.targetKind,
    dueAt: e.dueAt,
    dueBy: e.dueBy,
    lastDay: e.lastDay,
    lastDayKind: e.lastDayKind,
    queuedAt: e.queuedAt,
    problem: e.problem,
    acknowledgedAt: e.acknowledgedAt,
    expiresAt: e.expiresAt,
  };
}
