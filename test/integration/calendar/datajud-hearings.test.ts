import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { calendarFeed, type FeedSettings } from "../../../src/calendar/feed.js";
import { calendarsWith } from "../../../src/deadlines/publication-estimate.js";
import { findCasesByNumber, syncWatchedCases } from "../../../src/store/cases.js";
import { closeDatabase, type Db, immediate, openDatabase } from "../../../src/store/database.js";
import { type HearingNews, recordHearing } from "../../../src/store/datajud-hearings.js";
import { readIcs } from "../../support/ics-reader.js";
import { makeTempDir } from "../../support/temp-dir.js";

/*
 * A hearing whose date DataJud states reaches the calendar feed as DJEN's sessions do: one event,
 * moved in place when the court gives it a new date (SEQUENCE + 1) and CANCELLED when it cancels
 * it (issue 34).
 */

const ANA = "ana@example.com";
const DIGITS = "07133834320258070006";
const SETTINGS: FeedSettings = {
  reminderBusinessDays: [],
  reminderTime: "09:00",
  pastDays: 30,
  maxEvents: 2000,
  refreshMinutes: 60,
  sessionMinutes: 90,
};

let db: Db;

beforeEach(() => {
  db = openDatabase(join(makeTempDir("datajud-hearings-"), "monitor.db"));
  immediate(db, () =>
    syncWatchedCases(
      db,
      [
        {
          number: "0713383-43.2025.8.07.0006",
          digits: DIGITS,
          court: "tjdft",
          label: "Despejo",
          watchers: [ANA],
        },
      ],
      "2026-11-01T10:00:00.000Z",
    ),
  );
});

afterEach(() => closeDatabase(db));

function news(patch: Partial<HearingNews>): HearingNews {
  const kase = findCasesByNumber(db, DIGITS)[0];
  if (kase === undefined) throw new Error("no case");
  return {
    caseId: kase.id,
    subject: `datajud-hearing:${kase.id}:G1:audiencia-de-instrucao`,
    title: "Audiência de instrução",
    instance: "G1",
    when: { date: "2026-12-10", time: "14:00", quote: "designada para 10/12/2026 às 14h00" },
    cancelled: false,
    at: "2026-11-20T17:10:00.000Z",
    recipients: [ANA],
    ...patch,
  };
}

function events(watcher: string | null) {
  const feed = calendarFeed(db, { watcher, since: null, until: null }, SETTINGS, {
    now: new Date("2026-11-25T12:00:00.000Z"),
    calendars: calendarsWith(),
  });
  return readIcs(feed.ics).events;
}

describe("a hearing whose date DataJud states, in the calendar feed", () => {
  it("is one timed event at the court's wall clock, for the case's watchers", () => {
    expect(immediate(db, () => recordHearing(db, news({})))).toBe(true);

    const [event] = events(ANA);

    expect(event).toMatchObject({
      sequence: 0,
      status: "CONFIRMED",
      summary: "Audiência de instrução: Despejo · 0713383-43.2025.8.07.0006",
      tzid: "America/Sao_Paulo",
      start: "2026-12-10T17:00:00.000Z",
    });
    expect(event?.description).toContain(
      'Audiência de instrução em 10/12/2026 às 14:00 (horário do tribunal, America/Sao_Paulo), segundo o próprio movimento no DataJud: "designada para 10/12/2026 às 14h00".',
    );
    expect(events("rui@example.com")).toEqual([]);
  });

  it("moves the same event when re-scheduled, and cancels it when the court cancels it", () => {
    immediate(db, () => recordHearing(db, news({})));
    const uid = events(ANA)[0]?.uid;

    expect(immediate(db, () => recordHearing(db, news({})))).toBe(false);
    immediate(db, () =>
      recordHearing(
        db,
        news({
          when: { date: "2026-12-17", time: "09:30", quote: "redesignada para 17/12/2026 às 9h30" },
        }),
      ),
    );
    const moved = events(ANA);
    immediate(db, () => recordHearing(db, news({ when: null, cancelled: true })));
    const cancelled = events(ANA);

    expect(moved.map((e) => [e.uid, e.sequence, e.start, e.status])).toEqual([
      [uid, 1, "2026-12-17T12:30:00.000Z", "CONFIRMED"],
    ]);
    expect(moved[0]?.description).toContain(
      "Remarcada: a data anterior desta audiência não vale mais.",
    );
    expect(cancelled.map((e) => [e.uid, e.sequence, e.status])).toEqual([[uid, 2, "CANCELLED"]]);
    expect(cancelled[0]?.summary).toMatch(/^CANCELADA: Audiência de instrução/);
  });

  it("has no event to cancel for a hearing whose date DataJud never stated", () => {
    expect(immediate(db, () => recordHearing(db, news({ when: null, cancelled: true })))).toBe(
      false,
    );
    expect(events(null)).toEqual([]);
  });
});
