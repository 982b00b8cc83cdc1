import type { InstanceRecord } from "../../datajud/instance-record.js";
import { seatFor } from "../../deadlines/publication-estimate.js";
import { recordActDeadline } from "../../store/act-deadlines.js";
import type { CaseRow } from "../../store/cases.js";
import type { Db } from "../../store/database.js";
import type { ActDeadline } from "../../summarize/act-deadlines.js";

/*
 * The acts an alert dated go to the calendar feed (store/act-deadlines.ts): each act with at
 * least one period's last day is recorded for the case's watchers, in the summary's transaction;
 * an act the alert could not date leaves what an earlier alert recorded as it was (a date is
 * never taken away by not knowing it again).
 */

export function recordActDates(
  db: Db,
  kase: Pick<CaseRow, "id" | "digits" | "watchers">,
  acts: readonly ActDeadline[],
  records: readonly InstanceRecord[],
  at: string,
): void {
  for (const act of acts) {
    const periods = act.periods.flatMap((p) =>
      p.lastDay === null ? [] : [{ name: p.name, lastDay: p.lastDay }],
    );
    if (periods.length === 0) continue;
    const record = records.find((r) => r.instance === act.instance);
    // The seat the dates were counted at, as actDeadline found it: reminders count on it.
    const seat =
      record === undefined
        ? undefined
        : seatFor(record.court, record.courtUnit?.municipalityCode ?? undefined, kase.digits)
            .municipality;
    recordActDeadline(db, {
      caseId: kase.id,
      subject: `datajud-act:${kase.id}:${act.instance}:${act.movementId}`,
      periods,
      seat: seat ?? null,
      act,
      at,
      recipients: kase.watchers,
    });
  }
}
