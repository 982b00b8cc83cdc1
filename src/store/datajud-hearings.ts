import type { Db } from "./database.js";
import {
  addFollowers,
  type CalendarQuery,
  calendarParams,
  followedBy,
  HEARINGS,
  insertRevised,
  updateRevised,
} from "./revised-rows.js";

/*
 * Hearings whose date DataJud states, one row per hearing of an instance (migration 020): the
 * calendar feed shows them beside the sessions DJEN announces. A new date for the same hearing
 * moves its row (revision + 1, the same event updated); a cancellation marks it.
 */

export interface HearingNews {
  caseId: number;
  subject: string;
  title: string;
  instance: string;
  /** The hearing's day and time as the movement states them; null for a cancellation. */
  when: { date: string; time: string | null; quote: string } | null;
  cancelled: boolean;
  at: string;
  recipients: readonly string[];
}

export interface DatajudHearingRow {
  id: number;
  caseId: number;
  subject: string;
  title: string;
  instance: string;
  date: string;
  time: string | null;
  quote: string;
  cancelled: boolean;
  revision: number;
  updatedAt: string;
  court: string;
  number: string;
  label: string | null;
}

interface RawRow extends Omit<DatajudHearingRow, "cancelled"> {
  cancelled: number;
}

/**
 * Records what a hearing movement says: a date (a new hearing, or the same one moved), or a
 * cancellation of one already recorded (a cancellation of a hearing whose date DataJud never
 * stated has no event to cancel). Returns whether the row changed.
 */
export function recordHearing(db: Db, news: HearingNews): boolean {
  const row = db
    .prepare<[string], { id: number; date: string; time: string | null; cancelled: number }>(
      "SELECT id, date, time, cancelled FROM datajud_hearings WHERE subject = ?",
    )
    .get(news.subject);
  let id = row?.id ?? null;
  let changed = false;
  if (news.cancelled) {
    if (row === undefined) return false;
    if (row.cancelled === 0) {
      updateRevised(db, HEARINGS, row.id, { cancelled: 1, updated_at: news.at }, true);
      changed = true;
    }
  } else if (news.when !== null) {
    const { date, time, quote } = news.when;
    if (row === undefined) {
      id = insertRevised(db, HEARINGS, {
        case_id: news.caseId,
        subject: news.subject,
        title: news.title,
        instance: news.instance,
        date,
        time,
        quote,
        updated_at: news.at,
      });
      changed = true;
    } else if (row.date !== date || row.time !== time || row.cancelled === 1) {
      const moved = { date, time, quote, title: news.title, cancelled: 0, updated_at: news.at };
      updateRevised(db, HEARINGS, row.id, moved, true);
      changed = true;
    }
  }
  if (id !== null) addFollowers(db, HEARINGS, id, news.recipients);
  return changed;
}

/** The hearings a watcher follows (every one with `recipient` null), on or after `since`. */
export function calendarHearings(db: Db, query: CalendarQuery): DatajudHearingRow[] {
  return db
    .prepare<CalendarQuery, RawRow>(
      `SELECT h.id, h.case_id AS caseId, h.subject, h.title, h.instance, h.date, h.time, h.quote,
         h.cancelled, h.revision, h.updated_at AS updatedAt, c.court, c.number, c.label
       FROM datajud_hearings h JOIN cases c ON c.id = h.case_id
       WHERE ${followedBy(HEARINGS, "h")}
         AND (@since IS NULL OR h.date >= @since)
         AND (@until IS NULL OR h.date <= @until)
       ORDER BY h.date DESC, h.id DESC
       LIMIT @limit`,
    )
    .all(calendarParams(query))
    .reverse()
    .map(({ cancelled, ...rest }) => ({ ...rest, cancelled: cancelled === 1 }));
}
