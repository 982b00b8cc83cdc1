import { describe, expect, it } from "vitest";
import {
  courtSilence,
  DEFAULT_LATE_DAYS,
  djenCovered,
  gapUrgent,
  lagDays,
  lagSummary,
  lateAfterDays,
  lateDataJudNotes,
  percentile,
  type RecordingMovement,
  recordingMovement,
  silentAfterDays,
} from "../../../src/policy/source-freshness.js";

/*
 * The rules of docs/freshness.md, each worked out by hand: nearest-rank percentiles, the late and
 * silent marks, which movement records a DJEN item, when DJEN counts as asked completely about a
 * day (São Paulo days: 02:00 UTC is still the day before there), when a miss is urgent.
 */

const movement = (
  rowId: number,
  code: number | null,
  day: string,
  firstSeenAt = "2025-10-10T13:00:00.000Z",
): RecordingMovement => ({ rowId, code, dateTime: `${day}T09:00:00`, firstSeenAt });

describe("lags", () => {
  it("takes nearest-rank percentiles: 2, 3, 3, 5, 8 give a median of 3 and a p90 of 8", () => {
    // Rank ceil(0.5 x 5) = 3 -> 3; ceil(0.9 x 5) = 5 -> 8.
    expect(lagSummary([8, 3, 2, 5, 3])).toEqual({ samples: 5, p50: 3, p90: 8, max: 8 });
    // 1..10: ceil(0.9 x 10) = 9 -> 9; ceil(0.5 x 10) = 5 -> 5.
    const ten = Array.from({ length: 10 }, (_, i) => i + 1);
    expect([percentile(ten, 50), percentile(ten, 90)]).toEqual([5, 9]);
    expect(lagSummary([])).toEqual({ samples: 0, p50: null, p90: null, max: null });
  });

  it("marks DataJud late after the p90 once 5 acts are measured, else after 10 days", () => {
    expect(lateAfterDays(lagSummary([1, 2, 3, 4]))).toBe(DEFAULT_LATE_DAYS);
    expect(lateAfterDays(lagSummary([2, 3, 3, 5, 8]))).toBe(8);
    expect(lateAfterDays(lagSummary([0, 0, 0, 0, 0]))).toBe(1);
    // Three times the late mark, two weeks at least.
    expect(silentAfterDays(lagSummary([]))).toBe(30);
    expect(silentAfterDays(lagSummary([2, 3, 3, 5, 8]))).toBe(24);
    expect(silentAfterDays(lagSummary([1, 1, 1, 2, 2]))).toBe(14);
  });

  it("counts a lag from the disponibilização to the São Paulo day the movement was seen", () => {
    // 13:00 UTC on 4 October is 10:00 there: two days after 2 October.
    expect(lagDays("2025-10-02", "2025-10-04T13:00:00.000Z")).toBe(2);
    // 02:00 UTC on 5 October is still 4 October in São Paulo.
    expect(lagDays("2025-10-02", "2025-10-05T02:00:00.000Z")).toBe(2);
    // Seen before DJEN's day (an intimação expedida first): no negative lag.
    expect(lagDays("2025-10-02", "2025-10-01T13:00:00.000Z")).toBe(0);
  });
});

describe("recordingMovement", () => {
  it("takes the closest recording movement, a disponibilização before a publicação at one distance", () => {
    const list = [movement(1, 92, "2025-10-02"), movement(2, 1061, "2025-10-02")];
    expect(recordingMovement("2025-10-02", list, new Set())?.rowId).toBe(2);
    // A Publicação of the very day beats a Disponibilização a day off.
    const off = [movement(3, 1061, "2025-10-01"), movement(4, 92, "2025-10-02")];
    expect(recordingMovement("2025-10-02", off, new Set())?.rowId).toBe(4);
  });

  it("skips other codes, movements already matched and those more than 5 days off", () => {
    const list = [
      movement(1, 219, "2025-10-02"),
      movement(2, 1061, "2025-10-02"),
      movement(3, 12265, "2025-10-08"),
      movement(4, 12282, "2025-09-27"),
    ];
    expect(recordingMovement("2025-10-02", list, new Set([2]))?.rowId).toBe(4);
    expect(recordingMovement("2025-10-02", list, new Set([2, 4]))).toBeNull();
    expect(
      recordingMovement("2025-10-02", [movement(5, null, "2025-10-02")], new Set()),
    ).toBeNull();
  });
});

describe("djenCovered", () => {
  const source = (firstOkAt: string | null, lastOkAt: string | null) => ({ firstOkAt, lastOkAt });

  it("holds when a complete answer came on a later day and DJEN was asked by that day", () => {
    expect(
      djenCovered(source("2025-10-01T13:00:00.000Z", "2025-11-12T13:00:00.000Z"), "2025-11-11"),
    ).toBe(true);
  });

  it("waits when the last complete answer is of that very day or earlier, or never came", () => {
    // 02:00 UTC on 12 November is 23:00 on the 11th in São Paulo: the day was not over.
    expect(
      djenCovered(source("2025-10-01T13:00:00.000Z", "2025-11-12T02:00:00.000Z"), "2025-11-11"),
    ).toBe(false);
    expect(
      djenCovered(source("2025-10-01T13:00:00.000Z", "2025-11-10T13:00:00.000Z"), "2025-11-11"),
    ).toBe(false);
    expect(djenCovered(source(null, null), "2025-11-11")).toBe(false);
    expect(djenCovered(null, "2025-11-11")).toBe(false);
    // Asked first after the day: whether the answer covered it is not known.
    expect(
      djenCovered(source("2025-11-12T13:00:00.000Z", "2025-11-13T13:00:00.000Z"), "2025-11-11"),
    ).toBe(false);
  });

  it("calls a miss urgent for 45 days from its day", () => {
    // 11 November + 45 days = 26 December.
    expect(gapUrgent("2025-11-11", "2025-12-26")).toBe(true);
    expect(gapUrgent("2025-11-11", "2025-12-27")).toBe(false);
  });
});

describe("courtSilence", () => {
  const input = {
    court: "tjsp",
    cases: 2,
    newestUpdate: "2025-09-30T18:00:00",
    lastMovedAt: "2025-10-01T13:00:00.000Z",
    lag: lagSummary([]),
    djenDays: ["2025-10-15", "2025-10-30"],
  };

  it("opens after 30 silent days with a DJEN act DataJud should have had for 10 days", () => {
    // 3 November is 33 days after 1 October; due by 24 October: only the act of 15 October.
    expect(courtSilence(input, "2025-11-03T13:00:00.000Z")).toEqual({
      type: "court_silent",
      court: "tjsp",
      since: "2025-10-01T13:00:00.000Z",
      newestUpdate: "2025-09-30T18:00:00",
      cases: 2,
      silentAfterDays: 30,
      usualLag: null,
      p90Lag: null,
      djenPublications: 1,
      djenNewestAvailableOn: "2025-10-15",
      lastError: null,
    });
  });

  it("stays shut within 30 days, without DJEN activity, or with only acts not due yet", () => {
    expect(courtSilence(input, "2025-10-31T13:00:00.000Z")).toBeNull();
    expect(courtSilence({ ...input, djenDays: [] }, "2025-11-03T13:00:00.000Z")).toBeNull();
    expect(
      courtSilence({ ...input, djenDays: ["2025-10-30"] }, "2025-11-03T13:00:00.000Z"),
    ).toBeNull();
    expect(courtSilence({ ...input, lastMovedAt: null }, "2025-11-03T13:00:00.000Z")).toBeNull();
  });
});

describe("lateDataJudNotes", () => {
  const pub = (availableOn: string, kind: string | null) => ({
    caseId: 1,
    court: "tjdft",
    djenId: availableOn,
    availableOn,
    kind,
  });
  const lags = new Map([["tjdft", [2, 3, 3, 5, 8]]]);

  it("notes an intimação past the court's p90 and within 30 days, nothing else", () => {
    const notes = lateDataJudNotes(
      [
        pub("2025-10-29", "Intimação"),
        pub("2025-10-30", "Intimação"), // 8 days: at the mark, not past it
        pub("2025-10-20", "Edital"),
        pub("2025-10-07", "Intimação"), // 31 days: past the horizon
      ],
      lags,
      "2025-11-07T13:00:00.000Z",
    );
    expect(notes).toEqual([
      {
        caseId: 1,
        court: "tjdft",
        djenId: "2025-10-29",
        availableOn: "2025-10-29",
        days: 9,
        lateAfterDays: 8,
      },
    ]);
  });
});
