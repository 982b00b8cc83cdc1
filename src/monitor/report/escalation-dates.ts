import type { DeadlineEstimate } from "../../deadlines/estimate-schema.js";
import type { EscalationNotice } from "../../notify/render/escalation.js";
import type { EscalationLastDay } from "../../policy/escalation.js";
import type { IsoDate } from "../../time/calendar-date.js";

/*
 * The day an alert's dates end on, for its escalation: the earliest of every last day and hearing
 * the alert itself dates (a gazette movement's or DJEN item's estimate, its other periods and
 * session; the periods of the acts it opens with; a hearing's own date), read from the payload as
 * it was sent. The earliest, so the escalation is never later than any of them; a day before the
 * alert was queued (a hearing already held) is no deadline ahead and is left out.
 */

type Original = EscalationNotice["original"];

function ofEstimate(estimate: DeadlineEstimate | undefined, into: EscalationLastDay[]): void {
  if (estimate === undefined) return;
  const name = estimate.period?.act ?? null;
  if (estimate.lastDay !== null) into.push({ date: estimate.lastDay, kind: "period", name });
  for (const p of estimate.otherPeriods) {
    if (p.lastDay !== null) into.push({ date: p.lastDay, kind: "period", name: p.act });
  }
  if (estimate.session !== null) {
    into.push({ date: estimate.session.date, kind: "hearing", name: null });
  }
}

function candidates(original: Original): EscalationLastDay[] {
  const out: EscalationLastDay[] = [];
  if (original.type === "publication") {
    const c = original.content;
    if (c.lastDay != null)
      out.push({ date: c.lastDay, kind: "period", name: c.deadline?.period?.act ?? null });
    if (c.session != null) out.push({ date: c.session.date, kind: "hearing", name: null });
    ofEstimate(c.deadline, out);
    return out;
  }
  const c = original.content;
  for (const m of c.newMovements) {
    ofEstimate(m.deadline, out);
    if (m.hearing !== undefined) out.push({ date: m.hearing.date, kind: "hearing", name: null });
  }
  for (const act of c.acts) {
    for (const p of act.periods) {
      if (p.lastDay !== null) out.push({ date: p.lastDay, kind: "period", name: p.name });
    }
  }
  return out;
}

/** The earliest day the alert's dates end on, from `queuedDay` on; null when it dates none. */
export function alertLastDay(original: Original, queuedDay: IsoDate): EscalationLastDay | null {
  let best: EscalationLastDay | null = null;
  for (const c of candidates(original)) {
    if (!/^\d{4}-\d{2}-\d{2}$/u.test(c.date) || c.date < queuedDay) continue;
    if (best === null || c.date < best.date) best = c;
  }
  return best;
}
