import { addDays, type IsoDate } from "../time/calendar-date.js";
import type { CourtDayStatus } from "../time/court-calendar.js";
import { dateInZone, instantInZone } from "../time/zoned-time.js";

/*
 * When each step of an urgent alert's escalation chain is due (issue 40), pure: the alert's
 * queued instant, the last day it names (a period's or a hearing's), the court's calendar and the
 * chain are given; the instants are returned. The rule (docs/channels.md, Escalation):
 *
 *   step k is due at the earliest of
 *     - queued + k × `within` business hours (from when the alert first goes out; hours inside the business window, on the court's
 *       business days only: an alert queued at night starts counting at the next opening);
 *     - the opening of the day `before` court business days before the last day;
 *     - the opening of the last day itself (never later than the last day); for a hearing, the
 *       opening of the court business day before it (a hearing may begin at the opening);
 *   a chain with neither `within` nor a last day has no due step.
 *
 * Two day tests, each the one that makes a step earlier, never later: business hours run on any
 * day the court has expediente (a day whose deadlines an act suspends still counts: skipping it
 * would push a step later), and counting back from the last day skips those suspended days too
 * (so the step lands earlier). Whether a step already due is sent at once is the caller's: this
 * only says when.
 */

/** Minutes since local midnight: 09:00 is 540. */
export interface BusinessWindow {
  start: number;
  end: number;
}

/**
 * The default window, 09:00-18:00: the minimum expediente for the public that CNJ Resolução
 * 130/2011 wrote into Resolução 88/2009 (art. 1º § 3º), Monday to Friday, read on the court's
 * wall clock. Courts keep others (afternoons only in many); a firm sets its own.
 */
export const DEFAULT_BUSINESS_WINDOW: BusinessWindow = { start: 9 * 60, end: 18 * 60 };

/** Who a step tells: a watcher (their e-mail, and their WhatsApp where they have one) or an endpoint. */
export type EscalationTarget =
  | { kind: "watcher"; address: string }
  | { kind: "endpoint"; name: string };

/** A watchlist's `escalation:` (defaults, or a case's own). */
export interface EscalationChain {
  /** Business hours after the alert was queued, per step; null: only `before` counts. */
  within: number | null;
  /** Court business days before the last day; null: only `within` counts. */
  before: number | null;
  window: BusinessWindow;
  chain: readonly EscalationTarget[];
}

/** The day the alert's dates end on, and what it is (for the message and `status`). */
export interface EscalationLastDay {
  date: IsoDate;
  /** "period": a period's last day; "hearing": a hearing's or session's day. */
  kind: "period" | "hearing";
  /** The period's or act's name ("Apelação"), or null. */
  name: string | null;
}

export interface ScheduleInput {
  /** When the alert first goes out (queued, or released from a digest or quiet hours). */
  queuedAt: Date;
  lastDay: EscalationLastDay | null;
  chain: EscalationChain;
  /** The court's day: whether it has expediente (`kind`), and whether deadlines are suspended. */
  day: (date: IsoDate) => Pick<CourtDayStatus, "kind" | "countingSuspended">;
  /** The court's wall clock, on which the window is read. */
  timeZone: string;
}

/** Which bound decided a step's instant. */
export type DueBy = "within" | "before" | "last-day";

export interface ScheduledStep {
  /** 1 for the first target of the chain. */
  step: number;
  target: EscalationTarget;
  dueAt: Date;
  dueBy: DueBy;
}

const MINUTE_MS = 60_000;
/** Far enough to cross any recess; a calendar with no business day in it is a bug, not a wait. */
const MAX_DAYS = 800;

function clockText(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}

function opening(date: IsoDate, window: BusinessWindow, timeZone: string): number {
  return instantInZone(date, clockText(window.start), timeZone);
}

function hasExpediente(input: ScheduleInput, date: IsoDate): boolean {
  return input.day(date).kind === "working";
}

/** `hours` business hours after `from`: only the window's minutes of days with expediente count. */
export function addBusinessHours(input: ScheduleInput, from: number, hours: number): number {
  const { timeZone } = input;
  const { window } = input.chain;
  let remaining = hours * 60 * MINUTE_MS;
  let date = dateInZone(from, timeZone);
  let cursor = from;
  for (let i = 0; i < MAX_DAYS; i++) {
    if (hasExpediente(input, date)) {
      const open = opening(date, window, timeZone);
      const close = instantInZone(date, clockText(window.end), timeZone);
      const start = Math.max(cursor, open);
      if (start < close) {
        if (remaining <= close - start) return start + remaining;
        remaining -= close - start;
      }
    }
    date = addDays(date, 1);
    cursor = instantInZone(date, "00:00", timeZone);
  }
  throw new RangeError(
    `no business day within ${MAX_DAYS} days of ${new Date(from).toISOString()}`,
  );
}

/** The court business day `days` before `date` (the day itself for 0), suspended days skipped. */
export function businessDaysBefore(input: ScheduleInput, date: IsoDate, days: number): IsoDate {
  let day = date;
  let counted = 0;
  for (let i = 0; counted < days; i++) {
    if (i >= MAX_DAYS) throw new RangeError(`no ${days} business days before ${date}`);
    day = addDays(day, -1);
    const status = input.day(day);
    if (status.kind === "working" && !status.countingSuspended) counted++;
  }
  return day;
}

/** The instant each step of the chain is due; empty when nothing bounds it (see the rule above). */
export function escalationSchedule(input: ScheduleInput): ScheduledStep[] {
  const { chain, lastDay, timeZone } = input;
  const { window } = chain;
  const bounds: Array<{ at: number; by: DueBy }> = [];
  if (lastDay !== null) {
    // A hearing may begin at the opening itself: a step then would reach someone too late to be
    // there, so its last bound is the opening of the court business day before it.
    const last =
      lastDay.kind === "hearing" ? businessDaysBefore(input, lastDay.date, 1) : lastDay.date;
    bounds.push({ at: opening(last, window, timeZone), by: "last-day" });
    if (chain.before !== null) {
      const day = businessDaysBefore(input, lastDay.date, chain.before);
      bounds.push({ at: opening(day, window, timeZone), by: "before" });
    }
  }
  const queued = input.queuedAt.getTime();
  const steps: ScheduledStep[] = [];
  for (const [i, target] of chain.chain.entries()) {
    const step = i + 1;
    const candidates = [...bounds];
    if (chain.within !== null) {
      candidates.push({ at: addBusinessHours(input, queued, step * chain.within), by: "within" });
    }
    // The earliest; on a tie the date's bound names it (it is the reason the step cannot wait).
    const first = candidates.reduce<{ at: number; by: DueBy } | null>(
      (best, c) => (best === null || c.at < best.at ? c : best),
      null,
    );
    if (first === null) return [];
    steps.push({ step, target, dueAt: new Date(first.at), dueBy: first.by });
  }
  return steps;
}
