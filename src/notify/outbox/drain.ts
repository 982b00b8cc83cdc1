import { COURT_TIME_ZONE } from "../../datajud/dates.js";
import { isEmailAddress } from "../../email-address.js";
import type { Logger } from "../../log.js";
import { cappedDoublingMs } from "../../pacing/backoff.js";
import type { Db } from "../../store/database.js";
import type { Claimant } from "../../store/lease.js";
import {
  claimOutbox,
  claimOutboxGroup,
  countDueOutbox,
  dueOutbox,
  getOutboxRow,
  markAllFailed,
  markAllSent,
  type OutboxKind,
  type OutboxRow,
  releaseAbandonedClaims,
} from "../../store/outbox.js";
import { type Clock, dateNow, isoNow } from "../../time/clock.js";
import { withAckLink } from "../render/acknowledgement.js";
import { renderAlert } from "../render/alert.js";
import type { AlertContent } from "../render/alert-content.js";
import { renderDigest } from "../render/digest.js";
import { type DjenGapWarning, renderDjenGapWarning } from "../render/djen-gap.js";
import type { RenderedAlert } from "../render/email-kit.js";
import { type EscalationNotice, withEscalation } from "../render/escalation.js";
import { type AdminAlert, renderAdminAlert } from "../render/operator-mail.js";
import {
  type PublicationAlertContent,
  renderPublicationAlert,
} from "../render/publication-alert.js";
import { type Receipt, renderReceipt } from "../render/receipt.js";
import { renderStatusReport, type StatusReport } from "../render/status-report.js";
import {
  MailError,
  type MailErrorCode,
  type MailTransport,
  type OutgoingMessage,
} from "../transport/mail-transport.js";
import {
  alertMessageId,
  assertMessageIdDomain,
  caseThreadKey,
  type GroupKind,
  groupMessageId,
  groupOfMessageId,
  isSafeMessageId,
  threadId,
} from "./message-ids.js";
import { readStoredMessage } from "./message-types.js";
import type { Channel } from "./queue.js";

/** What this drain sends: e-mail. Rows of other channels are left to their own senders. */
const CHANNEL: Channel = "email";
const MINUTE_MS = 60_000;
const MAX_BACKOFF_MS = 6 * 60 * MINUTE_MS;
const BATCH = 50;
/** Most rows one digest or operator e-mail lists; the rest go in another e-mail of the same drain. */
const GROUP_MAX = 50;
/** Longer than any one SMTP exchange can take with the transport's timeouts. */
const DEFAULT_CLAIM_MS = 10 * MINUTE_MS;
const ERROR_MAX = 1000;
const RENDERED_KINDS: ReadonlySet<string> = new Set<OutboxKind>([
  "alert",
  "digest",
  "report",
  "admin",
  "test",
]);

const LIST_ID = /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** 1 min, 2 min, 4 min, ... up to 6 h; `attempt` counts failures so far, from 1. */
export function defaultBackoffMs(attempt: number): number {
  return cappedDoublingMs(MINUTE_MS, attempt - 1, MAX_BACKOFF_MS);
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
  /** The process's clock: claims, sends and retries are timed on it. */
  clock: Clock;
  /** Failed attempts after which a row is dead. */
  maxAttempts: number;
  backoffMs?: (attempt: number) => number;
  logger: Logger;
  signal?: AbortSignal;
  /**
   * How long a send in progress keeps others off its row; a crash makes the row due after it,
   * or at once when the claimant's process is found dead on this host.
   */
  claimMs?: number;
  /** Who claims rows for their send: this process, judged as the sweep lease judges. */
  claimant: Claimant;
  /** The schedule's time zone: our own instants in e-mails are shown there (default São Paulo). */
  timezone?: string;
  /** The acknowledgement link of a row that asks for one (ack/ack-link.ts); absent: none. */
  ackLink?: (row: OutboxRow) => string | null;
}

export interface DrainResult {
  /** E-mails sent (a digest is one, however many rows it carried). */
  sent: number;
  /** E-mail attempts that failed and will be retried. */
  failed: number;
  /** E-mails (or unsendable rows) given up on in this drain. */
  dead: number;
  /** Rows still due, left for the next drain because the transport is down or the drain was stopped. */
  deferred: number;
  /** The last failure's error (the server and what it said; never a password); null: none failed. */
  lastError: string | null;
}

type Payload =
  | { kind: "alert"; content: AlertContent }
  | { kind: "publication"; content: PublicationAlertContent }
  | { kind: "gap"; warning: DjenGapWarning }
  | { kind: "receipt"; receipt: Receipt }
  | { kind: "admin"; alert: AdminAlert }
  | { kind: "report"; report: StatusReport }
  | { kind: "escalation"; notice: EscalationNotice };

/** A due row whose payload was read back and whose recipient was checked. */
interface DecodedRow {
  row: OutboxRow;
  recipient: string;
  payload: Payload;
}

/** One e-mail to send: a row alone, or rows sent together; or a row that cannot be sent. */
type PlannedEmail =
  | { shape: "invalid"; row: OutboxRow; error: string }
  | { shape: "single"; entry: DecodedRow }
  | { shape: GroupKind; entries: DecodedRow[] };

/** What sending one planned e-mail came to. */
type EmailAttempt =
  | { status: "skipped" }
  | { status: "invalid"; error: string }
  | { status: "sent"; messageId: string; response: string | null; path: string | null }
  | {
      status: "failed";
      dead: boolean;
      error: string;
      code: MailErrorCode | "unknown";
      transportDown: boolean;
    };

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

/** Checks what a row holds before anything is claimed: a broken row never spoils a digest. */
function decode(row: OutboxRow): { ok: true; entry: DecodedRow } | { ok: false; error: string } {
  if (!RENDERED_KINDS.has(row.kind)) {
    return { ok: false, error: `no renderer for outbox kind "${row.kind.slice(0, 20)}"` };
  }
  const recipient = row.recipient.trim();
  // One bare address: anything a parser could split into two recipients or a header is refused.
  if (!isEmailAddress(recipient)) {
    return { ok: false, error: "the recipient is not a single plain e-mail address" };
  }
  // Read as the row says it was queued, through that type's schema: never guessed.
  const read = readStoredMessage(row.messageType, row.payload);
  if (!read.ok) return { ok: false, error: read.error };
  const stored = read.message;
  const entry = (payload: Payload) => ({ ok: true as const, entry: { row, recipient, payload } });
  switch (stored.type) {
    case "status-report":
      return entry({ kind: "report", report: stored.report });
    case "operator":
      return entry({ kind: "admin", alert: stored.alert });
    case "djen-gap":
      return entry({ kind: "gap", warning: stored.warning });
    case "receipt":
      return entry({ kind: "receipt", receipt: stored.receipt });
    case "publication":
      return entry({ kind: "publication", content: stored.content });
    case "movement":
      return entry({ kind: "alert", content: stored.content });
    case "correction":
      return {
        ok: false,
        error: "a case.correction goes to webhooks and chats; the e-mail carries it in its alert",
      };
    case "case-checked":
      return {
        ok: false,
        error: "a case.checked event goes to webhooks and chats, never by e-mail",
      };
    case "acknowledgement":
      return { ok: false, error: "an alert.acknowledged event goes to webhooks and chats only" };
    case "escalation":
      return entry({ kind: "escalation", notice: stored.notice });
  }
}

/**
 * Digest rows of one recipient that are due together go out as one e-mail (rows stay one per
 * change and watcher, so exactly-once holds per change); operator findings are combined too.
 */
function groupKindOf(entry: DecodedRow): GroupKind | null {
  if (entry.payload.kind === "admin") return "admin";
  return entry.row.kind === "digest" ? "digest" : null;
}

/**
 * Splits due rows into e-mails, in the order of their oldest row. Rows an earlier drain claimed
 * together (their stored Message-ID names the group) stay together, so a resend after a crash is
 * the same e-mail with the same Message-ID; new rows never join such a group.
 */
function planEmails(rows: readonly OutboxRow[]): PlannedEmail[] {
  const emails: PlannedEmail[] = [];
  const open = new Map<string, { shape: GroupKind; entries: DecodedRow[] }>();
  for (const row of rows) {
    const decoded = decode(row);
    if (!decoded.ok) {
      emails.push({ shape: "invalid", row, error: decoded.error });
      continue;
    }
    const entry = decoded.entry;
    const kind = groupKindOf(entry);
    if (kind === null) {
      emails.push({ shape: "single", entry });
      continue;
    }
    const stored = groupOfMessageId(row.messageId, kind);
    const key = `${stored ?? `new:${kind}`}|${entry.recipient.toLowerCase()}`;
    let group = open.get(key);
    if (group === undefined || (stored === null && group.entries.length >= GROUP_MAX)) {
      group = { shape: kind, entries: [] };
      open.set(key, group);
      emails.push(group);
    }
    group.entries.push(entry);
  }
  return emails;
}

function singleMessageId(row: OutboxRow, domain: string): string {
  // A row once claimed into a digest (then the mode changed) must not reuse the digest's id.
  const own =
    row.messageId !== null &&
    isSafeMessageId(row.messageId) &&
    groupOfMessageId(row.messageId, "digest") === null &&
    groupOfMessageId(row.messageId, "admin") === null;
  return own && row.messageId !== null ? row.messageId : alertMessageId(row.dedupeKey, domain);
}

/** Everything that goes into a header is ours: hashes, the configured From, a checked address. */
function message(
  options: DrainOptions,
  recipient: string,
  rendered: RenderedAlert,
  messageId: string,
  thread: string | null,
): OutgoingMessage {
  return {
    from: options.from,
    to: recipient,
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    messageId,
    ...(thread === null ? {} : { inReplyTo: thread, references: thread }),
    headers: {
      "List-Id": `datajud-monitor <${options.listId}>`,
      // RFC 3834: vacation responders must not answer.
      "Auto-Submitted": "auto-generated",
      "X-Auto-Response-Suppress": "All",
    },
  };
}

function timeZoneOf(options: DrainOptions): string {
  return options.timezone ?? COURT_TIME_ZONE;
}

function renderSingle(entry: DecodedRow, options: DrainOptions): OutgoingMessage {
  const { row, recipient, payload } = entry;
  const messageId = singleMessageId(row, options.domain);
  if (payload.kind === "admin") {
    const rendered = renderAdminAlert([payload.alert], timeZoneOf(options));
    return message(options, recipient, rendered, messageId, null);
  }
  if (payload.kind === "report") {
    const rendered = renderStatusReport(payload.report, timeZoneOf(options));
    return message(options, recipient, rendered, messageId, null);
  }
  if (payload.kind === "receipt") {
    const rendered = renderReceipt(payload.receipt, timeZoneOf(options));
    return message(options, recipient, rendered, messageId, null);
  }
  if (payload.kind === "gap") {
    const { warning } = payload;
    const thread = threadId(
      caseThreadKey(warning.caseNumber, warning.court),
      recipient,
      options.domain,
    );
    const rendered = renderDjenGapWarning(warning, timeZoneOf(options));
    return message(options, recipient, rendered, messageId, thread);
  }
  if (payload.kind === "escalation") {
    // The alert again, opened by the escalation's lines, in the alert's own thread.
    const { notice } = payload;
    const original = renderedCaseAlert(notice.original, recipient, options);
    const rendered = withEscalation(original.rendered, notice, timeZoneOf(options));
    return message(options, recipient, asking(row, rendered, options), messageId, original.thread);
  }
  const { rendered, thread } = renderedCaseAlert(
    payload.kind === "publication"
      ? { type: "publication", content: payload.content }
      : { type: "movement", content: payload.content },
    recipient,
    options,
  );
  return message(options, recipient, asking(row, rendered, options), messageId, thread);
}

/** A movement's or a publication's alert, and the case's thread it goes in. */
function renderedCaseAlert(
  alert: EscalationNotice["original"],
  recipient: string,
  options: DrainOptions,
): { rendered: RenderedAlert; thread: string | null } {
  if (alert.type === "publication") {
    const { content } = alert;
    // In a watched case's thread, beside the case's own alerts.
    const thread =
      content.watchedCase === null || content.caseNumber === null
        ? null
        : threadId(
            caseThreadKey(content.caseNumber, content.watchedCase.court),
            recipient,
            options.domain,
          );
    return { rendered: renderPublicationAlert(content, timeZoneOf(options)), thread };
  }
  const { content } = alert;
  const thread = threadId(
    caseThreadKey(content.caseNumber, content.court),
    recipient,
    options.domain,
  );
  return { rendered: renderAlert(content, timeZoneOf(options)), thread };
}

/** An urgent alert's e-mail with its acknowledgement link, when the row asks for one. */
function asking(row: OutboxRow, rendered: RenderedAlert, options: DrainOptions): RenderedAlert {
  const url = options.ackLink?.(row) ?? null;
  return url === null ? rendered : withAckLink(rendered, url);
}

function renderGroup(
  kind: GroupKind,
  entries: readonly DecodedRow[],
  messageId: string,
  options: DrainOptions,
): OutgoingMessage {
  const recipient = entries[0]?.recipient ?? "";
  const changes = entries.filter((e) => e.payload.kind === "alert");
  const publications = entries.filter((e) => e.payload.kind === "publication");
  // Each urgent item's own link, bound to its row: its alert and this recipient.
  const link = (e: DecodedRow): string | null => options.ackLink?.(e.row) ?? null;
  const rendered =
    kind === "digest"
      ? renderDigest(
          changes.flatMap((e) => (e.payload.kind === "alert" ? [e.payload.content] : [])),
          timeZoneOf(options),
          publications.flatMap((e) =>
            e.payload.kind === "publication" ? [e.payload.content] : [],
          ),
          entries.flatMap((e) => (e.payload.kind === "receipt" ? [e.payload.receipt] : [])),
          { changes: changes.map(link), publications: publications.map(link) },
        )
      : renderAdminAlert(
          entries.flatMap((e) => (e.payload.kind === "admin" ? [e.payload.alert] : [])),
          timeZoneOf(options),
        );
  return message(options, recipient, rendered, messageId, null);
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/[\r\n]+/g, " ").slice(0, ERROR_MAX);
}

interface Claimed {
  rows: OutboxRow[];
  message: OutgoingMessage;
}

/** Claims the e-mail's rows and builds its one message; null when another drain has them. */
function claim(
  email: Exclude<PlannedEmail, { shape: "invalid" }>,
  options: DrainOptions,
  until: string,
  holder: string,
): Claimed | null {
  const nowIso = isoNow(options.clock);
  if (email.shape === "single") {
    if (!claimOutbox(options.db, email.entry.row.id, nowIso, until, holder)) return null;
    return { rows: [email.entry.row], message: renderSingle(email.entry, options) };
  }
  const byId = new Map(email.entries.map((e) => [e.row.id, e]));
  const { claimedIds, messageId } = claimOutboxGroup(
    options.db,
    [...byId.keys()],
    nowIso,
    until,
    (ids) =>
      groupMessageId(
        email.shape,
        ids.map((id) => byId.get(id)?.row.dedupeKey ?? String(id)),
        options.domain,
      ),
    holder,
  );
  if (messageId === null) return null;
  const entries = claimedIds.flatMap((id) => byId.get(id) ?? []);
  return {
    rows: entries.map((e) => e.row),
    message: renderGroup(email.shape, entries, messageId, options),
  };
}

/**
 * One e-mail: claim its rows, send, mark them all in one statement right after the server's
 * "250". A crash between the two leaves the rows claimed by a dead process; the next drain takes
 * them over and resends the same message (same Message-ID) once.
 */
async function sendEmail(
  email: PlannedEmail,
  options: DrainOptions,
  holder: string,
): Promise<EmailAttempt> {
  const { db, logger, transport } = options;
  const claimMs = options.claimMs ?? DEFAULT_CLAIM_MS;
  const until = new Date(options.clock.now() + claimMs).toISOString();

  if (email.shape === "invalid") {
    if (!claimOutbox(db, email.row.id, isoNow(options.clock), until, holder)) {
      return { status: "skipped" };
    }
    markAllFailed(db, [email.row.id], { error: email.error, nextAttemptAt: until, dead: true });
    logger.error(
      { outboxId: email.row.id, kind: email.row.kind },
      "outbox row cannot be sent; marked dead",
    );
    return { status: "invalid", error: email.error };
  }

  const claimed = claim(email, options, until, holder);
  if (claimed === null) return { status: "skipped" };
  const ids = claimed.rows.map((r) => r.id);
  const logged = {
    outboxIds: ids,
    kind: email.shape === "single" ? email.entry.row.kind : email.shape,
  };
  try {
    const sent = await transport.send(claimed.message);
    // Nothing between the server's "250" and this mark: a crash in that gap is a resend.
    markAllSent(db, ids, {
      sentAt: isoNow(options.clock),
      smtpResponse: sent.response ?? sent.path ?? null,
    });
    logger.info(logged, "mail sent");
    return {
      status: "sent",
      messageId: claimed.message.messageId,
      response: sent.response,
      path: sent.path ?? null,
    };
  } catch (error) {
    const attempts = Math.max(...claimed.rows.map((r) => r.attempts)) + 1;
    // Someone is waiting for a test message now; one sent hours later would only confuse.
    const isTest = claimed.rows.every((r) => r.kind === "test");
    const dead = attempts >= options.maxAttempts || isTest;
    const failedAt = dateNow(options.clock);
    const backoff = options.backoffMs ?? defaultBackoffMs;
    const next = new Date(failedAt.getTime() + Math.max(0, backoff(attempts))).toISOString();
    const text = errorText(error);
    markAllFailed(db, ids, { error: text, nextAttemptAt: next, dead });
    const code = error instanceof MailError ? error.kind : "unknown";
    logger.warn(
      { ...logged, attempts, dead, code, transport: transport.describe(), error: text },
      "mail delivery failed",
    );
    return {
      status: "failed",
      dead,
      error: text,
      code,
      transportDown: error instanceof MailError && error.transportDown,
    };
  }
}

function allDue(db: Db, nowIso: string): OutboxRow[] {
  const rows: OutboxRow[] = [];
  for (;;) {
    const page = dueOutbox(db, CHANNEL, nowIso, BATCH, rows.at(-1)?.id ?? 0);
    rows.push(...page);
    if (page.length < BATCH) return rows;
  }
}

/**
 * Sends every due outbox row once. Rows are claimed before their send and marked right after, so
 * a crash in between resends at most once, with the same Message-ID. When the transport itself is
 * down the drain stops: the other rows stay due rather than each paying a failed attempt.
 */
export async function drainOutbox(options: DrainOptions): Promise<DrainResult> {
  validateOptions(options);
  const result: DrainResult = { sent: 0, failed: 0, dead: 0, deferred: 0, lastError: null };
  const claimant = options.claimant;
  const nowIso = isoNow(options.clock);
  const released = releaseAbandonedClaims(options.db, nowIso, claimant.holderIsDead);
  if (released > 0) {
    options.logger.warn({ released }, "outbox rows claimed by a dead process taken over");
  }
  const emails = planEmails(allDue(options.db, nowIso));
  let stopped = false;
  for (const email of emails) {
    if (options.signal?.aborted) {
      stopped = true;
      break;
    }
    const sent = await sendEmail(email, options, claimant.holder);
    if (sent.status === "sent") result.sent++;
    else if (sent.status === "invalid") {
      result.dead++;
      result.lastError = sent.error;
    } else if (sent.status === "failed") {
      result.lastError = sent.error;
      if (sent.dead) result.dead++;
      else result.failed++;
      if (sent.transportDown) {
        stopped = true;
        break;
      }
    }
  }
  if (stopped) result.deferred = countDueOutbox(options.db, CHANNEL, isoNow(options.clock));
  return result;
}

export type RowSendResult =
  | { ok: true; messageId: string; response: string | null; path: string | null }
  | { ok: false; error: string; code: MailErrorCode | "unknown" | "invalid" | "busy" };

/** Sends one row now, whatever else is due (`monitor test-email`); a row not due is "busy". */
export async function deliverOutboxRow(options: DrainOptions, id: number): Promise<RowSendResult> {
  validateOptions(options);
  const row = getOutboxRow(options.db, id);
  const nowIso = isoNow(options.clock);
  const due =
    row !== undefined &&
    row.channel === CHANNEL &&
    row.status === "pending" &&
    (row.nextAttemptAt === null || row.nextAttemptAt <= nowIso);
  if (!due) return { ok: false, error: "the message is not waiting to be sent", code: "busy" };
  const [email] = planEmails([row]);
  if (email === undefined) return { ok: false, error: "nothing to send", code: "busy" };
  const sent = await sendEmail(email, options, options.claimant.holder);
  switch (sent.status) {
    case "sent":
      return {
        ok: true,
        messageId: sent.messageId,
        response: sent.response,
        path: sent.path,
      };
    case "failed":
      return { ok: false, error: sent.error, code: sent.code };
    case "invalid":
      return { ok: false, error: sent.error, code: "invalid" };
    default:
      return { ok: false, error: "another process is sending this message", code: "busy" };
  }
}
