import type { ServerResponse } from "node:http";
import type { CalendarFor } from "../deadlines/publication-estimate.js";
import type { Route } from "../http/server.js";
import type { Logger } from "../log.js";
import { calendarTokenRecipient } from "../store/calendar-tokens.js";
import type { Db } from "../store/database.js";
import { type Clock, dateNow } from "../time/clock.js";
import { calendarFeed, type FeedSettings } from "./feed.js";
import { hashFeedToken, isFeedToken } from "./feed-token.js";

/*
 * GET /calendar/<token>.ics: a watcher's feed, for calendar clients that subscribe to a URL and
 * cannot send a header. The token in the path is the key (no bearer token is asked), so it is
 * never logged (the server logs "/calendar/…") and an unknown, malformed or revoked one gets the
 * same 404 as a path that was never there.
 */

export const CALENDAR_PATH = "/calendar/";

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

/** The token of `/calendar/<token>.ics` (or without `.ics`), or null. */
export function tokenOfPath(path: string): string | null {
  if (!path.startsWith(CALENDAR_PATH)) return null;
  const token = path.slice(CALENDAR_PATH.length).replace(/\.ics$/u, "");
  return isFeedToken(token) ? token : null;
}

export function calendarHttpRoute(options: CalendarRouteOptions): Route {
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
        notFound(res);
        return;
      }
      const feed = calendarFeed(
        options.db,
        { watcher, since: null, until: null },
        options.settings,
        { now: dateNow(options.clock), calendars: options.calendars },
      );
      options.logger.debug({ events: feed.events }, "calendar feed served");
      const body = Buffer.from(feed.ics, "utf8");
      res.writeHead(200, {
        "content-type": "text/calendar; charset=utf-8",
        "content-length": String(body.length),
        "content-disposition": 'inline; filename="prazos.ics"',
        // A private answer: no shared cache keeps it, and the page links nowhere with its URL.
        "cache-control": "private, no-cache",
        "referrer-policy": "no-referrer",
        "x-content-type-options": "nosniff",
      });
      res.end(req.method === "HEAD" ? undefined : body);
    },
  };
}
