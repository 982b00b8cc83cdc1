import type { CalendarFor } from "../deadlines/publication-estimate.js";
import type { Db } from "../store/database.js";
import { calendarEstimates } from "../store/deadline-estimates.js";
import { addDays, dateInZone, type IsoDate } from "../time/calendar-date.js";
import { feedEvents } from "./feed-events.js";
import { icsDocument } from "./ics.js";

/*
 * One watcher's feed (or the firm's, every estimate someone follows), from what the sweeps
 * stored: `datajud-monitor calendar` prints it, the daemon's /calendar/<token>.ics serves it.
 */

export interface FeedSettings {
  reminderBusinessDays: readonly number[];
  reminderTime: string;
  pastDays: number;
  maxEvents: number;
  refreshMinutes: number;
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

export function calendarFeed(
  db: Db,
  request: FeedRequest,
  settings: FeedSettings,
  deps: { now: Date; calendars: CalendarFor },
): FeedResult {
  const since = request.since ?? addDays(dateInZone(deps.now.getTime()), -settings.pastDays);
  const rows = calendarEstimates(db, {
    recipient: request.watcher,
    since,
    until: request.until,
    limit: settings.maxEvents,
  });
  const events = feedEvents(rows, {
    since,
    until: request.until,
    reminderBusinessDays: settings.reminderBusinessDays,
    reminderTime: settings.reminderTime,
    calendars: deps.calendars,
  }).slice(-settings.maxEvents);
  const name =
    request.watcher === null
      ? "Prazos e sessões (DataJud Monitor)"
      : `Prazos e sessões: ${request.watcher}`;
  return {
    ics: icsDocument(events, {
      name,
      now: deps.now,
      refreshSeconds: settings.refreshMinutes * 60,
    }),
    events: events.length,
  };
}
