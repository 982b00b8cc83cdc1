import type { IncomingMessage, ServerResponse } from "node:http";
import type { CalendarFor } from "../deadlines/publication-estimate.js";
import { FailureLimiter } from "../http/failure-limiter.js";
import type { Route } from "../http/server.js";
import type { Logger } from "../log.js";
import { calendarTokenRecipient } from "../store/calendar-tokens.js";
import type { Db } from "../store/database.js";
import { type Clock, dateNow } from "../time/clock.js";
import { type FeedSettings, feedContent, feedDocument, feedFingerprint } from "./feed.js";
import { hashFeedToken, isFeedToken } from "./feed-token.js";

/*
 * GET /calendar/<token>.ics: a watcher's feed, for calendar clients that subscribe to a URL and
 * cannot send a header. The token in the path is the key (no bearer token is asked), so it is
 * never logged (the server logs "/calendar/…") and an unknown, malformed or revoked one gets the
 * same 404 as a path that was never there.
 *
 * Clients poll (Outlook hourly, Google on its own schedule), so the feed carries a validator:
 * each watcher's document is stamped (Last-Modified, and DTSTAMP inside, RFC 5545 3.8.7.2: when
 * the information was last revised) with the moment this process first served what it now says,
 * and its ETag names that content and moment; a client that sends either back for an unchanged
 * feed gets 304 and no body (RFC 9110 13.1.1-2: If-None-Match first, If-Modified-Since only
 * without it). A restart forgets the moments: each client then reads its feed once more.
 *
 * Wrong tokens are counted per client address (`FailureLimiter`): past WRONG_BURST in a row,
 * a wrong one gets 429 with Retry-After instead of 404, and the first of each run is logged
 * (the address, never the token). A right token is served whatever the address did.
 */

export const CALENDAR_PATH = "/calendar/";

/** Wrong addresses a client may ask in a row: a person retyping one, a device with a revoked one. */
const WRONG_BURST = 10;
/** Then one more every 10 s: a revoked address polled hourly never gets near it. */
const WRONG_PER_MINUTE = 6;
/** Client addresses and watchers remembered at most (the LRU beyond that is forgotten). */
const REMEMBERED = 10_000;

export interface CalendarRouteOptions {
  db: Db;
  settings: FeedSettings;
  calendars: CalendarFor;
  clock: Clock;
  logger: Logger;
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify({ error: "no calendar at this address (it may have been revoked)" }));
}

function tooMany(res: ServerResponse, retryAfterSeconds: number): void {
  res.writeHead(429, {
    "content-type": "application/json",
    "cache-control": "no-store",
    "retry-after": String(retryAfterSeconds),
  });
  res.end(
    JSON.stringify({
      error: `too many wrong calendar addresses from this client; try again in ${retryAfterSeconds} s`,
    }),
  );
}

/** The token of `/calendar/<token>.ics` (or without `.ics`), or null. */
export function tokenOfPath(path: string): string | null {
  if (!path.startsWith(CALENDAR_PATH)) return null;
  const token = path.slice(CALENDAR_PATH.length).replace(/\.ics$/u, "");
  return isFeedToken(token) ? token : null;
}

/** When each watcher's feed last changed, as far as this process has seen: bounded, LRU. */
class FeedVersions {
  readonly #seen = new Map<string, { fingerprint: string; since: number }>();

  /** The moment (whole seconds, as HTTP dates have them) the feed took this content. */
  since(watcher: string, fingerprint: string, now: number): number {
    const known = this.#seen.get(watcher);
    const since =
      known !== undefined && known.fingerprint === fingerprint
        ? known.since
        : Math.floor(now / 1000) * 1000;
    this.#seen.delete(watcher);
    this.#seen.set(watcher, { fingerprint, since });
    while (this.#seen.size > REMEMBERED) {
      const oldest = this.#seen.keys().next();
      if (oldest.done === true) break;
      this.#seen.delete(oldest.value);
    }
    return since;
  }
}

/** Whether the client already holds this version (RFC 9110 13.1.2, 13.1.3; weak comparison). */
export function notModified(
  headers: IncomingMessage["headers"],
  etag: string,
  lastModified: number,
): boolean {
  const match = headers["if-none-match"];
  if (match !== undefined) {
    const wanted = match.split(",").map((t) => t.trim().replace(/^W\//u, ""));
    return wanted.includes("*") || wanted.includes(etag);
  }
  const since = headers["if-modified-since"];
  if (since === undefined) return false;
  const at = Date.parse(since);
  return Number.isFinite(at) && lastModified <= at;
}

/** The client a failure is counted against: the peer's address (a proxy's, behind one). */
function clientOf(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? "unknown";
}

export function calendarHttpRoute(options: CalendarRouteOptions): Route {
  const clock = options.clock;
  const wrong = new FailureLimiter({
    burst: WRONG_BURST,
    perMinute: WRONG_PER_MINUTE,
    maxClients: REMEMBERED,
    now: () => clock.now(),
  });
  const versions = new FeedVersions();
  return {
    path: CALENDAR_PATH,
    prefix: true,
    auth: "public",
    handle(req, res) {
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { allow: "GET, HEAD", "content-type": "application/json" });
        res.end(JSON.stringify({ error: "a calendar feed is read with GET" }));
        return;
      }
      const token = tokenOfPath(new URL(req.url ?? "/", "http://localhost").pathname);
      const watcher =
        token === null ? null : calendarTokenRecipient(options.db, hashFeedToken(token));
      if (watcher === null) {
        const verdict = wrong.fail(clientOf(req));
        if (!verdict.refused) {
          notFound(res);
          return;
        }
        if (verdict.firstRefusal) {
          options.logger.warn(
            { client: clientOf(req), retryAfterSeconds: verdict.retryAfterSeconds },
            `calendar: more than ${WRONG_BURST} wrong feed addresses from one client; answering 429 until it slows down`,
          );
        }
        tooMany(res, verdict.retryAfterSeconds);
        return;
      }
      const now = clock.now();
      const content = feedContent(
        options.db,
        { watcher, since: null, until: null },
        options.settings,
        { now: dateNow(clock), calendars: options.calendars },
      );
      const fingerprint = feedFingerprint(content);
      const since = versions.since(watcher, fingerprint, now);
      const etag = `"${fingerprint.slice(0, 27)}.${(since / 1000).toString(36)}"`;
      const validators = {
        etag,
        "last-modified": new Date(since).toUTCString(),
        // A private answer: no shared cache keeps it; clients revalidate every time.
        "cache-control": "private, no-cache",
      };
      if (notModified(req.headers, etag, since)) {
        res.writeHead(304, validators);
        res.end();
        return;
      }
      options.logger.debug({ events: content.events.length }, "calendar feed served");
      const body = Buffer.from(feedDocument(content, new Date(since)), "utf8");
      res.writeHead(200, {
        ...validators,
        "content-type": "text/calendar; charset=utf-8",
        "content-length": String(body.length),
        "content-disposition": 'inline; filename="prazos.ics"',
        "referrer-policy": "no-referrer",
        "x-content-type-options": "nosniff",
      });
      res.end(req.method === "HEAD" ? undefined : body);
    },
  };
}
