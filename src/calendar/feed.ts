import { createHash } from "node:crypto";
import type { CalendarFor } from "../deadlines/publication-estimate.js";
import { calendarActDeadlines } from "../store/act-deadlines.js";
import type { Db } from "../store/database.js";
import { calendarHearings } from "../store/datajud-hearings.js";
import { calendarEstimates } from "../store/deadline-estimates.js";
import { addDays, type IsoDate } from "../time/calendar-date.js";
import { dateInZone } from "../time/zoned-time.js";
import { actEvents } from "./act-events.js";
import { type FeedEvent, feedEvents } from "./feed-events.js";
import { hearingEvents } from "./hearing-events.js";
import { icsDocument } from "./ics.js";

/*
 * One watcher's feed (or the firm's, every estimate someone follows), from what the sweeps
 * stored: `datajud-monitor calendar` prints it, the daemon's /calendar/<token>.ics serves it.
 * Its content (the events and the calendar's name) is read apart from its writing, so the
 * server can tell a client that already has it so (304) without writing it again.
 */

export interface FeedSettings {
  reminderBusinessDays: readonly number[];
  reminderTime: string;
  pastDays: number;
  maxEvents: number;
  refreshMinutes: number;
  sessionMinutes: number;
}

export interface FeedRequest {
  /** Lower-case address; null: every estimate someone follows. */
  watcher: string | null;
  /** YYYY-MM-DD; null: `pastDays` before today (São Paulo). */
  since: IsoDate | null;
  until: IsoDate | null;
}

export interface FeedResult {
  ics: string;
  events: number;
}

/** What a feed says, before it is written: its name, its events and the refresh hint. */
export interface FeedContent {
  name: string;
  events: FeedEvent[];
  refreshSeconds: number;
}

export function feedContent(
  db: Db,
  request: FeedRequest,
  settings: FeedSettings,
  deps: { now: Date; calendars: CalendarFor },
): FeedContent {
  const since = request.since ?? addDays(dateInZone(deps.now.getTime()), -settings.pastDays);
  const rows = calendarEstimates(db, {
    recipient: request.watcher,
    since,
    until: request.until,
    limit: settings.maxEvents,
  });
  const options = {
    since,
    until: request.until,
    reminderBusinessDays: settings.reminderBusinessDays,
    reminderTime: settings.reminderTime,
    calendars: deps.calendars,
    sessionMinutes: settings.sessionMinutes,
  };
  // The last days of DataJud acts' periods; a DJEN item's period that is one of them is not shown twice.
  const acts = actEvents(
    calendarActDeadlines(db, {
      recipient: request.watcher,
      since,
      until: request.until,
      limit: settings.maxEvents,
    }),
    rows,
    options,
  );
  const estimates = feedEvents(rows, { ...options, covered: acts.covered });
  // Hearings whose date DataJud states, beside DJEN's sessions (issue 34).
  const hearings = hearingEvents(
    calendarHearings(db, {
      recipient: request.watcher,
      since,
      until: request.until,
      limit: settings.maxEvents,
    }),
    { since, until: request.until, sessionMinutes: settings.sessionMinutes },
  );
  const events = [...estimates, ...acts.events, ...hearings]
    .sort((a, b) =>
      a.when.date === b.when.date ? a.uid.localeCompare(b.uid) : a.when.date < b.when.date ? -1 : 1,
    )
    .slice(-settings.maxEvents);
  const name =
    request.watcher === null
      ? "Prazos e sessões (DataJud Monitor)"
      : `Prazos e sessões: ${request.watcher}`;
  return { name, events, refreshSeconds: settings.refreshMinutes * 60 };
}

/**
 * A digest of everything the document says but its DTSTAMP: equal digests, equal documents
 * once stamped alike. Events are plain data (strings, numbers, booleans, arrays), so their JSON
 * is a faithful key.
 */
export function feedFingerprint(content: FeedContent): string {
  return createHash("sha256").update(JSON.stringify(content), "utf8").digest("base64url");
}

/** The document, every event stamped (DTSTAMP) with `stamp`. */
export function feedDocument(content: FeedContent, stamp: Date): string {
  return icsDocument(content.events, {
    name: content.name,
    now: stamp,
    refreshSeconds: content.refreshSeconds,
  });
}

export function calendarFeed(
  db: Db,
  request: FeedRequest,
  settings: FeedSettings,
  deps: { now: Date; calendars: CalendarFor },
): FeedResult {
  const content = feedContent(db, request, settings, deps);
  return { ics: feedDocument(content, deps.now), events: content.events.length };
}
