import { yearOf } from "../time/calendar-date.js";
import type { CourtDayStatus, DayReason } from "../time/court-calendar.js";
import type { Regime } from "./count-days.js";

/*
 * How each procedure counts, on any court's calendar.
 *
 * - Civil (CPC): business days (art. 219), the 20/12-20/01 suspension (art. 220), a day that
 *   opens late neither begins nor ends a count (art. 224 §1).
 * - Labour (CLT): business days (art. 775, since Lei 13.467/2017), the same suspension (art. 775-A).
 *   The CLT has no rule like CPC art. 224 §1: a late opening moves nothing here (earlier).
 * - Criminal (CPP): calendar days, start day excluded (art. 798 caput and §1), an end on a day
 *   without court moves to the next business day (§3); the 20/12-20/01 suspension (art. 798-A)
 *   except with a defendant in custody (I), under the Lei Maria da Penha (II) or by a reasoned
 *   order (III). In those, the recess's weekdays are not skipped (the duty court, plantão, sits).
 * - Electoral: calendar days (Res. TSE 23.478/2016 art. 7), the CPC art. 220 suspension (its
 *   art. 10); in the electoral period, from the close of candidate registration (15 August of an
 *   election year, Lei 9.504/1997 art. 11; LC 64/1990 art. 16), every day counts and no end moves.
 */

export type Procedure = "civil" | "labour" | "criminal" | "electoral";

function nationalSuspension(day: CourtDayStatus): DayReason | null {
  return day.reasons.find((r) => r.effect === "suspended" && r.scope === "national") ?? null;
}

function anySuspension(day: CourtDayStatus): DayReason | null {
  return day.reasons.find((r) => r.effect === "suspended") ?? null;
}

/** A suspension other than the national 20/12-20/01 one: a court's act, the configuration. */
function localSuspension(day: CourtDayStatus): DayReason | null {
  return day.reasons.find((r) => r.effect === "suspended" && r.scope !== "national") ?? null;
}

/**
 * The same for criminal periods, which "não se interrompem por férias" (CPP art. 798): a
 * superior court's vacations, and the acts that except criminal cases, do not suspend them.
 */
function criminalLocalSuspension(day: CourtDayStatus): DayReason | null {
  return (
    day.reasons.find(
      (r) => r.effect === "suspended" && r.scope !== "national" && r.notInCriminal !== true,
    ) ?? null
  );
}

/** The national suspension named by the procedure's own article. */
function relabelled(
  source: string,
  name: string,
  local: (day: CourtDayStatus) => DayReason | null = localSuspension,
) {
  return (day: CourtDayStatus): DayReason | null => {
    const national = nationalSuspension(day);
    if (national !== null) return { ...national, source, name };
    return local(day);
  };
}

const working = (day: CourtDayStatus): boolean => day.kind === "working";

export const CIVIL: Regime = {
  days: "business",
  useful: working,
  suspension: anySuspension,
  lateOpeningMoves: true,
};

export const LABOUR: Regime = {
  days: "business",
  useful: working,
  suspension: relabelled("CLT, art. 775-A", "prazos suspensos de 20/12 a 20/01"),
  lateOpeningMoves: false,
};

export const CRIMINAL: Regime = {
  days: "calendar",
  useful: working,
  suspension: relabelled(
    "CPP, art. 798-A",
    "prazos penais suspensos de 20/12 a 20/01",
    criminalLocalSuspension,
  ),
  lateOpeningMoves: false,
};

/** Criminal, in the exceptions of CPP art. 798-A: the year-end suspension does not apply. */
export const CRIMINAL_UNSUSPENDED: Regime = {
  days: "calendar",
  useful: (day) => day.kind === "working" || day.kind === "recess",
  suspension: criminalLocalSuspension,
  lateOpeningMoves: false,
};

/** 15 August to 19 December of an even year: the electoral period, at its widest. */
export function inElectoralPeriod(date: string): boolean {
  const monthDay = date.slice(5);
  return yearOf(date) % 2 === 0 && monthDay >= "08-15" && monthDay <= "12-19";
}

export const ELECTORAL: Regime = {
  days: "calendar",
  useful: (day) => inElectoralPeriod(day.date) || day.kind === "working",
  suspension: relabelled(
    "CPC, art. 220; Res. TSE 23.478/2016, art. 10",
    "prazos suspensos de 20/12 a 20/01",
  ),
  lateOpeningMoves: true,
};

export function regimeOf(
  procedure: Procedure,
  options: { unsuspended?: boolean; recessIsHoliday?: boolean } = {},
): Regime {
  switch (procedure) {
    case "civil":
      return CIVIL;
    case "labour":
      return LABOUR;
    case "criminal":
      if (options.unsuspended !== true) return CRIMINAL;
      return options.recessIsHoliday === true
        ? { ...CRIMINAL_UNSUSPENDED, useful: working }
        : CRIMINAL_UNSUSPENDED;
    case "electoral":
      return ELECTORAL;
  }
}
