import { describe, expect, it } from "vitest";
import {
  type DeliveryInput,
  deliveryTime,
  latestScheduledAt,
  nextScheduledAt,
  parseClockTime,
  type QuietHours,
  quietHoursEnd,
} from "../../../src/policy/delivery-time.js";
import { endOfLocalDate } from "../../../src/time/zoned-time.js";

const SAO_PAULO = "America/Sao_Paulo";
const NEW_YORK = "America/New_York";
const DAY_MS = 24 * 60 * 60 * 1000;
const NIGHT: QuietHours = { start: "22:00", end: "07:00" };
const LUNCH: QuietHours = { start: "12:00", end: "14:00" };

/** A São Paulo wall time ("2026-05-04T21:59"; UTC-3 since 2019) as an instant. */
function sp(wall: string): Date {
  return new Date(`${wall}:00.000-03:00`);
}

/** 2026-05-04 is a Monday; 2026-05-08 a Friday. */

describe("parseClockTime", () => {
  it("reads H:MM and HH:MM on a 24 h clock", () => {
    const texts = ["7:00", "07:00", "00:00", "23:59", "12:05"];

    const parsed = texts.map(parseClockTime);

    expect(parsed).toEqual([
      { hour: 7, minute: 0 },
      { hour: 7, minute: 0 },
      { hour: 0, minute: 0 },
      { hour: 23, minute: 59 },
      { hour: 12, minute: 5 },
    ]);
  });

  it("refuses anything else", () => {
    const texts = ["24:00", "7h", "07:60", "7:5", "007:00", " 07:00", "07:00:00", "", "-1:00"];

    const parsed = texts.map(parseClockTime);

    expect(parsed).toEqual(texts.map(() => null));
  });
});

describe("quietHoursEnd", () => {
  it("treats 22:00-07:00 as a window across midnight, open at start and closed at end", () => {
    const times = [
      "2026-05-04T21:59",
      "2026-05-04T22:00",
      "2026-05-04T23:30",
      "2026-05-05T00:10",
      "2026-05-05T06:59",
      "2026-05-05T07:00",
    ];

    const ends = times.map((t) => quietHoursEnd(sp(t), NIGHT, SAO_PAULO));

    const morning = sp("2026-05-05T07:00");
    expect(ends).toEqual([null, morning, morning, morning, morning, null]);
  });

  it("is still quiet in the last millisecond before the end", () => {
    const at = new Date(sp("2026-05-05T07:00").getTime() - 1);

    const end = quietHoursEnd(at, NIGHT, SAO_PAULO);

    expect(end).toEqual(sp("2026-05-05T07:00"));
  });

  it("handles a daytime window that does not cross midnight", () => {
    const times = ["2026-05-04T11:59", "2026-05-04T12:00", "2026-05-04T13:59", "2026-05-04T14:00"];

    const ends = times.map((t) => quietHoursEnd(sp(t), LUNCH, SAO_PAULO));

    const afterLunch = sp("2026-05-04T14:00");
    expect(ends).toEqual([null, afterLunch, afterLunch, null]);
  });

  it("has no window without quiet hours or when start equals end", () => {
    const at = sp("2026-05-04T23:00");

    const ends = [
      quietHoursEnd(at, null, SAO_PAULO),
      quietHoursEnd(at, { start: "23:00", end: "23:00" }, SAO_PAULO),
    ];

    expect(ends).toEqual([null, null]);
  });

  it("reads the window in the schedule's time zone", () => {
    const at = new Date("2026-05-05T02:00:00.000Z"); // 23:00 in São Paulo, 22:00 in Manaus

    const ends = [
      quietHoursEnd(at, { start: "22:30", end: "07:00" }, SAO_PAULO),
      quietHoursEnd(at, { start: "22:30", end: "07:00" }, "America/Manaus"),
    ];

    expect(ends).toEqual([new Date("2026-05-05T10:00:00.000Z"), null]);
  });

  it("ends at local 07:00 on a night when clocks spring forward", () => {
    const at = new Date("2026-03-08T04:00:00.000Z"); // 23:00 EST on Saturday March 7

    const end = quietHoursEnd(at, NIGHT, NEW_YORK);

    expect(end).toEqual(new Date("2026-03-08T11:00:00.000Z")); // 07:00 EDT
  });

  it("ends at the later 01:30 when the clock already went back past the earlier one", () => {
    const at = new Date("2026-11-01T06:15:00.000Z"); // 01:15 EST, the second 01:15 that night

    const end = quietHoursEnd(at, { start: "00:00", end: "01:30" }, NEW_YORK);

    expect(end).toEqual(new Date("2026-11-01T06:30:00.000Z")); // 01:30 EST
  });

  it("refuses quiet hours that are not HH:MM", () => {
    const quiet = { start: "22h", end: "07:00" };

    const act = (): Date | null => quietHoursEnd(sp("2026-05-04T23:00"), quiet, SAO_PAULO);

    expect(act).toThrow(/not two HH:MM times/);
  });
});

describe("nextScheduledAt", () => {
  it("skips the weekend for a weekday schedule", () => {
    const friday = sp("2026-05-08T19:00");

    const next = nextScheduledAt("0 18 * * 1-5", SAO_PAULO, friday);

    expect(next).toEqual(sp("2026-05-11T18:00"));
  });

  it("is strictly after the given instant", () => {
    const atFire = sp("2026-05-04T18:00");

    const next = nextScheduledAt("0 18 * * 1-5", SAO_PAULO, atFire);

    expect(next).toEqual(sp("2026-05-05T18:00"));
  });

  it("throws when the schedule never fires", () => {
    const act = (): Date => nextScheduledAt("0 0 30 2 *", SAO_PAULO, sp("2026-05-04T12:00"));

    expect(act).toThrow(/never fires/);
  });
});

describe("latestScheduledAt", () => {
  const weekly = "0 8 * * 1";
  const week = 7 * DAY_MS;

  it("counts a fire exactly at the given instant", () => {
    const mondayEight = sp("2026-05-11T08:00");

    const latest = latestScheduledAt(weekly, SAO_PAULO, mondayEight, week);

    expect(latest).toEqual(mondayEight);
  });

  it("finds this Monday's fire later that Monday", () => {
    const latest = latestScheduledAt(weekly, SAO_PAULO, sp("2026-05-11T09:00"), week);

    expect(latest).toEqual(sp("2026-05-11T08:00"));
  });

  it("finds last Monday's fire on Sunday within a week, and none within a day", () => {
    const sunday = sp("2026-05-10T12:00");

    const results = [
      latestScheduledAt(weekly, SAO_PAULO, sunday, week),
      latestScheduledAt(weekly, SAO_PAULO, sunday, DAY_MS),
    ];

    expect(results).toEqual([sp("2026-05-04T08:00"), null]);
  });

  it("excludes a fire exactly lookbackMs ago", () => {
    const sundayEight = sp("2026-05-10T08:00");

    const latest = latestScheduledAt(weekly, SAO_PAULO, sundayEight, 6 * DAY_MS);

    expect(latest).toBeNull();
  });
});

describe("endOfLocalDate", () => {
  it("is local midnight of the next day in São Paulo, across a month and a year", () => {
    const dates = ["2027-01-31", "2026-12-31", "2028-02-28"];

    const ends = dates.map((d) => endOfLocalDate(d, SAO_PAULO));

    expect(ends).toEqual([
      new Date("2027-02-01T03:00:00.000Z"),
      new Date("2027-01-01T03:00:00.000Z"),
      new Date("2028-02-29T03:00:00.000Z"),
    ]);
  });

  it("works east of UTC+12, where noon UTC is already the next local day", () => {
    const end = endOfLocalDate("2027-01-31", "Pacific/Kiritimati");

    expect(end).toEqual(new Date("2027-01-31T10:00:00.000Z")); // 2027-02-01T00:00+14:00
  });

  it("works far west of UTC", () => {
    const end = endOfLocalDate("2027-01-31", "Pacific/Pago_Pago");

    expect(end).toEqual(new Date("2027-02-01T11:00:00.000Z")); // 2027-02-01T00:00-11:00
  });

  it("follows New York's offset on the days clocks change", () => {
    const dates = ["2026-03-07", "2026-03-08", "2026-10-31", "2026-11-01"];

    const ends = dates.map((d) => endOfLocalDate(d, NEW_YORK));

    expect(ends).toEqual([
      new Date("2026-03-08T05:00:00.000Z"), // 00:00 EST
      new Date("2026-03-09T04:00:00.000Z"), // 00:00 EDT
      new Date("2026-11-01T04:00:00.000Z"), // 00:00 EDT
      new Date("2026-11-02T05:00:00.000Z"), // 00:00 EST
    ]);
  });

  it("starts the next day at 01:00 where DST skipped midnight (São Paulo, November 2018)", () => {
    const end = endOfLocalDate("2018-11-03", SAO_PAULO);

    expect(end).toEqual(new Date("2018-11-04T03:00:00.000Z")); // 01:00-02:00, nothing before
  });

  it("refuses a date that is not on the calendar", () => {
    const act = (): Date => endOfLocalDate("2027-02-30", SAO_PAULO);

    expect(act).toThrow(/not a calendar date/);
  });
});

describe("deliveryTime", () => {
  function input(overrides: Partial<DeliveryInput>): DeliveryInput {
    return {
      at: sp("2026-05-04T10:00"),
      delivery: "instant",
      digestSchedule: null,
      quietHours: NIGHT,
      bypassQuietHours: false,
      timezone: SAO_PAULO,
      ...overrides,
    };
  }

  it("sends an instant alert now outside quiet hours", () => {
    const when = deliveryTime(input({ at: sp("2026-05-04T21:59") }));

    expect(when).toBeNull();
  });

  it("holds an instant alert queued in quiet hours until they end", () => {
    const when = deliveryTime(input({ at: sp("2026-05-04T23:30") }));

    expect(when).toEqual(sp("2026-05-05T07:00"));
  });

  it("sends an urgent alert at night when quiet hours may be bypassed", () => {
    const when = deliveryTime(input({ at: sp("2026-05-04T23:30"), bypassQuietHours: true }));

    expect(when).toBeNull();
  });

  it("treats a digest without a schedule like an instant alert", () => {
    const results = [
      deliveryTime(input({ delivery: "digest", at: sp("2026-05-04T12:00") })),
      deliveryTime(input({ delivery: "digest", at: sp("2026-05-05T00:10") })),
    ];

    expect(results).toEqual([null, sp("2026-05-05T07:00")]);
  });

  it("ignores a digest schedule for instant delivery", () => {
    const when = deliveryTime(input({ digestSchedule: "0 18 * * 1-5" }));

    expect(when).toBeNull();
  });

  it("holds a digest queued on Friday evening until Monday's fire", () => {
    const when = deliveryTime(
      input({ delivery: "digest", digestSchedule: "0 18 * * 1-5", at: sp("2026-05-08T19:00") }),
    );

    expect(when).toEqual(sp("2026-05-11T18:00"));
  });

  it("puts changes on either side of midnight in the same morning digest", () => {
    const digest = { delivery: "digest", digestSchedule: "0 8 * * *" } as const;

    const results = [
      deliveryTime(input({ ...digest, at: sp("2026-05-04T23:50") })),
      deliveryTime(input({ ...digest, at: sp("2026-05-05T00:10") })),
    ];

    expect(results).toEqual([sp("2026-05-05T08:00"), sp("2026-05-05T08:00")]);
  });

  it("moves a digest fire that falls in quiet hours to their end, unless they are bypassed", () => {
    const digest = { delivery: "digest", digestSchedule: "0 23 * * *" } as const;

    const results = [
      deliveryTime(input({ ...digest })),
      deliveryTime(input({ ...digest, bypassQuietHours: true })),
    ];

    expect(results).toEqual([sp("2026-05-05T07:00"), sp("2026-05-04T23:00")]);
  });

  it("sends a digest on schedule when there are no quiet hours", () => {
    const when = deliveryTime(
      input({ delivery: "digest", digestSchedule: "0 23 * * *", quietHours: null }),
    );

    expect(when).toEqual(sp("2026-05-04T23:00"));
  });
});
