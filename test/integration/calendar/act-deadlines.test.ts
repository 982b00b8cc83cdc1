import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { actEvents } from "../../../src/calendar/act-events.js";
import { calendarFeed, type FeedSettings } from "../../../src/calendar/feed.js";
import type { FeedEstimate } from "../../../src/calendar/feed-events.js";
import type { InstanceRecord } from "../../../src/datajud/instance-record.js";
import { normalizeInstanceRecord } from "../../../src/datajud/normalize.js";
import { calendarsWith, estimatePublication } from "../../../src/deadlines/publication-estimate.js";
import { toPublication } from "../../../src/djen/publication.js";
import { RawItem } from "../../../src/djen/raw-schemas.js";
import { recordActDates } from "../../../src/monitor/report/act-dates.js";
import { estimateDates } from "../../../src/monitor/report/publication-estimates.js";
import { calendarActDeadlines } from "../../../src/store/act-deadlines.js";
import { type CaseRow, findCasesByNumber, syncWatchedCases } from "../../../src/store/cases.js";
import { closeDatabase, type Db, immediate, openDatabase } from "../../../src/store/database.js";
import { actDeadline } from "../../../src/summarize/act-deadlines.js";
import { djenItem } from "../../fakes/fake-djen.js";
import { readIcs } from "../../support/ics-reader.js";
import { loadRealHits, type RawMovement, realHit } from "../../support/real-datajud.js";
import { makeTempDir } from "../../support/temp-dir.js";

/*
 * An act's dated periods reach the calendar feed (issue 34's leftover): the real tjdft record's
 * sentence (TPU 220, Tue 14/07/2020) and its 1061 Disponibilização of Thu 16/07/2020.
 *
 * By hand: published on the next business day, Fri 17/07 (Lei 11.419/2006 art. 4 § 3); counted
 * from the next, Mon 20/07 (§ 4; CPC art. 224 § 3). Embargos, 5 dias úteis (CPC art. 1.023, art.
 * 219): 20, 21, 22, 23, 24/07 -> Fri 24/07/2020. Apelação, 15 dias úteis (art. 1.003 § 5): 20-24/07
 * (5), 27-31/07 (10), 03-07/08 (15) -> Fri 07/08/2020; no holiday of the DF or the nation between.
 * The court re-dates the 1061 to Fri 17/07: published Mon 20/07, counted from Tue 21/07; embargos
 * 21-24/07 (4), 27/07 -> Mon 27/07/2020; apelação 21-24/07 (4), 27-31/07 (9), 03-07/08 (14),
 * 10/08 -> Mon 10/08/2020.
 */

const ANA = "ana@example.com";
const DIGITS = "00125906120158070018";
const SETTINGS: FeedSettings = {
  reminderBusinessDays: [1],
  reminderTime: "09:00",
  pastDays: 30,
  maxEvents: 2000,
  refreshMinutes: 60,
  sessionMinutes: 60,
};
const hits = loadRealHits();
const calendars = calendarsWith();

let db: Db;
let kase: CaseRow;

beforeEach(() => {
  db = openDatabase(join(makeTempDir("act-deadlines-feed-"), "monitor.db"));
  immediate(db, () =>
    syncWatchedCases(
      db,
      [
        {
          number: "0012590-61.2015.8.07.0018",
          digits: DIGITS,
          court: "tjdft",
          label: "Cobrança",
          watchers: [ANA],
        },
      ],
      "2020-07-01T10:00:00.000Z",
    ),
  );
  const found = findCasesByNumber(db, DIGITS)[0];
  if (found === undefined) throw new Error("no case");
  kase = found;
});

afterEach(() => closeDatabase(db));

/** The record up to 16/07/2020 with its 1061 on `day` (null: without it). */
function recordWith(day: string | null): InstanceRecord {
  const doc = realHit(hits, "tjdft", DIGITS, "G1");
  const source = doc._source as { movimentos: RawMovement[] };
  source.movimentos = source.movimentos
    .filter((m) => String(m.dataHora) <= "2020-07-16T23:59:59")
    .flatMap((m) => {
      if (m.codigo !== 1061 || m.dataHora !== "2020-07-16T02:42:08.000Z") return [m];
      return day === null ? [] : [{ ...m, dataHora: `${day}T02:42:08.000Z` }];
    });
  return normalizeInstanceRecord(doc, "tjdft");
}

/** What an alert on the record dates and records, as the summary's transaction does. */
function alerted(record: InstanceRecord): void {
  const sentence = record.movements.find((m) => m.code === 220);
  if (sentence === undefined) throw new Error("no sentence");
  const act = actDeadline({
    instance: "G1",
    act: sentence,
    record,
    caseNumber: DIGITS,
    publications: [],
    calendars,
  });
  if (act === null) throw new Error("the sentence opens no period");
  immediate(db, () => recordActDates(db, kase, [act], [record], "2020-07-18T12:00:00.000Z"));
}

function events(watcher: string | null) {
  const feed = calendarFeed(db, { watcher, since: null, until: null }, SETTINGS, {
    now: new Date("2020-07-18T12:00:00.000Z"),
    calendars,
  });
  return readIcs(feed.ics).events;
}

describe("an act's dated periods in the calendar feed", () => {
  it("are one all-day estimate per period, for the case's watchers", () => {
    alerted(recordWith("2020-07-16"));

    const feed = events(ANA);

    expect(feed.map((e) => [e.start, e.summary, e.sequence, e.transparency])).toEqual([
      [
        "2020-07-24",
        "Último dia do prazo (embargos de declaração, 5 dias úteis), estimativa: Cobrança · 0012590-61.2015.8.07.0018",
        0,
        "TRANSPARENT",
      ],
      [
        "2020-08-07",
        "Último dia do prazo (apelação, 15 dias úteis), estimativa: Cobrança · 0012590-61.2015.8.07.0018",
        0,
        "TRANSPARENT",
      ],
    ]);
    const description = feed[1]?.description ?? "";
    expect(description).toContain(
      "Último dia do prazo: 07/08/2020 (sexta-feira) (ESTIMATIVA; confira no tribunal).",
    );
    expect(description).toContain(
      "Ato: Sentença (Julgado improcedente o pedido) de 14/07/2020, segundo o DataJud.",
    );
    expect(description).toContain(
      "Prazo: apelação (15 dias úteis; CPC, art. 1.003, § 5º; dias úteis, art. 219).",
    );
    expect(description).toContain(
      "Publicação considerada feita em 17/07/2020 (sexta-feira) (disponibilização no Diário em 16/07/2020, segundo o DataJud); o prazo conta de 20/07/2020 (segunda-feira). Regra: Intimação pelo DJe",
    );
    expect(description).toContain("Calendário do tribunal: ");
    // One business day before each last day: Thu 23/07 and Thu 06/08, at 09:00.
    expect(feed.map((e) => e.alarms.map((a) => a.trigger))).toEqual([["-PT15H"], ["-PT15H"]]);
    expect(events("rui@example.com")).toEqual([]);
  });

  it("moves the same events when the court re-dates the Diário, and keeps them when an alert cannot date the act", () => {
    alerted(recordWith("2020-07-16"));
    const uids = events(ANA).map((e) => e.uid);

    alerted(recordWith("2020-07-17"));
    const moved = events(ANA);
    alerted(recordWith("2020-07-17"));
    const again = events(ANA);
    alerted(recordWith(null));
    const undated = events(ANA);

    expect(moved.map((e) => [e.uid, e.start, e.sequence])).toEqual([
      [uids[0], "2020-07-27", 1],
      [uids[1], "2020-08-10", 1],
    ]);
    expect(moved[0]?.description).toContain(
      "Data revista: a data anterior deste prazo não vale mais.",
    );
    expect(again.map((e) => [e.start, e.sequence])).toEqual([
      ["2020-07-27", 1],
      ["2020-08-10", 1],
    ]);
    expect(undated.map((e) => [e.start, e.sequence])).toEqual([
      ["2020-07-27", 1],
      ["2020-08-10", 1],
    ]);
  });
});

/** A DJEN item of the case as the feed reads its estimate. */
function djenRow(id: number, date: string, texto: string, lastDay?: string): FeedEstimate {
  const raw = djenItem({ id, date, caseNumber: DIGITS, documentType: "Sentença", texto });
  const result = toPublication(RawItem.parse(raw), raw, { baseUrl: "https://djen.example" });
  if (!result.ok) throw new Error(result.problem);
  const { text, raw: _raw, ...publication } = result.value;
  const made = estimatePublication(publication, text, calendars);
  const estimate =
    lastDay === undefined || made.period === null
      ? made
      : { ...made, lastDay, period: { ...made.period, lastDay } };
  return {
    subject: `djen:${id}`,
    revision: 1,
    ...estimateDates(estimate),
    estimate,
    seat: null,
    djenId: String(id),
    publication,
    cancelled: false,
    caseLabel: "Cobrança",
  };
}

describe("an act and a DJEN item that are the same intimação", () => {
  const fifteen = "<p>SENTENÇA. Julgo improcedente o pedido. Prazo de 15 (quinze) dias.</p>";

  function fold(rows: FeedEstimate[]) {
    const acts = calendarActDeadlines(db, { recipient: ANA, since: null, until: null, limit: 10 });
    return actEvents(acts, rows, {
      since: null,
      until: null,
      reminderBusinessDays: [],
      reminderTime: "09:00",
      calendars,
    });
  }

  it("show the period once, in the act's event, when the DJEN item's day is the same", () => {
    alerted(recordWith("2020-07-16"));
    // Made available Thu 16/07/2020 like the 1061: 15 dias úteis from Mon 20/07 end Fri 07/08.
    const same = djenRow(9001, "2020-07-16", fifteen);
    expect(same.lastDay).toBe("2020-08-07");

    const { events: shown, covered } = fold([same]);
    const [apelacao, embargos] = shown;

    expect(covered("djen:9001", 0)).toBe(true);
    expect(apelacao?.when.date).toBe("2020-08-07");
    expect(apelacao?.description).toContain(
      "A mesma intimação está no DJEN (publicação 9001): o prazo do texto termina no mesmo dia.",
    );
    expect(apelacao?.url).toMatch(/^https:\/\/djen\.example\//u);
    expect(embargos?.description).not.toContain("publicação 9001");
  });

  it("show the earlier day when the DJEN item's is earlier, and keep another intimação apart", () => {
    alerted(recordWith("2020-07-16"));
    // The same intimação dated a day earlier by DJEN's estimate (Thu 06/08, not Fri 07/08): one
    // event still, on the earlier day; its reminders and SEQUENCE follow it.
    const earlier = djenRow(9002, "2020-07-16", fifteen, "2020-08-06");
    // Made available Fri 17/07: another publication, whatever its period.
    const other = djenRow(9003, "2020-07-17", fifteen);

    const { events: shown, covered } = fold([earlier, other]);

    expect(covered("djen:9002", 0)).toBe(true);
    expect(covered("djen:9003", 0)).toBe(false);
    expect(shown.map((e) => e.when.date)).toEqual(["2020-08-06", "2020-07-24"]);
    expect(shown[0]?.description).toContain("Último dia do prazo: 06/08/2020 (quinta-feira)");
    expect(shown[0]?.description).toContain(
      "A mesma intimação está no DJEN (publicação 9002): o prazo do texto termina em 06/08/2020 (quinta-feira), e pelo DataJud em 07/08/2020 (sexta-feira): vale a mais cedo, a deste evento.",
    );
  });
});
