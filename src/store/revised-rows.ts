import type { Db } from "./database.js";

/*
 * Rows kept once per subject whose `revision` counts the times what a calendar shows of them
 * moved (a deadline estimate's dates, a DataJud hearing's date or cancellation, a DataJud act's
 * last days), each with the addresses that follow it. One shape for the three tables: insert the first time, update in place
 * after, the revision raised only when it moved.
 */

type Revised =
  | { table: "deadline_estimates"; followers: "deadline_estimate_watchers"; key: "estimate_id" }
  | { table: "datajud_hearings"; followers: "datajud_hearing_watchers"; key: "hearing_id" }
  | { table: "act_deadlines"; followers: "act_deadline_watchers"; key: "act_deadline_id" };

export const ESTIMATES: Revised = {
  table: "deadline_estimates",
  followers: "deadline_estimate_watchers",
  key: "estimate_id",
};

export const HEARINGS: Revised = {
  table: "datajud_hearings",
  followers: "datajud_hearing_watchers",
  key: "hearing_id",
};

export const ACTS: Revised = {
  table: "act_deadlines",
  followers: "act_deadline_watchers",
  key: "act_deadline_id",
};

type Columns = Readonly<Record<string, string | number | null>>;

/** Column names come from this module's callers' literals, never from data. */
function checkedNames(columns: Columns): string[] {
  const names = Object.keys(columns);
  for (const name of names) {
    if (!/^[a-z_]+$/u.test(name)) throw new Error(`not a column name: ${name}`);
  }
  return names;
}

/** Inserts the row; returns its id. */
export function insertRevised(db: Db, revised: Revised, columns: Columns): number {
  const names = checkedNames(columns);
  return Number(
    db
      .prepare(
        `INSERT INTO ${revised.table} (${names.join(", ")}) VALUES (${names.map((n) => `@${n}`).join(", ")})`,
      )
      .run(columns).lastInsertRowid,
  );
}

/** Updates row `id` with `columns`, its revision raised by one when `moved`. */
export function updateRevised(
  db: Db,
  revised: Revised,
  id: number,
  columns: Columns,
  moved: boolean,
): void {
  const set = checkedNames(columns).map((n) => `${n} = @${n}`);
  db.prepare(
    `UPDATE ${revised.table} SET ${[...set, "revision = revision + @moved"].join(", ")} WHERE id = @id`,
  ).run({ ...columns, moved: moved ? 1 : 0, id });
}

/** Adds the row's followers (addresses compared in lower case, each once). */
export function addFollowers(
  db: Db,
  revised: Revised,
  id: number,
  recipients: readonly string[],
): void {
  const insert = db.prepare<[number, string]>(
    `INSERT OR IGNORE INTO ${revised.followers} (${revised.key}, recipient) VALUES (?, ?)`,
  );
  for (const recipient of recipients) insert.run(id, recipient.trim().toLowerCase());
}

/** What a calendar feed asks of a revised table: whose rows, which days, how many. */
export interface CalendarQuery {
  /** One follower's rows (compared in lower case); null: every row someone follows. */
  recipient: string | null;
  /** Only rows with a date on or after this day (YYYY-MM-DD); null: all. */
  since: string | null;
  /** Only rows with a date on or before this day; null: all. */
  until: string | null;
  /** At most this many, the latest dates kept. */
  limit: number;
}

/** The condition that row `alias` is followed by `@recipient` (anyone when it is null). */
export function followedBy(revised: Revised, alias: string): string {
  return `EXISTS (SELECT 1 FROM ${revised.followers} w
                     WHERE w.${revised.key} = ${alias}.id
                       AND (@recipient IS NULL OR w.recipient = lower(@recipient)))`;
}

/** A calendar query's named parameters, the recipient trimmed. */
export function calendarParams(query: CalendarQuery): CalendarQuery {
  return {
    recipient: query.recipient?.trim() ?? null,
    since: query.since,
    until: query.until,
    limit: query.limit,
  };
}
