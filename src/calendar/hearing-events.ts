import type { DatajudHearingRow } from "../store/datajud-hearings.js";
import { oneLine, paragraph } from "../text.js";
import { formatBrazilian, parseIsoDate } from "../time/calendar-date.js";
import { courtTimeZone } from "../time/court-zone.js";
import type { FeedEvent } from "./feed-events.js";

/*
 * The hearings whose date DataJud states, as calendar events beside the sessions DJEN announces:
 * one event per hearing (its UID from the hearing's stable subject), the same event moved when
 * the court gives it a new date (SEQUENCE follows the revision) and CANCELLED when it cancels it.
 * Text from the court is data: cut and cleaned, escaped by the iCalendar writer. Pure.
 */

const UID_DOMAIN = "datajud-monitor";

export function hearingEvents(
  rows: readonly DatajudHearingRow[],
  window: { since: string | null; until: string | null; sessionMinutes: number },
): FeedEvent[] {
  return rows.flatMap((row) => {
    if (parseIsoDate(row.date) === null) return [];
    if (window.since !== null && row.date < window.since) return [];
    if (window.until !== null && row.date > window.until) return [];
    const zone = courtTimeZone(row.court);
    const time = row.time !== null && /^\d{2}:\d{2}$/u.test(row.time) ? row.time : null;
    const who = [row.label === null ? null : oneLine(row.label, 80), row.number]
      .filter((t): t is string => t !== null && t !== "")
      .join(" · ");
    const title = `${oneLine(row.title, 80)}: ${who}`;
    const at = `${formatBrazilian(row.date)}${time === null ? "" : ` às ${time}`}`;
    const lines = [
      `${oneLine(row.title, 80)} em ${at}${time === null ? "" : ` (horário do tribunal, ${zone})`}, segundo o próprio movimento no DataJud: "${oneLine(row.quote, 300)}".`,
      `Processo: ${who} (${row.court}, ${row.instance})`,
      ...(row.cancelled
        ? ["CANCELADA: o tribunal registrou no DataJud o cancelamento desta audiência."]
        : []),
      ...(row.revision > 1 && !row.cancelled
        ? ["Remarcada: a data anterior desta audiência não vale mais."]
        : []),
      "Confira no processo: o DataJud repete o que o tribunal registrou.",
    ];
    const event: FeedEvent = {
      uid: `${row.subject.replace(/[^A-Za-z0-9-]/gu, "-")}@${UID_DOMAIN}`,
      sequence: row.revision - 1,
      cancelled: row.cancelled,
      when:
        time === null
          ? { kind: "all-day", date: row.date as FeedEvent["when"]["date"], lastDate: null }
          : {
              kind: "timed",
              date: row.date as FeedEvent["when"]["date"],
              time,
              zone,
              minutes: window.sessionMinutes,
            },
      summary: oneLine(row.cancelled ? `CANCELADA: ${title}` : title, 200),
      description: paragraph(lines.join("\n"), 4000),
      location: null,
      url: null,
      busy: true,
      reminders: [],
    };
    return [event];
  });
}
