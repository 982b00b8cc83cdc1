import type { IncomingMessage, ServerResponse } from "node:http";
import { FailureLimiter } from "../http/failure-limiter.js";
import type { Route } from "../http/server.js";
import type { Logger } from "../log.js";
import { acknowledgedMessage } from "../notify/outbox/messages.js";
import { queueMessage } from "../notify/outbox/queue.js";
import { ackPage, unknownAckPage } from "../notify/render/acknowledgement.js";
import type { MailPolicy } from "../policy/mail-policy.js";
import {
  type AcknowledgementRow,
  acknowledgementById,
  recordAcknowledgement,
} from "../store/acknowledgements.js";
import { getCaseById } from "../store/cases.js";
import { type Db, immediate } from "../store/database.js";
import { type OutboxRow, outboxRowById } from "../store/outbox.js";
import { type Clock, isoNow } from "../time/clock.js";
import { ackTokenMatches, ackTokenRow } from "./ack-token.js";

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

/** Who a row's link speaks for: its watcher's address, a watcher's number, or a chat endpoint. */
export function whoOfRow(row: Pick<OutboxRow, "channel" | "recipient" | "target">): string {
  if (row.channel === "email") return row.recipient;
  if (row.target !== null) return `${row.channel} ${row.target}`;
  return `${row.channel}:${row.recipient}`;
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

export function ackHttpRoute(options: AckRouteOptions): Route {
  const { db, clock, logger } = options;
  const wrong = new FailureLimiter({
    burst: WRONG_BURST,
    perMinute: WRONG_PER_MINUTE,
    maxClients: REMEMBERED,
    now: () => clock.now(),
  });
  return {
    path: ACK_PATH,
    prefix: true,
    auth: "public",
    handle(req, res) {
      const method = req.method ?? "GET";
      const head = method === "HEAD";
      if (method !== "GET" && method !== "HEAD" && method !== "POST") {
        res.writeHead(405, { allow: "GET, HEAD, POST", "content-type": "text/plain" });
        res.end("GET shows the alert; its button POSTs the acknowledgement\n");
        return;
      }
      // The form sends no fields we read.
      req.resume();
      const path = new URL(req.url ?? "/", "http://localhost").pathname;
      const token = path.slice(ACK_PATH.length);
      const found = open(db, options.secret, token);
      if (found === null) {
        const verdict = wrong.fail(clientOf(req));
        if (verdict.refused) {
          if (verdict.firstRefusal) {
            logger.warn(
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
          return;
        }
        send(res, 404, unknownAckPage(), head);
        return;
      }
      const now = isoNow(clock);
      const { row, ack } = found;
      const expired = ack.expiresAt <= now;
      const state = {
        subject: ack.subject,
        expiresAt: ack.expiresAt,
        expired,
        justRecorded: false,
        acknowledged:
          ack.acknowledgedAt === null
            ? null
            : { at: ack.acknowledgedAt, by: ack.acknowledgedBy ?? "" },
      };
      if (method !== "POST") {
        send(
          res,
          expired && state.acknowledged === null ? 410 : 200,
          ackPage(state, options.timeZone),
          head,
        );
        return;
      }
      if (state.acknowledged !== null) {
        send(res, 409, ackPage(state, options.timeZone), false);
        return;
      }
      if (expired) {
        send(res, 410, ackPage(state, options.timeZone), false);
        return;
      }
      const who = whoOfRow(row);
      const recorded = immediate(db, () => {
        if (!recordAcknowledgement(db, ack.id, { who, at: now })) return false;
        const kase = ack.caseId === null ? undefined : getCaseById(db, ack.caseId);
        queueMessage(
          { db, domain: options.domain, at: new Date(clock.now()), policy: options.policy() },
          acknowledgedMessage({
            ack,
            case:
              kase === undefined
                ? null
                : { number: kase.number, court: kase.court, label: kase.label },
            by: who,
            at: now,
          }),
          [],
        );
        return true;
      });
      const after = acknowledgementById(db, ack.id);
      logger.info({ acknowledgement: ack.id, recorded }, "alert acknowledged by link");
      send(
        res,
        recorded ? 200 : 409,
        ackPage(
          {
            ...state,
            justRecorded: recorded,
            acknowledged:
              after?.acknowledgedAt == null
                ? null
                : { at: after.acknowledgedAt, by: after.acknowledgedBy ?? "" },
          },
          options.timeZone,
        ),
        false,
      );
    },
  };
}
