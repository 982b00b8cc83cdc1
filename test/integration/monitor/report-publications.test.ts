import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toPublication } from "../../../src/djen/publication.js";
import { RawItem } from "../../../src/djen/raw-schemas.js";
import { silentLogger } from "../../../src/log.js";
import { reportPublications } from "../../../src/monitor/report/report-publications.js";
import { NO_ALERT_POLICY } from "../../../src/policy/alert-rules.js";
import { closeDatabase, type Db, immediate, openDatabase } from "../../../src/store/database.js";
import {
  getPublication,
  insertPublication,
  markPublicationCancelled,
} from "../../../src/store/publications.js";
import { startRun } from "../../../src/store/runs.js";
import { parseWatchlist, type Watchlist } from "../../../src/watchlist/parse-watchlist.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { type DjenItemOptions, djenItem } from "../../fakes/fake-djen.js";
import { makeTempDir } from "../../support/temp-dir.js";

/*
 * The publications' report phase on its own (report-publications.ts): each stored publication is
 * decided once, its alert queued once per person it concerns (the case's watchers and the
 * registration's followers), a baseline kept quiet, and a cancellation corrected only to those
 * who were told.
 */

const WATCHED = "07133834320258070006";
const OUTSIDE = "10352894820228260602";
const NOW = "2025-10-17T12:05:00.000Z";

let db: Db;
let watchlist: Watchlist;

beforeEach(() => {
  db = openDatabase(join(makeTempDir("report-publications-"), "monitor.db"));
  const parsed = parseWatchlist(
    [
      "cases:",
      '  - number: "0713383-43.2025.8.07.0006"',
      "    notify: [ana@example.com]",
      "watchers:",
      "  - address: rui@example.com",
      '    oab: ["123456/SP"]',
      "",
    ].join("\n"),
    "watchlist.yaml",
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  watchlist = parsed.watchlist;
});

afterEach(() => closeDatabase(db));

function store(id: number, options: Partial<DjenItemOptions> & { baseline?: boolean } = {}): void {
  const raw = djenItem({ id, date: "2025-10-17", ...options });
  const result = toPublication(RawItem.parse(raw), raw, { baseUrl: "https://djen.example" });
  if (!result.ok) throw new Error(result.problem);
  const { text, raw: _raw, ...publication } = result.value;
  immediate(db, () => {
    const runId = startRun(db, { startedAt: NOW, trigger: "manual" });
    insertPublication(db, {
      djenId: String(id),
      caseNumber: publication.caseNumber,
      court: publication.court,
      availableOn: publication.availableOn,
      kind: publication.kind,
      documentType: publication.documentType,
      courtUnit: publication.courtUnit,
      publication,
      text,
      raw,
      foundBy: `case:${publication.caseNumber}`,
      firstSeenAt: NOW,
      runId,
      baseline: options.baseline ?? false,
    });
  });
}

function report(at = NOW) {
  return reportPublications({
    db,
    clock: new FakeClock({ now: Date.parse(at) }),
    logger: silentLogger(),
    mailDomain: "monitor.example.com",
    cases: watchlist.cases,
    oab: watchlist.oab,
    defaultRules: NO_ALERT_POLICY,
    notifyOnBaseline: false,
  });
}

function outbox(): string[] {
  return db
    .prepare<[], { key: string }>("SELECT dedupe_key AS key FROM outbox ORDER BY id")
    .all()
    .map((r) => r.key);
}

describe("reportPublications", () => {
  it("alerts each person a publication concerns once, those outside the watchlist first, a baseline quietly", () => {
    store(1, { caseNumber: WATCHED });
    store(2, { caseNumber: OUTSIDE, court: "TJSP" });
    store(3, { caseNumber: WATCHED, baseline: true });

    const first = report();
    const again = report();

    expect(first).toMatchObject({ reported: 3, emailsQueued: 3, corrections: 0 });
    expect(outbox()).toEqual([
      "publication:2:rui@example.com",
      "publication:1:ana@example.com",
      "publication:1:rui@example.com",
    ]);
    expect(getPublication(db, "3")?.disposition).toBe("baseline");
    expect(again).toMatchObject({ reported: 0, emailsQueued: 0 });
  });

  it("corrects a cancelled publication to those who were told, and to nobody when none was", () => {
    store(1, { caseNumber: WATCHED });
    report();
    store(2, { caseNumber: WATCHED });
    for (const id of ["1", "2"]) {
      const row = getPublication(db, id);
      if (row === undefined) throw new Error(`publication ${id}`);
      markPublicationCancelled(db, row.djenId, { at: NOW, details: { reason: "erro material" } });
    }

    const corrected = report("2025-10-18T12:00:00.000Z");

    expect(corrected.corrections).toBe(1);
    expect(outbox().filter((k) => k.startsWith("publication-cancelled:"))).toEqual([
      "publication-cancelled:1:ana@example.com",
      "publication-cancelled:1:rui@example.com",
    ]);
    expect(getPublication(db, "2")?.disposition).toBe("cancelled");
  });
});
