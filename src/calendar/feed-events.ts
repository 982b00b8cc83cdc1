import { parseCnjNumber } from "../datajud/cnj-number.js";
import { courtCaseLink, courtDocumentLink } from "../datajud/court-links.js";
import type { DeadlineEstimate, PeriodEstimate } from "../deadlines/estimate-schema.js";
import {
  type CalendarFor,
  courtAlias,
  ESTIMATE_NOTE,
  storedEstimate,
} from "../deadlines/publication-estimate.js";
import { businessDaysBefore } from "../deadlines/reminder-day.js";
import { StoredPublication } from "../djen/publication.js";
import {
  calendarParagraph,
  capitalized,
  datesLine,
  dayText,
  estimateLines,
  periodText,
  sessionText,
} from "../notify/render/deadline-text.js";
import type { CalendarEstimateRow } from "../store/deadline-estimates.js";
import { oneLine, paragraph } from "../text.js";
import { formatBrazilian, type IsoDate, parseIsoDate } from "../time/calendar-date.js";
import { courtTimeZone } from "../time/court-zone.js";

/*
 * The events of a calendar feed, from the stored estimates (deadlines/ computed every date; here
 * they are only placed): the last day of each period the text states, all day, and the session a
 * pauta announces, at the court's wall clock. Each event's UID comes from the publication's stable
 * subject, so a client updates it in place; SEQUENCE follows the estimate's revision (a date that
 * moved) and a cancellation. Text from the court is data: cut, cleaned of control characters,
 * and escaped by the iCalendar writer. Pure.
 */

export interface FeedEventTime {
  kind: "all-day";
  /** The first day. */
  date: IsoDate;
  /** The last day, included (a virtual session over several days); null: one day. */
  lastDate: IsoDate | null;
}

export interface FeedEventTimed {
  kind: "timed";
  date: IsoDate;
  /** "14:00", the court's wall clock. */
  time: string;
  /** IANA zone of that wall clock. */
  zone: string;
  /** How long it is shown to last: the text gives a start only (`calendarFeed.sessionMinutes`). */
  minutes: number;
}

/** A reminder of an all-day event: `daysBefore` calendar days before it, at `at` local time. */
export interface FeedReminder {
  daysBefore: number;
  /** "09:00", the wall clock of the calendar that shows it. */
  at: string;
  description: string;
}

export interface FeedEvent {
  uid: string;
  sequence: number;
  cancelled: boolean;
  when: FeedEventTime | FeedEventTimed;
  summary: string;
  description: string;
  location: string | null;
  url: string | null;
  /** A last day marks a date, it does not take the lawyer's time. */
  busy: boolean;
  reminders: FeedReminder[];
}

export interface FeedOptions {
  /** Events on or after this day only; null: all. */
  since: IsoDate | null;
  /** Events on or before this day only; null: all. */
  until: IsoDate | null;
  /** Court business days before each last day to remind it (0: on the day); empty: none. */
  reminderBusinessDays: readonly number[];
  /** "09:00": when a reminder goes off, on the calendar's own clock. */
  reminderTime: string;
  /** The court calendars the estimates were made on (configured closures included). */
  calendars: CalendarFor;
  /** The length of a session or hearing with a start time (DJEN gives none of an end). */
  sessionMinutes: number;
  /**
   * Whether period `index` of an estimate (`periodsOf`) is a last day a DataJud act's event
   * already shows, no later (calendar/act-events.ts): then it is not an event of its own.
   */
  covered?: ((subject: string, index: number) => boolean) | undefined;
}

/** An estimate as the feed reads it (store/deadline-estimates.ts `calendarEstimates`). */
export type FeedEstimate = Pick<
  CalendarEstimateRow,
  | "subject"
  | "revision"
  | "rule"
  | "publishedOn"
  | "countingStartsOn"
  | "lastDay"
  | "sessionDate"
  | "sessionTime"
  | "sessionEndDate"
  | "estimate"
  | "seat"
  | "djenId"
  | "publication"
  | "cancelled"
  | "caseLabel"
>;

/** UIDs are ours (digits of DJEN's id): nothing from a court's text reaches them. */
const UID_DOMAIN = "datajud-monitor";
const DESCRIPTION_MAX = 4000;

export function uidOf(subject: string, part: string): string {
  return `${subject.replace(/[^A-Za-z0-9-]/gu, "-")}-${part}@${UID_DOMAIN}`;
}

interface Facts {
  publication: StoredPublication | null;
  estimate: DeadlineEstimate | null;
  /** "Despejo · 0713383-43.2025.8.07.0006", or the DJEN id when no case is known. */
  who: string;
  court: string;
  zone: string;
  calendar: ReturnType<CalendarFor> | null;
}

function factsOf(row: FeedEstimate, calendars: CalendarFor): Facts {
  const parsed = StoredPublication.safeParse(row.publication);
  const publication = parsed.success ? parsed.data : null;
  const digits = publication?.caseNumber ?? null;
  const number = digits === null ? null : parseCnjNumber(digits);
  const label = row.caseLabel === null ? null : oneLine(row.caseLabel, 80);
  const caseText = number?.ok === true ? number.value.formatted : null;
  const who =
    [label, caseText].filter((t): t is string => t !== null && t !== "").join(" · ") ||
    `publicação ${row.djenId} do DJEN`;
  const court = publication === null ? null : courtAlias(publication.court);
  const seat = row.seat ?? undefined;
  return {
    publication,
    estimate: storedEstimate(row.estimate),
    who,
    court: court ?? "",
    zone: courtTimeZone(court ?? "", seat),
    calendar: court === null ? null : calendars({ court, municipality: seat }),
  };
}

function linksOf(publication: StoredPublication | null): string[] {
  if (publication === null) return [];
  const lines: string[] = [];
  if (publication.certificateUrl !== null) {
    lines.push(`Certidão de publicação (DJEN): ${publication.certificateUrl}`);
  }
  const document = courtDocumentLink(publication.link);
  if (document !== null) lines.push(`Documento no tribunal: ${document}`);
  const number = publication.caseNumber === null ? null : parseCnjNumber(publication.caseNumber);
  const link =
    number?.ok === true ? courtCaseLink(number.value, courtAlias(publication.court)) : null;
  if (link !== null) lines.push(`Processo no tribunal (${link.system}): ${link.url}`);
  return lines;
}

/** What every event of a publication says: what it is, its dates and rule, its links. */
function descriptionOf(row: FeedEstimate, facts: Facts, first: string): string {
  const p = facts.publication;
  const lines = [first, `Processo: ${facts.who}`];
  if (p !== null) {
    const unit = p.courtUnit === null ? "" : ` · ${oneLine(p.courtUnit, 160)}`;
    lines.push(`Tribunal: ${oneLine(p.court, 20)}${unit}`);
    const what = [p.kind, p.documentType]
      .filter((t): t is string => t !== null && t.trim() !== "")
      .map((t) => oneLine(t, 80));
    lines.push(`Publicação: ${what.join(" · ") || "comunicação"} (DJEN ${row.djenId})`);
  }
  if (row.cancelled) {
    lines.push("CANCELADA: o tribunal cancelou esta publicação no DJEN; a data não vale mais.");
  }
  const estimate = facts.estimate;
  if (estimate !== null) {
    lines.push(
      datesLine({
        availableOn: estimate.availableOn,
        publishedOn: estimate.publishedOn,
        countingStartsOn: estimate.countingStartsOn,
        lastDay: estimate.lastDay,
        session: estimate.session,
        deadline: estimate,
      }),
    );
  } else {
    const starts =
      row.countingStartsOn === null
        ? ""
        : `; prazo a partir de ${formatBrazilian(row.countingStartsOn)}`;
    lines.push(`Publicada em ${formatBrazilian(row.publishedOn)}${starts} (estimativas)`);
  }
  lines.push(...linksOf(p));
  if (estimate !== null) {
    // The calendar once per event, short: the days that moved a date and what it does not know.
    lines.push(...estimateLines(estimate, { calendar: false }));
    const calendar = calendarParagraph([estimate]);
    if (calendar !== null) lines.push(calendar);
  }
  lines.push(ESTIMATE_NOTE);
  return paragraph(lines.join("\n"), DESCRIPTION_MAX);
}

function within(date: IsoDate, last: IsoDate, options: FeedOptions): boolean {
  return (
    (options.since === null || last >= options.since) &&
    (options.until === null || date <= options.until)
  );
}

function daysBetween(from: IsoDate, to: IsoDate): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The reminders of a last day, `reminderBusinessDays` of the court's calendar before it. */
export function lastDayReminders(
  lastDay: IsoDate,
  at: { calendar: ReturnType<CalendarFor> | null; who: string },
  options: Pick<FeedOptions, "reminderBusinessDays" | "reminderTime">,
): FeedReminder[] {
  const calendar = at.calendar;
  if (calendar === null) return [];
  const days = [...new Set(options.reminderBusinessDays)].sort((a, b) => b - a);
  return days.map((n) => {
    const day = businessDaysBefore(calendar, lastDay, n);
    return {
      daysBefore: daysBetween(day, lastDay),
      at: options.reminderTime,
      description: `Último dia do prazo em ${dayText(lastDay)} (estimativa): ${at.who}`,
    };
  });
}

/** The periods with a last day, the one the estimate names first, then the text's others. */
export function periodsOf(
  row: FeedEstimate,
  estimate: DeadlineEstimate | null,
): Array<{
  lastDay: IsoDate;
  period: PeriodEstimate | null;
}> {
  const main =
    row.lastDay === null ? [] : [{ lastDay: row.lastDay, period: estimate?.period ?? null }];
  const others = (estimate?.otherPeriods ?? [])
    .filter((p) => p.from === "text" && p.lastDay !== null)
    .map((p) => ({ lastDay: p.lastDay as IsoDate, period: p }));
  return [...main, ...others];
}

function lastDayEvents(row: FeedEstimate, facts: Facts, options: FeedOptions): FeedEvent[] {
  const sequence = row.revision - 1 + (row.cancelled ? 1 : 0);
  return periodsOf(row, facts.estimate).flatMap(({ lastDay, period }, i) => {
    if (parseIsoDate(lastDay) === null || !within(lastDay, lastDay, options)) return [];
    if (options.covered?.(row.subject, i) === true) return [];
    const length = period === null ? "" : ` (${periodText(period)})`;
    const title = `Último dia do prazo${length}, estimativa: ${facts.who}`;
    return [
      {
        uid: uidOf(row.subject, i === 0 ? "ultimo-dia" : `prazo-${i + 1}`),
        sequence,
        cancelled: row.cancelled,
        when: { kind: "all-day", date: lastDay, lastDate: null },
        summary: oneLine(row.cancelled ? `CANCELADA: ${title}` : title, 200),
        description: descriptionOf(
          row,
          facts,
          `Último dia do prazo: ${dayText(lastDay)} (ESTIMATIVA; confira no tribunal).`,
        ),
        location: null,
        url: facts.publication?.certificateUrl ?? null,
        busy: false,
        reminders: row.cancelled ? [] : lastDayReminders(lastDay, facts, options),
      } satisfies FeedEvent,
    ];
  });
}

function sessionEvents(row: FeedEstimate, facts: Facts, options: FeedOptions): FeedEvent[] {
  const date = row.sessionDate;
  if (date === null || parseIsoDate(date) === null) return [];
  const end = row.sessionEndDate !== null && row.sessionEndDate > date ? row.sessionEndDate : null;
  if (!within(date, end ?? date, options)) return [];
  const session = facts.estimate?.session ?? null;
  const virtual = session?.virtual ?? false;
  const time =
    row.sessionTime !== null && /^\d{2}:\d{2}$/u.test(row.sessionTime) ? row.sessionTime : null;
  // A virtual session over several days is its span; a session with a time starts then.
  const when: FeedEvent["when"] =
    time === null || end !== null
      ? { kind: "all-day", date, lastDate: end }
      : { kind: "timed", date, time, zone: facts.zone, minutes: options.sessionMinutes };
  const hearing = session?.hearing === true;
  const title = hearing
    ? `${virtual ? "Audiência virtual" : "Audiência"}: ${facts.who}`
    : `${virtual ? "Sessão virtual" : "Sessão de julgamento"}: ${facts.who}`;
  const said =
    session === null
      ? `Sessão em ${dayText(date)}${time === null ? "" : ` às ${time}`}`
      : capitalized(sessionText(session));
  const zoneNote = when.kind === "timed" ? ` (horário do tribunal, ${facts.zone})` : "";
  return [
    {
      uid: uidOf(row.subject, "sessao"),
      sequence: row.revision - 1 + (row.cancelled ? 1 : 0),
      cancelled: row.cancelled,
      when,
      summary: oneLine(row.cancelled ? `CANCELADA: ${title}` : title, 200),
      description: descriptionOf(
        row,
        facts,
        `${said}${zoneNote}, conforme o texto ${hearing ? "da intimação" : "da pauta"}.`,
      ),
      location:
        facts.publication === null
          ? null
          : oneLine(
              [facts.publication.court, facts.publication.courtUnit]
                .filter((t): t is string => t !== null && t.trim() !== "")
                .join(" · "),
              200,
            ),
      url: facts.publication?.certificateUrl ?? null,
      busy: true,
      reminders: [],
    } satisfies FeedEvent,
  ];
}

/** The events of `rows`: each last day and each session in [since, until], in date order. */
export function feedEvents(rows: readonly FeedEstimate[], options: FeedOptions): FeedEvent[] {
  const events = rows.flatMap((row) => {
    const facts = factsOf(row, options.calendars);
    return [...lastDayEvents(row, facts, options), ...sessionEvents(row, facts, options)];
  });
  return events.sort((a, b) =>
    a.when.date === b.when.date ? a.uid.localeCompare(b.uid) : a.when.date < b.when.date ? -1 : 1,
  );
}
