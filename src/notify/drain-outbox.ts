import type { Logger } from "../log.js";
import type { Db } from "../store/database.js";
import {
  claimOutbox,
  countDueOutbox,
  dueOutbox,
  enqueueAlert,
  markFailed,
  markSent,
  type OutboxRow,
} from "../store/outbox.js";
import { AlertContent } from "./alert-content.js";
import {
  alertMessageId,
  assertMessageIdDomain,
  caseThreadKey,
  isSafeMessageId,
  threadId,
} from "./message-ids.js";
import { renderAlert } from "./render-alert.js";
import { MailError, type MailTransport, type OutgoingMessage } from "./transports.js";

const MINUTE_MS = 60_000;
const MAX_BACKOFF_MS = 6 * 60 * MINUTE_MS;
const BATCH = 50;
/** Longer than any one SMTP exchange can take with the transport's timeouts. */
const DEFAULT_CLAIM_MS = 10 * MINUTE_MS;
const ERROR_MAX = 1000;

/** One bare address: anything a parser could split into two recipients or a header is refused. */
const RECIPIENT = /^[^\s<>()[\]\\,;:"@]+@[^\s<>()[\]\\,;:"@]+$/;
const LIST_ID = /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** 1 min, 2 min, 4 min, ... up to 6 h; `attempt` counts failures so far, from 1. */
export function defaultBackoffMs(attempt: number): number {
  return Math.min(MINUTE_MS * 2 ** Math.max(0, attempt - 1), MAX_BACKOFF_MS);
}

export interface DrainOptions {
  db: Db;
  transport: MailTransport;
  /** The From header, e.g. `Monitor <monitor@example.com>`. */
  from: string;
  /** RFC 2919 list identifier of the watchlist, e.g. `escritorio.example.com` (see watchlistListId). */
  listId: string;
  /** Right-hand side of every Message-ID we make. */
  domain: string;
  now: () => Date;
  /** Failed attempts after which a row is dead. */
  maxAttempts: number;
  backoffMs?: (attempt: number) => number;
  logger: Logger;
  signal?: AbortSignal;
  /** How long a send in progress keeps others off its row; a crash makes the row due after it. */
  claimMs?: number;
}

export interface DrainResult {
  sent: number;
  /** Attempts that failed and will be retried. */
  failed: number;
  /** Rows given up on in this drain. */
  dead: number;
  /** Rows still due, left for the next drain because the transport is down or the drain was stopped. */
  deferred: number;
}

type Prepared = { ok: true; message: OutgoingMessage } | { ok: false; error: string };

function validateOptions(options: DrainOptions): void {
  assertMessageIdDomain(options.domain);
  if (!LIST_ID.test(options.listId)) {
    throw new TypeError("listId must look like a host name, e.g. watchlist.example.com");
  }
  if (options.from.trim() === "" || CONTROL.test(options.from)) {
    throw new TypeError("the From address is empty or holds control characters");
  }
  if (!Number.isInteger(options.maxAttempts) || options.maxAttempts < 1) {
    throw new TypeError("maxAttempts must be a positive integer");
  }
}

/** Everything that goes into a header is ours: hashes, the configured From, a checked address. */
function prepare(row: OutboxRow, options: DrainOptions): Prepared {
  if (row.kind !== "alert" && row.kind !== "test") {
    return { ok: false, error: `no renderer for outbox kind "${row.kind.slice(0, 20)}"` };
  }
  const recipient = row.recipient.trim();
  if (!RECIPIENT.test(recipient)) {
    return { ok: false, error: "the recipient is not a single plain e-mail address" };
  }
  const parsed = AlertContent.safeParse(row.payload);
  if (!parsed.success) {
    return { ok: false, error: "the stored payload is not an alert; it cannot be rendered" };
  }
  const content = parsed.data;
  const rendered = renderAlert(content);
  const thread = threadId(
    caseThreadKey(content.caseNumber, content.court),
    recipient,
    options.domain,
  );
  const messageId =
    row.messageId !== null && isSafeMessageId(row.messageId)
      ? row.messageId
      : alertMessageId(row.dedupeKey, options.domain);
  return {
    ok: true,
    message: {
      from: options.from,
      to: recipient,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      messageId,
      inReplyTo: thread,
      references: thread,
      headers: {
        "List-Id": `datajud-monitor <${options.listId}>`,
        // RFC 3834: vacation responders must not answer.
        "Auto-Submitted": "auto-generated",
        "X-Auto-Response-Suppress": "All",
      },
    },
  };
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/[\r\n]+/g, " ").slice(0, ERROR_MAX);
}

/**
 * Sends every due outbox row once. A row is claimed before its send and marked right after, so a
 * crash in between resends it at most once, with the same Message-ID. When the transport itself is
 * down the drain stops: the other rows stay due rather than each paying a failed attempt.
 */
export async function drainOutbox(options: DrainOptions): Promise<DrainResult> {
  validateOptions(options);
  const { db, transport, logger } = options;
  const backoff = options.backoffMs ?? defaultBackoffMs;
  const claimMs = options.claimMs ?? DEFAULT_CLAIM_MS;
  const result: DrainResult = { sent: 0, failed: 0, dead: 0, deferred: 0 };
  let afterId = 0;
  let stopped = false;

  while (!stopped) {
    const rows = dueOutbox(db, options.now().toISOString(), BATCH, afterId);
    if (rows.length === 0) break;
    for (const row of rows) {
      if (options.signal?.aborted) {
        stopped = true;
        break;
      }
      afterId = row.id;
      const now = options.now();
      const until = new Date(now.getTime() + claimMs).toISOString();
      if (!claimOutbox(db, row.id, now.toISOString(), until)) continue;

      const prepared = prepare(row, options);
      if (!prepared.ok) {
        markFailed(db, row.id, { error: prepared.error, nextAttemptAt: until, dead: true });
        result.dead++;
        logger.error(
          { outboxId: row.id, kind: row.kind },
          "outbox row cannot be sent; marked dead",
        );
        continue;
      }

      try {
        const sent = await transport.send(prepared.message);
        markSent(db, row.id, {
          sentAt: options.now().toISOString(),
          smtpResponse: sent.response ?? sent.path ?? null,
        });
        result.sent++;
        logger.info({ outboxId: row.id, kind: row.kind }, "mail sent");
      } catch (error) {
        const attempts = row.attempts + 1;
        const dead = attempts >= options.maxAttempts;
        const failedAt = options.now();
        const next = new Date(failedAt.getTime() + Math.max(0, backoff(attempts))).toISOString();
        markFailed(db, row.id, { error: errorText(error), nextAttemptAt: next, dead });
        if (dead) result.dead++;
        else result.failed++;
        const code = error instanceof MailError ? error.code : "unknown";
        logger.warn(
          {
            outboxId: row.id,
            kind: row.kind,
            attempts,
            dead,
            code,
            transport: transport.describe(),
          },
          "mail delivery failed",
        );
        if (error instanceof MailError && error.transportDown) {
          stopped = true;
          break;
        }
      }
    }
  }

  if (stopped) result.deferred = countDueOutbox(db, options.now().toISOString());
  return result;
}

export interface QueueAlertsInput {
  db: Db;
  changeId: number;
  caseId: number;
  /** The case's watchers plus the watchlist defaults; duplicates are queued once. */
  recipients: readonly string[];
  content: AlertContent;
  /** When the change was detected: part of the key, so a rebuilt database never reuses a Message-ID. */
  detectedAt: string;
  domain: string;
  createdAt: string;
}

/**
 * Queues one alert per watcher of a change; call it in the transaction that stores the summary.
 * Returns how many rows were new (a re-run of the same change queues nothing twice).
 */
export function queueAlerts(input: QueueAlertsInput): number {
  const seen = new Set<string>();
  const rendered = renderAlert(input.content);
  const caseKey = caseThreadKey(input.content.caseNumber, input.content.court);
  let queued = 0;
  for (const raw of input.recipients) {
    const recipient = raw.trim();
    const key = recipient.toLowerCase();
    if (recipient === "" || seen.has(key)) continue;
    seen.add(key);
    const dedupeKey = `alert:${input.changeId}:${input.detectedAt}:${caseKey}:${key}`;
    const inserted = enqueueAlert(input.db, {
      changeId: input.changeId,
      caseId: input.caseId,
      recipient,
      kind: "alert",
      dedupeKey,
      subject: rendered.subject,
      messageId: alertMessageId(dedupeKey, input.domain),
      payload: input.content,
      createdAt: input.createdAt,
    });
    if (inserted) queued++;
  }
  return queued;
}
