import { TZDate } from "@date-fns/tz";
import ical, {
  ICalAlarmRelatesTo,
  ICalAlarmType,
  ICalEventStatus,
  ICalEventTransparency,
} from "ical-generator";
import { tzlib_get_ical_block } from "timezones-ical-library";
import { addDays, type IsoDate } from "../time/calendar-date.js";
import type { FeedEvent, FeedEventTimed } from "./feed-events.js";

/*
 * The feed as an iCalendar document (RFC 5545), written by ical-generator: content lines folded
 * at 75 octets, CRLF, TEXT escaped (\ ; , and line breaks), so a court's words stay a value.
 *
 * Two traps of ical-generator 10 with a time zone, avoided here: a native Date is formatted with
 * the process's own zone (so timed events get TZDate, which answers in the court's zone), and an
 * absolute alarm time is written as local time without TZID (so reminders are relative to the
 * event). All-day dates are written from their UTC fields, with no zone at all.
 */

export interface IcsOptions {
  /** The calendar's name as clients show it ("Prazos e sessões: ana@example.com"). */
  name: string;
  /** DTSTAMP of every event: when this document was written. */
  now: Date;
  /** How often clients that honour it should fetch again, in seconds. */
  refreshSeconds: number;
}

function utcMidnight(date: IsoDate): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

function wallClock(date: IsoDate, time: string, zone: string): TZDate {
  const [year, month, day] = date.split("-").map(Number);
  const [hour, minute] = time.split(":").map(Number);
  return new TZDate(year ?? 0, (month ?? 1) - 1, day ?? 1, hour ?? 0, minute ?? 0, 0, zone);
}

/** The VTIMEZONE of an IANA zone from timezones-ical-library (current IANA data), or null. */
function vtimezone(zone: string): string | null {
  const block = tzlib_get_ical_block(zone);
  const text = Array.isArray(block) ? block[0] : null;
  return typeof text === "string" && text.startsWith("BEGIN:VTIMEZONE") ? text : null;
}

function secondsOf(time: string): number {
  const [hour, minute] = time.split(":").map(Number);
  return (hour ?? 0) * 3600 + (minute ?? 0) * 60;
}

/**
 * A timed event's start and end on the court's clock. The end is a length we chose (RFC 5545
 * 3.6.1: with neither DTEND nor DURATION a timed event ends where it starts, and Outlook and
 * Google show it so), not one the court gave.
 */
function timedSpan(when: FeedEventTimed): { start: TZDate; end: TZDate; timezone: string } {
  const start = wallClock(when.date, when.time, when.zone);
  const end = new TZDate(start.getTime() + when.minutes * 60_000, when.zone);
  return { start, end, timezone: when.zone };
}

/** The document, ending in CRLF like every content line. */
export function icsDocument(events: readonly FeedEvent[], options: IcsOptions): string {
  const calendar = ical({
    name: options.name,
    prodId: { company: "datajud-monitor", product: "prazos", language: "PT" },
    ttl: options.refreshSeconds,
  });
  // Only named zones of timed events are written, each once.
  calendar.timezone({ name: null, generator: vtimezone });
  for (const e of events) {
    const event = calendar.createEvent({
      id: e.uid,
      sequence: e.sequence,
      stamp: options.now,
      summary: e.summary,
      description: e.description,
      location: e.location,
      url: e.url,
      status: e.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      transparency: e.busy ? ICalEventTransparency.OPAQUE : ICalEventTransparency.TRANSPARENT,
      ...(e.when.kind === "timed"
        ? timedSpan(e.when)
        : {
            start: utcMidnight(e.when.date),
            allDay: true,
            ...(e.when.lastDate === null ? {} : { end: utcMidnight(addDays(e.when.lastDate, 1)) }),
          }),
    });
    for (const reminder of e.reminders) {
      // Relative to the start of an all-day event: that day's 00:00 on the calendar's clock.
      // RELATED=START said outright: ical-generator relates a trigger after the start to the
      // END otherwise, and it takes relatesTo only once the trigger is set.
      event
        .createAlarm({
          type: ICalAlarmType.display,
          trigger: reminder.daysBefore * 86_400 - secondsOf(reminder.at),
          description: reminder.description,
        })
        .relatesTo(ICalAlarmRelatesTo.start);
    }
  }
  return `${calendar.toString()}\r\n`;
}
