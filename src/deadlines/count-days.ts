import { addDays, type IsoDate } from "../time/calendar-date.js";
import type { CourtCalendar, CourtDayStatus, DayReason } from "../time/court-calendar.js";

/*
 * Counting on a court's calendar under one procedure's rules (a Regime): which day a DJEN item
 * counts as published, the first day of a count, and its last day. Every day that is skipped or
 * that moves a date is recorded with the calendar's reason and source.
 */

export interface Regime {
  /** Periods in days count business days (CPC art. 219, CLT art. 775) or every day (CPP art. 798). */
  days: "business" | "calendar";
  /** A day on which an act can be published, a count begin or a period end. */
  useful(day: CourtDayStatus): boolean;
  /** Why deadlines do not run on this day, or null when they do. */
  suspension(day: CourtDayStatus): DayReason | null;
  /** A day opening late (or closing early, or the system down) neither begins nor ends a count. */
  lateOpeningMoves: boolean;
}

/** A day, or a run of days, that did not count or moved a date, with the calendar's reason. */
export interface SkippedDays {
  from: IsoDate;
  to: IsoDate;
  name: string;
  source: string;
  url: string | null;
}

/** A calendar read under a regime, recording what it skipped. */
export class Count {
  private readonly skipped: SkippedDays[] = [];
  private readonly cache = new Map<IsoDate, CourtDayStatus>();

  constructor(
    private readonly calendar: CourtCalendar,
    readonly regime: Regime,
  ) {}

  day(date: IsoDate): CourtDayStatus {
    let status = this.cache.get(date);
    if (status === undefined) {
      status = this.calendar.dayStatus(date);
      this.cache.set(date, status);
    }
    return status;
  }

  /** Days that did not count, in date order, runs of one reason merged; weekends left out. */
  skippedDays(): SkippedDays[] {
    return [...this.skipped].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  }

  private note(status: CourtDayStatus, reason: DayReason | undefined): void {
    if (reason === undefined || reason.effect === "weekend") return;
    // A holiday on a Saturday skipped nothing a weekend would not have; a run (recess) goes on.
    const weekend = status.reasons.some((r) => r.effect === "weekend");
    if (weekend && (reason.effect === "holiday" || reason.effect === "closed")) return;
    const date = status.date;
    const same = this.skipped.filter((s) => s.name === reason.name && s.source === reason.source);
    if (same.some((s) => s.from <= date && s.to >= date)) return;
    // A run goes on over the days between that carry the same reason (a day the count used
    // inside the suspension, such as the publication day, still lies in it).
    const run = same.find((s) => s.to < date && this.carriesThrough(s.to, date, reason));
    if (run !== undefined) {
      run.to = date;
      return;
    }
    this.skipped.push({
      from: date,
      to: date,
      name: reason.name,
      source: reason.source,
      url: reason.url,
    });
  }

  /** Every day strictly between `from` and `to` carries `reason` (as this regime names it). */
  private carriesThrough(from: IsoDate, to: IsoDate, reason: DayReason): boolean {
    for (let d = addDays(from, 1), i = 0; d < to; d = addDays(d, 1), i++) {
      if (i > 31) return false;
      const status = this.day(d);
      const named = [...status.reasons, this.regime.suspension(status)].some(
        (r) => r !== null && r.name === reason.name && r.source === reason.source,
      );
      if (!named) return false;
    }
    return true;
  }

  /**
   * Records why `status` was passed over: `why` (the rule that refused it), its closures and
   * holidays, and the suspension that covers it, named as this regime names it.
   */
  private pass(status: CourtDayStatus, why: DayReason | null): void {
    if (why !== null) this.note(status, why);
    for (const reason of status.reasons) {
      if (reason.effect !== "suspended" && reason.effect !== "late-opening") {
        this.note(status, reason);
      }
    }
    const suspension = this.regime.suspension(status);
    if (suspension !== null) this.note(status, suspension);
  }

  private lateOpening(status: CourtDayStatus): DayReason | null {
    if (!this.regime.lateOpeningMoves || !status.lateOpening) return null;
    return status.reasons.find((r) => r.effect === "late-opening") ?? null;
  }

  /** The first day after `date` the regime can publish on (Lei 11.419/2006 art. 4 §3). */
  firstUsefulAfter(date: IsoDate): IsoDate {
    return this.scan(addDays(date, 1), (status) => (this.regime.useful(status) ? null : false));
  }

  /**
   * The first day after `date` a count can begin on: useful, deadlines running, not opening late
   * (Lei 11.419/2006 art. 4 §4; CPC arts. 220 and 224 §§1, 3).
   */
  firstCountingDayAfter(date: IsoDate): IsoDate {
    return this.scan(addDays(date, 1), (status) => this.refusesStart(status));
  }

  private refusesStart(status: CourtDayStatus): DayReason | false | null {
    if (!this.regime.useful(status)) return false;
    return this.regime.suspension(status) ?? this.lateOpening(status);
  }

  /** Scans from `from` for the first day `refuse` accepts (null), recording each refused. */
  private scan(
    from: IsoDate,
    refuse: (status: CourtDayStatus) => DayReason | false | null,
  ): IsoDate {
    let date = from;
    for (let i = 0; i < MAX_DAYS; i++) {
      const status = this.day(date);
      const why = refuse(status);
      if (why === null) return date;
      this.pass(status, why === false ? null : why);
      date = addDays(date, 1);
    }
    throw new Error(`no usable day within ${MAX_DAYS} days of ${from}: the calendar is wrong`);
  }

  /**
   * The last day of `amount` days whose first day is `start` (itself a day that counts): the
   * start day excluded is already behind (CPC art. 224 caput; CPP art. 798 §1). Business days
   * count only useful days with deadlines running (CPC art. 219); calendar days count every day
   * with deadlines running (CPP art. 798). A last day the regime cannot end on moves to the next
   * that it can (CPC art. 224 §1; CPP art. 798 §3).
   */
  lastDay(start: IsoDate, amount: number): { date: IsoDate; movedFrom: IsoDate | null } {
    let date = start;
    let counted = 0;
    for (let i = 0; i < MAX_DAYS * 4; i++) {
      const status = this.day(date);
      const suspension = this.regime.suspension(status);
      const counts =
        suspension === null && (this.regime.days === "calendar" || this.regime.useful(status));
      if (counts) {
        counted += 1;
        if (counted === amount) return this.end(date);
      } else {
        this.pass(status, suspension);
      }
      date = addDays(date, 1);
    }
    throw new Error(`a period of ${amount} days from ${start} does not end: the calendar is wrong`);
  }

  /** `date`, or the first day after it the regime can end a period on. */
  end(date: IsoDate): { date: IsoDate; movedFrom: IsoDate | null } {
    const endsOn = this.scan(date, (status) => this.refusesStart(status));
    return { date: endsOn, movedFrom: endsOn === date ? null : date };
  }
}

/** A year without a usable day cannot happen; stop rather than loop on a bad calendar. */
const MAX_DAYS = 400;
