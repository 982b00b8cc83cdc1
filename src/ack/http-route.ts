import type { IncomingMessage, ServerResponse } from "node:http";
import { FailureLimiter } from "../http/failure-limiter.js";
import type { Route } from "../http/server.js";
import type { Logger } from "../log.js";
import { type AckPageState, ackPage, unknownAckPage } from "../notify/render/acknowledgement.js";
import type { MailPolicy } from "../policy/mail-policy.js";
import { type AcknowledgementRow, acknowledgementById } from "../store/acknowledgements.js";
import type { Db } from "../store/database.js";
import { type OutboxRow, outboxRowById } from "../store/outbox.js";
import { type Clock, isoNow } from "../time/clock.js";
import { ackTokenMatches, ackTokenRow } from "./ack-token.js";
import { acknowledge, whoOfRow } from "./record.js";

/*
 * /ack/<token>: the page an urgent alert's link opens (issue 40). GET (and HEAD) only shows the
 * alert and a button: mail gateways and chat previews open links to scan them, so opening the
 * page never acknowledges anything. The button POSTs to the same address; that POST records who
 * (the row's watcher or endpoint) and when, once per alert (the first wins), and queues the
 * alert.acknowledged event in the same transaction. The token is a path secret: never logged
 * (the server logs "/ack/…"). A wrong one gets the same 404 page whatever was wrong with it,
 * counted per client as the calendar's are (429 past a burst). Host and Origin are the server's
 * rules: the composition root allows the public base URL's host and origin, nothing else.
 */

export const ACK_PATH = "/ack/";

const WRONG_BURST = 10;
const WRONG_PER_MINUTE = 6;
const REMEMBERED = 10_000;

export interface AckRouteOptions {
  db: Db;
  /** ACK_SECRET: what the links' tokens are signed with. */
  secret: string;
  clock: Clock;
  logger: Logger;
  /** The schedule's time zone: the page's instants. */
  timeZone: string;
  /** For the alert.acknowledged event: our Message-ID domain and the policy in force. */
  domain: string;
  policy: () => MailPolicy | undefined;
}

const HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

function send(res: ServerResponse, status: number, html: string, head: boolean): void {
  const body = Buffer.from(html, "utf8");
  res.writeHead(status, { ...HEADERS, "content-length": String(body.length) });
  res.end(head ? undefined : body);
}

function clientOf(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? "unknown";
}

interface Found {
  row: OutboxRow;
  ack: AcknowledgementRow;
}

/** The row and acknowledgement a token opens; null for any token we did not make. */
function open(db: Db, secret: string, token: string): Found | null {
  const rowId = ackTokenRow(token);
  if (rowId === null) return null;
  const row = outboxRowById(db, rowId);
  if (row === undefined || row.ackId === null) return null;
  const ack = acknowledgementById(db, row.ackId);
  if (ack === null) return null;
  const binding = { rowId: row.id, ackId: ack.id, dedupeKey: row.dedupeKey };
  return ackTokenMatches(secret, token, binding) ? { row, ack } : null;
}

function acknowledgedOf(ack: AcknowledgementRow | null): AckPageState["acknowledged"] {
  return ack?.acknowledgedAt == null
    ? null
    : { at: ack.acknowledgedAt, by: ack.acknowledgedBy ?? "" };
}

function pageState(ack: AcknowledgementRow, now: string): AckPageState {
  return {
    subject: ack.subject,
    expiresAt: ack.expiresAt,
    expired: ack.expiresAt <= now,
    justRecorded: false,
    acknowledged: acknowledgedOf(ack),
  };
}

function refuseMethod(res: ServerResponse): void {
  res.writeHead(405, { allow: "GET, HEAD, POST", "content-type": "text/plain" });
  res.end("GET shows the alert; its button POSTs the acknowledgement\n");
}

/** A token we did not make: the same 404 page, or 429 once a client sends too many. */
function refuseWrong(
  options: AckRouteOptions,
  wrong: FailureLimiter,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const verdict = wrong.fail(clientOf(req));
  if (!verdict.refused) {
    send(res, 404, unknownAckPage(), req.method === "HEAD");
    return;
  }
  if (verdict.firstRefusal) {
    options.logger.warn(
      { client: clientOf(req), retryAfterSeconds: verdict.retryAfterSeconds },
      `acknowledgement: more than ${WRONG_BURST} wrong links from one client; answering 429 until it slows down`,
    );
  }
  res.writeHead(429, {
    ...HEADERS,
    "content-type": "text/plain",
    "retry-after": String(verdict.retryAfterSeconds),
  });
  res.end("too many wrong links\n");
}

/** The button's POST: records who and when unless someone did first or the link expired. */
function post(options: AckRouteOptions, found: Found, now: string, res: ServerResponse): void {
  const state = pageState(found.ack, now);
  const page = (s: AckPageState): string => ackPage(s, options.timeZone);
  if (state.acknowledged !== null || state.expired) {
    send(res, state.acknowledged !== null ? 409 : 410, page(state), false);
    return;
  }
  const recorded = acknowledge(options, found.ack, {
    who: whoOfRow(found.row),
    at: now,
    via: "link",
  });
  const after = acknowledgedOf(acknowledgementById(options.db, found.ack.id));
  options.logger.info({ acknowledgement: found.ack.id, recorded }, "alert acknowledged by link");
  send(
    res,
    recorded ? 200 : 409,
    page({ ...state, justRecorded: recorded, acknowledged: after }),
    false,
  );
}

function handle(
  options: AckRouteOptions,
  wrong: FailureLimiter,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const method = req.method ?? "GET";
  if (method !== "GET" && method !== "HEAD" && method !== "POST") {
    refuseMethod(res);
    return;
  }
  // The form sends no fields we read.
  req.resume();
  const token = new URL(req.url ?? "/", "http://localhost").pathname.slice(ACK_PATH.length);
  const found = open(options.db, options.secret, token);
  const now = isoNow(options.clock);
  if (found === null) refuseWrong(options, wrong, req, res);
  else if (method === "POST") post(options, found, now, res);
  else show(options, found, now, res, method === "HEAD");
}

/** GET and HEAD: the page and its button; opening it records nothing (scanners prefetch). */
function show(
  options: AckRouteOptions,
  found: Found,
  now: string,
  res: ServerResponse,
  head: boolean,
): void {
  const state = pageState(found.ack, now);
  const status = state.expired && state.acknowledged === null ? 410 : 200;
  send(res, status, ackPage(state, options.timeZone), head);
}

export function ackHttpRoute(options: AckRouteOptions): Route {
  const wrong = new FailureLimiter({
    burst: WRONG_BURST,
    perMinute: WRONG_PER_MINUTE,
    maxClients: REMEMBERED,
    now: () => options.clock.now(),
  });
  return {
    path: ACK_PATH,
    prefix: true,
    auth: "public",
    handle: (req, res) => handle(options, wrong, req, res),
  };
}
