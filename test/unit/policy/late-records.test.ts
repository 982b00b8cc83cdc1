import { describe, expect, it } from "vitest";
import {
  daysLate,
  isLateRecord,
  LATE_RECORD_DAYS,
  lateMovementIds,
  newestDate,
} from "../../../src/policy/late-records.js";

const SWEEP = "2026-03-01T12:00:00.000Z";

describe("isLateRecord", () => {
  it("is a movement dated more than 90 days before the sweep and before the newest known one", () => {
    const known = "2025-12-15T10:00:00";

    const judged = [
      // 2024: long before the sweep, behind the case's newest known movement.
      isLateRecord({ dateTime: "2024-01-17T16:37:19" }, known, SWEEP),
      // 91 days before the sweep (01/03/2026 - 91 = 30/11/2025), behind the known one: late.
      isLateRecord({ dateTime: "2025-11-30T12:00:00" }, known, SWEEP),
      // 89 days: DataJud's ordinary lag, still news.
      isLateRecord({ dateTime: "2025-12-02T12:00:00" }, known, SWEEP),
    ];

    expect(LATE_RECORD_DAYS).toBe(90);
    expect(judged).toEqual([true, true, false]);
  });

  it("is never a movement newer than all the case knew, however old: a monitor catching up", () => {
    expect(isLateRecord({ dateTime: "2024-06-01T10:00:00" }, "2024-05-01T10:00:00", SWEEP)).toBe(
      false,
    );
  });

  it("is never a movement of a case read for the first time, nor an undated one", () => {
    expect([
      isLateRecord({ dateTime: "2024-01-17T16:37:19" }, null, SWEEP),
      isLateRecord({ dateTime: null }, "2025-12-15T10:00:00", SWEEP),
    ]).toEqual([false, false]);
  });
});

describe("daysLate, newestDate, lateMovementIds", () => {
  it("counts whole days from the movement's date to the sweep", () => {
    expect([
      daysLate({ dateTime: "2026-02-27T12:00:00" }, SWEEP),
      daysLate({ dateTime: null }, SWEEP),
    ]).toEqual([1, null]);
  });

  it("finds the newest dated movement, skipping undated ones", () => {
    expect(
      newestDate([
        { dateTime: "2024-01-17" },
        { dateTime: null },
        { dateTime: "2024-03-12T10:58:06" },
      ]),
    ).toBe("2024-03-12T10:58:06");
  });

  it("reads a change's late ids, none from a change stored before them", () => {
    expect([...lateMovementIds({ lateMovementIds: ["a:1"] })]).toEqual(["a:1"]);
    expect([...lateMovementIds({ newMovementIds: ["a:1"] })]).toEqual([]);
  });
});
