import type { Db } from "./database.js";
import {
  ACTS,
  addFollowers,
  type CalendarQuery,
  calendarParams,
  followedBy,
  insertRevised,
  updateRevised,
} from "./revised-rows.js";

/*
 * The last days of the periods a DataJud act opens, as the alert that dated them gave them
 * (migration 026), for the calendar feed beside DJEN's estimates. One row per act of an instance:
 * a later alert that dates the same act otherwise (a re-dated Diário) moves its row (revision +
 * 1, the same events updated). The store keeps the act as the caller hands it and does not read
 * it (summarize/ owns that shape): `act` comes back as parsed JSON for the caller to validate.
 */

export interface ActDates {
  caseId: number;
  /** "datajud-act:<case id>:<instance>:<movement id>". */
  subject: string;
  /** Each dated period's name and last day; at least one. */
  periods: ReadonlyArray<{ name: string; lastDay: string }>;
  /** The IBGE code of the seat the dates were counted at; null: unknown. */
  seat: number | null;
  act: unknown;
  at: string;
  recipients: readonly string[];
}

export interface ActDeadlineRow {
  id: number;
  caseId: number;
  subject: string;
  seat: number | null;
  act: unknown;
  revision: number;
  updatedAt: string;
  court: string;
  /** The case's CNJ number, formatted. */
  number: string;
  /** 20 digits. */
  digits: string;
  label: string | null;
}

/** What saving did: stored the first time, moved (a last day changed), or the same days again. */
export type ActSaved = "stored" | "moved" | "unchanged";

function datesKey(periods: ActDates["periods"]): string {
  return periods.map((p) => `${p.name}=${p.lastDay}`).join("\n");
}

/**
 * Records an act's dated periods and who follows them. The same days again keep the row and its
 * revision (the act's text is refreshed); a day that moved makes a new revision.
 */
export function recordActDeadline(db: Db, news: ActDates): ActSaved {
  const days = news.periods.map((p) => p.lastDay).sort();
  const first = days[0];
  const last = days.at(-1);
  if (first === undefined || last === undefined) throw new Error("an act without a dated period");
  const columns = {
    dates: datesKey(news.periods),
    first_day: first,
    open_until: last,
    seat: news.seat,
    act: JSON.stringify(news.act ?? null),
    updated_at: news.at,
  };
  const before = db
    .prepare<[string], { id: number; dates: string }>(
      "SELECT id, dates FROM act_deadlines WHERE subject = ?",
    )
    .get(news.subject);
  let id: number;
  let saved: ActSaved;
  if (before === undefined) {
    id = insertRevised(db, ACTS, { case_id: news.caseId, subject: news.subject, ...columns });
    saved = "stored";
  } else {
    id = before.id;
    const moved = before.dates !== columns.dates;
    updateRevised(db, ACTS, id, columns, moved);
    saved = moved ? "moved" : "unchanged";
  }
  addFollowers(db, ACTS, id, news.recipients);
  return saved;
}

interface RawRow extends Omit<ActDeadlineRow, "act"> {
  act: string;
}

/**
 * The acts a calendar feed holds: those someone follows (or `recipient` follows), with a last day
 * in [since, until], the latest `limit` kept, in date order.
 */
export function calendarActDeadlines(db: Db, query: CalendarQuery): ActDeadlineRow[] {
  return db
    .prepare<CalendarQuery, RawRow>(
      `SELECT a.id, a.case_id AS caseId, a.subject, a.seat, a.act, a.revision,
         a.updated_at AS updatedAt, c.court, c.number, c.digits, c.label
       FROM act_deadlines a JOIN cases c ON c.id = a.case_id
       WHERE ${followedBy(ACTS, "a")}
         AND (@since IS NULL OR a.open_until >= @since)
         AND (@until IS NULL OR a.first_day <= @until)
       ORDER BY a.open_until DESC, a.id DESC
       LIMIT @limit`,
    )
    .all(calendarParams(query))
    .reverse()
    .map(({ act, ...rest }) => ({ ...rest, act: JSON.parse(act) as unknown }));
}
