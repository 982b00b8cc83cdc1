import ICAL from "ical.js";

/*
 * An iCalendar document read back by an independent parser (Mozilla's ical.js), as a calendar
 * client would: its VTIMEZONEs registered, each event's start as a date (all day) or as a real
 * instant (UTC ISO string) computed from its TZID.
 */

export interface ReadEvent {
  uid: string;
  sequence: number;
  status: string | null;
  summary: string;
  description: string;
  location: string | null;
  url: string | null;
  transparency: string | null;
  /** All day: "2025-10-27"; timed: the instant, "2025-10-15T17:30:00.000Z". */
  start: string;
  allDay: boolean;
  /** The TZID of a timed start; null for all day or UTC. */
  tzid: string | null;
  /** The exclusive end of an all-day span ("2025-10-11"), the instant a timed event ends, or null. */
  end: string | null;
  /** DTEND's TZID; null for all day or none. */
  endTzid: string | null;
  /** DURATION as written, or null. */
  duration: string | null;
  /** Each VALARM's TRIGGER as written ("-P2DT15H") and what it relates to. */
  alarms: Array<{ trigger: string; related: string | null; description: string | null }>;
}

function dateText(time: ICAL.Time): string {
  return `${String(time.year).padStart(4, "0")}-${String(time.month).padStart(2, "0")}-${String(time.day).padStart(2, "0")}`;
}

export function readIcs(text: string): { calendar: ICAL.Component; events: ReadEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const vtimezone of calendar.getAllSubcomponents("vtimezone")) {
    ICAL.TimezoneService.register(new ICAL.Timezone(vtimezone));
  }
  const events = calendar.getAllSubcomponents("vevent").map((component): ReadEvent => {
    const event = new ICAL.Event(component);
    const start = event.startDate;
    const allDay = start.isDate;
    const tzid = component.getFirstProperty("dtstart")?.getParameter("tzid");
    const endProperty = component.getFirstPropertyValue("dtend");
    const endTzid = component.getFirstProperty("dtend")?.getParameter("tzid");
    const duration = component.getFirstPropertyValue("duration");
    return {
      uid: event.uid,
      sequence: event.sequence,
      status: (component.getFirstPropertyValue("status") as string | null) ?? null,
      summary: event.summary,
      description: event.description,
      location: event.location || null,
      url: (component.getFirstPropertyValue("url") as string | null) ?? null,
      transparency: (component.getFirstPropertyValue("transp") as string | null) ?? null,
      start: allDay ? dateText(start) : start.toJSDate().toISOString(),
      allDay,
      tzid: typeof tzid === "string" ? tzid : null,
      end:
        endProperty instanceof ICAL.Time
          ? endProperty.isDate
            ? dateText(endProperty)
            : endProperty.toJSDate().toISOString()
          : null,
      endTzid: typeof endTzid === "string" ? endTzid : null,
      duration: duration === null ? null : String(duration),
      alarms: component.getAllSubcomponents("valarm").map((alarm) => {
        const trigger = alarm.getFirstProperty("trigger");
        const related = trigger?.getParameter("related");
        return {
          trigger: String(trigger?.getFirstValue() ?? ""),
          related: typeof related === "string" ? related : null,
          description: (alarm.getFirstPropertyValue("description") as string | null) ?? null,
        };
      }),
    };
  });
  return { calendar, events };
}
