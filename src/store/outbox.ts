import { type Db, immediate } from "./database.js";

/**
 * alert: one change or publication for one watcher, sent alone. digest: the same, for a watcher
 * who gets a digest (the drain combines a recipient's due digest rows into one e-mail). report: a
 * periodic status report. admin: operator mail. test: `monitor test-email`.
 */
export type OutboxKind = "alert" | "digest" | "report" | "admin" | "test";
export type OutboxStatus = "pending" | "sent" | "dead";

export interface NewOutboxRow {
  changeId: number | null;
  caseId: number | null;
  /** The endpoint: a channel ("email") and the address there. */
  channel: string;
  recipient: string;
  kind: OutboxKind;
  /** What the payload is (notify/outbox/message-types.ts): read back through that type's schema. */
  messageType: string;
  /** Unique: queueing the same key again (a retried run) does nothing. */
  dedupeKey: string;
  subject: string;
  messageId: string;
  payload: unknown;
  createdAt: string;
  /** Not to be sent before this time (a digest's hour, the end of quiet hours); null: now. */
  nextAttemptAt?: string | null;
  /** A per-watcher endpoint's row: the watcher's number there (E.164); absent: none. */
  target?: string | null;
  /** The acknowledgement the row's link asks for (store/acknowledgements.ts); absent: none. */
  ackId?: number | null;
}

export interface OutboxRow {
  id: number;
  changeId: number | null;
  caseId: number | null;
  channel: string;
  recipient: string;
  /** A per-watcher endpoint's row: the watcher's number there (E.164); null otherwise. */
  target: string | null;
  /** The acknowledgement its link asks for (an urgent alert's); null: none. */
  ackId: number | null;
  /** The chat platform's id of the message it went out as (migration 028); null: none known. */
  providerMessageId: string | null;
  kind: string;
  messageType: string;
  dedupeKey: string;
  subject: string | null;
  messageId: string | null;
  payload: unknown;
  status: OutboxStatus;
  /** Failed attempts so far. */
  attempts: number;
  /** Null means due now. */
  nextAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  smtpResponse: string | null;
}

interface RawOutboxRow extends Omit<OutboxRow, "payload"> {
  payload: string;
}

const OUTBOX_COLUMNS = `id, change_id AS changeId, case_id AS caseId, channel, recipient, target, ack_id AS ackId,
  provider_message_id AS providerMessageId, kind,
  message_type AS messageType, dedupe_key AS dedupeKey, subject, message_id AS messageId, payload, status, attempts,
  next_attempt_at AS nextAttemptAt, last_error AS lastError, created_at AS createdAt,
  sent_at AS sentAt, smtp_response AS smtpResponse`;

function toOutboxRow(raw: RawOutboxRow): OutboxRow {
  const payload: unknown = JSON.parse(raw.payload);
  return { ...raw, payload };
}

/**
 * E-mail alerts still waiting to be sent, per case, for `monitor status` (operator mail is not
 * counted; webhook and chat endpoints have their own lines).
 */
export function pendingMailByCase(db: Db): Map<number, number> {
  const rows = db
    .prepare<[], { caseId: number; pending: number }>(
      "SELECT case_id AS caseId, COUNT(*) AS pending FROM outbox WHERE status = 'pending' AND kind IN ('alert', 'digest') AND case_id IS NOT NULL AND channel = 'email' GROUP BY case_id",
    )
    .all();
  return new Map(rows.map((r) => [r.caseId, r.pending]));
}

/** One row by its id (an acknowledgement link names it); undefined when there is none. */
export function outboxRowById(db: Db, id: number): OutboxRow | undefined {
  const raw = db
    .prepare<[number], RawOutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE id = ?`)
    .get(id);
  return raw === undefined ? undefined : toOutboxRow(raw);
}

/**
 * Inserts one row (notify/outbox/queue.ts `queueMessage` is the one caller). Meant to run inside
 * the transaction that stores what it reports, so a crash either keeps both or neither. Returns
 * false when the dedupe key was already queued.
 */
export function insertOutboxRow(db: Db, row: NewOutboxRow): boolean {
  const result = db
    .prepare<{
      changeId: number | null;
      caseId: number | null;
      channel: string;
      recipient: string;
      kind: string;
      messageType: string;
      dedupeKey: string;
      subject: string;
      messageId: string;
      payload: string;
      createdAt: string;
      nextAttemptAt: string | null;
      target: string | null;
      ackId: number | null;
    }>(
      `INSERT OR IGNORE INTO outbox
         (change_id, case_id, channel, recipient, kind, message_type, dedupe_key, subject,
          message_id, payload, created_at, next_attempt_at, target, ack_id)
       VALUES (@changeId, @caseId, @channel, @recipient, @kind, @messageType, @dedupeKey, @subject,
          @messageId, @payload, @createdAt, @nextAttemptAt, @target, @ackId)`,
    )
    .run({
      changeId: row.changeId,
      caseId: row.caseId,
      channel: row.channel,
      recipient: row.recipient,
      kind: row.kind,
      messageType: row.messageType,
      dedupeKey: row.dedupeKey,
      subject: row.subject,
      messageId: row.messageId,
      payload: JSON.stringify(row.payload ?? null),
      createdAt: row.createdAt,
      nextAttemptAt: row.nextAttemptAt ?? null,
      target: row.target ?? null,
      ackId: row.ackId ?? null,
    });
  return result.changes === 1;
}

/**
 * Pending rows of one channel whose time has come, oldest first; `afterId` pages through them in
 * one drain.
 */
export function dueOutbox(
  db: Db,
  channel: string,
  nowIso: string,
  limit: number,
  afterId = 0,
): OutboxRow[] {
  return db
    .prepare<{ channel: string; now: string; limit: number; afterId: number }, RawOutboxRow>(
      `SELECT ${OUTBOX_COLUMNS} FROM outbox
       WHERE status = 'pending' AND (next_attempt_at IS NULL OR next_attempt_at <= @now)
         AND channel = @channel AND id > @afterId
       ORDER BY id LIMIT @limit`,
    )
    .all({ channel, now: nowIso, limit, afterId })
    .map(toOutboxRow);
}

/** Pending rows of every channel whose time has come: whether a delivery has anything to do. */
export function countDueOutboxAll(db: Db, nowIso: string): number {
  const row = db
    .prepare<{ now: string }, { n: number }>(
      `SELECT COUNT(*) AS n FROM outbox
       WHERE status = 'pending' AND (next_attempt_at IS NULL OR next_attempt_at <= @now)`,
    )
    .get({ now: nowIso });
  return row?.n ?? 0;
}

export function countDueOutbox(db: Db, channel: string, nowIso: string): number {
  const row = db
    .prepare<{ channel: string; now: string }, { n: number }>(
      `SELECT COUNT(*) AS n FROM outbox
       WHERE status = 'pending' AND (next_attempt_at IS NULL OR next_attempt_at <= @now)
         AND channel = @channel`,
    )
    .get({ channel, now: nowIso });
  return row?.n ?? 0;
}

/**
 * Takes a due row for one send by pushing its next attempt to `untilIso` and naming `holder` as
 * its claimant. Only one process can win the UPDATE; if this one dies mid-send, the row becomes
 * due again at `untilIso`, or at once when `releaseAbandonedClaims` finds the holder dead, and is
 * resent (with the same Message-ID), never dropped.
 */
export function claimOutbox(
  db: Db,
  id: number,
  nowIso: string,
  untilIso: string,
  holder: string | null = null,
): boolean {
  const result = db
    .prepare<{ id: number; now: string; until: string; holder: string | null }>(
      `UPDATE outbox SET next_attempt_at = @until, claimed_by = @holder
       WHERE id = @id AND status = 'pending' AND (next_attempt_at IS NULL OR next_attempt_at <= @now)`,
    )
    .run({ id, now: nowIso, until: untilIso, holder });
  return result.changes === 1;
}

/**
 * Makes due again the rows still claimed by a holder that `holderIsDead` says is gone (a process
 * killed mid-send on this host), so the next drain sends them at once instead of waiting for the
 * claim to run out. Returns how many rows were released.
 */
export function releaseAbandonedClaims(
  db: Db,
  nowIso: string,
  holderIsDead: (holder: string) => boolean,
): number {
  const holders = db
    .prepare<[string], string>(
      `SELECT DISTINCT claimed_by FROM outbox
       WHERE status = 'pending' AND claimed_by IS NOT NULL AND next_attempt_at > ?`,
    )
    .pluck()
    .all(nowIso);
  const release = db.prepare<[string, string]>(
    `UPDATE outbox SET next_attempt_at = NULL, claimed_by = NULL
     WHERE status = 'pending' AND claimed_by = ? AND next_attempt_at > ?`,
  );
  let released = 0;
  for (const holder of holders) {
    if (holderIsDead(holder)) released += release.run(holder, nowIso).changes;
  }
  return released;
}

/**
 * Claims several rows that will go out as one message, and records that message's id on each of
 * them in the same transaction: after a crash the same rows are found together again and resent
 * under the same Message-ID. `messageIdOf` gets the rows actually claimed (another process may
 * have taken some); nothing is written when none was.
 */
export function claimOutboxGroup(
  db: Db,
  ids: readonly number[],
  nowIso: string,
  untilIso: string,
  messageIdOf: (claimedIds: readonly number[]) => string,
  holder: string | null = null,
): { claimedIds: number[]; messageId: string | null } {
  return immediate(db, () => {
    const claimedIds = ids.filter((id) => claimOutbox(db, id, nowIso, untilIso, holder));
    if (claimedIds.length === 0) return { claimedIds, messageId: null };
    const messageId = messageIdOf(claimedIds);
    const update = db.prepare<{ id: number; messageId: string }>(
      "UPDATE outbox SET message_id = @messageId WHERE id = @id",
    );
    for (const id of claimedIds) update.run({ id, messageId });
    return { claimedIds, messageId };
  });
}

export function markSent(
  db: Db,
  id: number,
  sent: { sentAt: string; smtpResponse: string | null },
): void {
  markAllSent(db, [id], sent);
}

/** Counts one failed attempt; a dead row is never picked up again. */
export function markFailed(
  db: Db,
  id: number,
  failure: { error: string; nextAttemptAt: string; dead: boolean },
): void {
  db.prepare<{ id: number; error: string; nextAttemptAt: string | null; status: OutboxStatus }>(
    `UPDATE outbox SET attempts = attempts + 1, last_error = @error,
       next_attempt_at = @nextAttemptAt, status = @status, claimed_by = NULL
     WHERE id = @id AND status = 'pending'`,
  ).run({
    id,
    error: failure.error,
    nextAttemptAt: failure.dead ? null : failure.nextAttemptAt,
    status: failure.dead ? "dead" : "pending",
  });
}

/**
 * Every row of one message at once, so a digest is never half marked: one statement, committed
 * on its own, so nothing but this write stands between the server's "250" and the mark.
 */
/**
 * Marks rows sent. `providerMessageId`: the chat platform's id of the one message they went out
 * as (a chat digest's rows share it), what a reply to that message names.
 */
export function markAllSent(
  db: Db,
  ids: readonly number[],
  sent: { sentAt: string; smtpResponse: string | null; providerMessageId?: string | null },
): void {
  db.prepare<{
    ids: string;
    sentAt: string;
    smtpResponse: string | null;
    providerMessageId: string | null;
  }>(
    `UPDATE outbox SET status = 'sent', sent_at = @sentAt, smtp_response = @smtpResponse,
       provider_message_id = @providerMessageId, next_attempt_at = NULL, claimed_by = NULL
     WHERE id IN (SELECT value FROM json_each(@ids))`,
  ).run({
    ids: JSON.stringify(ids),
    sentAt: sent.sentAt,
    smtpResponse: sent.smtpResponse,
    providerMessageId: sent.providerMessageId ?? null,
  });
}

/**
 * The sent rows of `channel` that asked for an acknowledgement and went out as the platform's
 * message `providerMessageId` (one row, or a chat digest's several); `recipient`: only those of
 * that endpoint.
 */
export function askingRowsOfMessage(
  db: Db,
  channel: string,
  providerMessageId: string,
  recipient: string | null,
): OutboxRow[] {
  return db
    .prepare<[string, string, string | null, string | null], RawOutboxRow>(
      `SELECT ${OUTBOX_COLUMNS} FROM outbox
       WHERE channel = ? AND provider_message_id = ? AND ack_id IS NOT NULL
         AND status = 'sent' AND (? IS NULL OR recipient = ?)
       ORDER BY id`,
    )
    .all(channel, providerMessageId, recipient, recipient)
    .map(toOutboxRow);
}

export function markAllFailed(
  db: Db,
  ids: readonly number[],
  failure: { error: string; nextAttemptAt: string; dead: boolean },
): void {
  immediate(db, () => {
    for (const id of ids) markFailed(db, id, failure);
  });
}

/**
 * Outbox rows by state. A `monitor test-email` that failed is not dead mail: whoever ran it was
 * told at once, and it is never retried.
 */
export function outboxCounts(
  db: Db,
  /** Only this channel's rows ("email": the mail `monitor status` counts); absent: every row. */
  channel?: string,
): { pending: number; sent: number; dead: number } {
  const rows = db
    .prepare<{ channel: string | null }, { status: OutboxStatus; n: number }>(
      "SELECT status, COUNT(*) AS n FROM outbox WHERE NOT (status = 'dead' AND kind = 'test') AND (@channel IS NULL OR channel = @channel) GROUP BY status",
    )
    .all({ channel: channel ?? null });
  const counts = { pending: 0, sent: 0, dead: 0 };
  for (const r of rows) counts[r.status] = r.n;
  return counts;
}

/** Pending e-mail not due yet: a digest's hour, the end of quiet hours, a retry's backoff. */
export function countWaitingOutbox(db: Db, nowIso: string): number {
  return (
    db
      .prepare<[string], { n: number }>(
        "SELECT COUNT(*) AS n FROM outbox WHERE status = 'pending' AND next_attempt_at > ? AND channel = 'email'",
      )
      .get(nowIso)?.n ?? 0
  );
}

/**
 * Pending e-mail that failed at least once: how many, the newest failure, the next attempt
 * (webhook and chat endpoints: `endpointOutbox`).
 */
export interface RetryingMail {
  rows: number;
  /** The error of the failure whose retry is due last (the most recent failure). */
  lastError: string | null;
  /** The soonest retry. */
  nextAttemptAt: string | null;
}

export function retryingOutbox(db: Db): RetryingMail {
  const counted = db
    .prepare<[], { n: number; next: string | null }>(
      "SELECT COUNT(*) AS n, MIN(next_attempt_at) AS next FROM outbox WHERE status = 'pending' AND attempts > 0 AND channel = 'email'",
    )
    .get();
  const last = db
    .prepare<[], { lastError: string | null }>(
      "SELECT last_error AS lastError FROM outbox WHERE status = 'pending' AND attempts > 0 AND channel = 'email' ORDER BY next_attempt_at DESC, id DESC LIMIT 1",
    )
    .get();
  return {
    rows: counted?.n ?? 0,
    lastError: last?.lastError ?? null,
    nextAttemptAt: counted?.next ?? null,
  };
}

/** Messages given up on, oldest first, for `monitor status` (failed test-emails aside). */
export function deadOutbox(db: Db): OutboxRow[] {
  return db
    .prepare<[], RawOutboxRow>(
      `SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE status = 'dead' AND kind <> 'test' ORDER BY id`,
    )
    .all()
    .map(toOutboxRow);
}

export function outboxIdByDedupeKey(db: Db, dedupeKey: string): number | undefined {
  return db
    .prepare<[string], { id: number }>("SELECT id FROM outbox WHERE dedupe_key = ?")
    .get(dedupeKey)?.id;
}

export function getOutboxRow(db: Db, id: number): OutboxRow | undefined {
  const raw = db
    .prepare<[number], RawOutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE id = ?`)
    .get(id);
  return raw === undefined ? undefined : toOutboxRow(raw);
}

/** The endpoints of the rows whose dedupe key starts with `prefix` (those one message went to). */
export function outboxEndpointsByKeyPrefix(
  db: Db,
  prefix: string,
): Array<{ channel: string; recipient: string }> {
  return db
    .prepare<[string, string], { channel: string; recipient: string }>(
      "SELECT channel, recipient FROM outbox WHERE substr(dedupe_key, 1, length(?)) = ? ORDER BY id",
    )
    .all(prefix, prefix);
}

/**
 * Gives up every pending row of one webhook or chat endpoint at once (it answered 410 Gone: it
 * no longer exists); returns how many. Rows claimed by a send in progress are left to it.
 */
export function giveUpEndpoint(db: Db, channel: string, recipient: string, error: string): number {
  return db
    .prepare<{ channel: string; recipient: string; error: string }>(
      `UPDATE outbox SET status = 'dead', last_error = @error, next_attempt_at = NULL
       WHERE status = 'pending' AND channel = @channel AND recipient = @recipient
         AND claimed_by IS NULL`,
    )
    .run({ channel, recipient, error }).changes;
}

/** One webhook or chat endpoint's rows, for `monitor status` and `/metrics`. */
export interface EndpointOutbox {
  channel: string;
  recipient: string;
  /** Pending rows, due or not (failed ones included). */
  pending: number;
  /** Of the pending: failed at least once and waiting for their retry. */
  retrying: number;
  /** The soonest retry of those, and the error of the newest failure. */
  nextAttemptAt: string | null;
  lastError: string | null;
  sent: number;
  dead: number;
}

/** Every webhook and chat endpoint that has rows, by channel and name (test sends left out). */
export function endpointOutbox(db: Db): EndpointOutbox[] {
  const rows = db
    .prepare<[], Omit<EndpointOutbox, "lastError">>(
      `SELECT channel, recipient,
         SUM(status = 'pending') AS pending,
         SUM(status = 'pending' AND attempts > 0) AS retrying,
         MIN(CASE WHEN status = 'pending' AND attempts > 0 THEN next_attempt_at END) AS nextAttemptAt,
         SUM(status = 'sent') AS sent,
         SUM(status = 'dead') AS dead
       FROM outbox WHERE channel <> 'email' AND kind <> 'test'
       GROUP BY channel, recipient ORDER BY channel, recipient`,
    )
    .all();
  const last = db.prepare<[string, string], { lastError: string | null }>(
    `SELECT last_error AS lastError FROM outbox
     WHERE channel = ? AND recipient = ? AND kind <> 'test' AND last_error IS NOT NULL
       AND (status = 'dead' OR (status = 'pending' AND attempts > 0))
     ORDER BY id DESC LIMIT 1`,
  );
  return rows.map((r) => ({
    ...r,
    lastError: last.get(r.channel, r.recipient)?.lastError ?? null,
  }));
}

/**
 * E-mails given up (failed test-emails aside) with no later e-mail delivered to the same address:
 * mail to it is still broken, as far as the outbox knows. `monitor status` needs attention then.
 */
export function emailsGivenUpSinceDelivery(db: Db): number {
  return (
    db
      .prepare<[], { n: number }>(
        `SELECT COUNT(*) AS n FROM outbox AS dead
         WHERE dead.status = 'dead' AND dead.kind <> 'test' AND dead.channel = 'email'
           AND NOT EXISTS (
             SELECT 1 FROM outbox AS later
             WHERE later.status = 'sent' AND later.channel = 'email' AND later.id > dead.id
               AND lower(later.recipient) = lower(dead.recipient))`,
      )
      .get()?.n ?? 0
  );
}
