import { join } from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { calendarsWith } from "../../../src/deadlines/publication-estimate.js";
import { toPublication } from "../../../src/djen/publication.js";
import { RawItem } from "../../../src/djen/raw-schemas.js";
import { reportPublications } from "../../../src/monitor/report/report-publications.js";
import { PublicationAlertContent } from "../../../src/notify/render/publication-alert.js";
import { NO_ALERT_POLICY } from "../../../src/policy/alert-rules.js";
import { getCase, syncWatchedCases } from "../../../src/store/cases.js";
import { closeDatabase, type Db, immediate, openDatabase } from "../../../src/store/database.js";
import { estimatesOfWatcher, getEstimate } from "../../../src/store/deadline-estimates.js";
import { upsertInstance } from "../../../src/store/instances.js";
import { getPublication, insertPublication } from "../../../src/store/publications.js";
import { startRun } from "../../../src/store/runs.js";
import type { CourtClosure } from "../../../src/time/court-calendar.js";
import { parseWatchlist } from "../../../src/watchlist/parse-watchlist.js";
import { FakeClock } from "../../fakes/fake-clock.js";
import { djenItem } from "../../fakes/fake-djen.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { caseRecord } from "../../unit/store/store-fixtures.js";

/*
 * A closure configured after an alert moves the open estimate on the next sweep, and those told
 * of the publication get one correction with the old and new dates; sweeps after it send nothing.
 */

const ANA = "ana@example.com";
const CASE = "07133834320258070006";

/** Made available Fri 17/10/2025: published Mon 20/10, counts from Tue 21/10; 5 business days
 * end Mon 27/10 (CPC arts. 219, 224; Lei 11.419/2006 art. 4 §§3-4). */
const TEXT = "Manifeste-se a parte autora no prazo de 5 (cinco) dias.";

/** The TJDFT suspends deadlines on 21-22/10 (system down): the count starts Thu 23/10 and its
 * fifth business day is Wed 29/10 (23, 24, 27, 28, 29). */
const SUSPENSION: CourtClosure = {
  court: "tjdft",
  municipalities: [],
  from: "2025-10-21",
  to: "2025-10-22",
  effect: "suspended",
  reason: "suspensão de prazos: PJe indisponível",
  source: "Portaria GPR 1.234/2025 (configuração)",
  url: null,
};

let db: Db;
let runId: number;

/** The unit DJEN names, and the IBGE code DataJud gives for its seat (Brasília). */
const CEILANDIA_UNIT = "1ª Vara Cível de Ceilândia";
const BRASILIA = 5300108;

/** The watched case, with its first-instance record as DataJud gave it (the unit's seat). */
function watchedCaseAt(unit: string, municipality: number): number {
  return immediate(db, () => {
    syncWatchedCases(
      db,
      [
        {
          number: "0713383-43.2025.8.07.0006",
          digits: CASE,
          court: "tjdft",
          label: "Despejo",
          watchers: [ANA],
        },
      ],
      "2025-10-01T12:00:00.000Z",
    );
    const caseId = getCase(db, CASE, "tjdft")?.id ?? -1;
    upsertInstance(db, {
      caseId,
      record: caseRecord({
        courtUnit: { code: 1, name: unit, nameRaw: unit, municipalityCode: municipality },
      }),
      fingerprint: null,
      at: "2025-10-01T12:00:00.000Z",
      changeId: null,
    });
    return caseId;
  });
}

function watchlist() {
  const parsed = parseWatchlist(
    `cases:\n  - number: "0713383-43.2025.8.07.0006"\n    label: Despejo\n    notify: [${ANA}]\n`,
    "watchlist.yaml",
  );
  if (!parsed.ok) throw new Error("bad watchlist");
  return parsed.watchlist;
}

function report(at: string, closures: readonly CourtClosure[]) {
  return reportPublications({
    db,
    clock: new FakeClock({ now: Date.parse(at) }),
    logger: pino({ level: "silent" }),
    mailDomain: "monitor.example",
    cases: watchlist().cases,
    oab: [],
    defaultRules: NO_ALERT_POLICY,
    notifyOnBaseline: false,
    calendars: calendarsWith(closures),
  });
}

function outbox(): Array<{ recipient: string; subject: string; payload: PublicationAlertContent }> {
  return db
    .prepare<[], { recipient: string; subject: string; payload: string }>(
      "SELECT recipient, subject, payload FROM outbox ORDER BY id",
    )
    .all()
    .map((r) => ({ ...r, payload: PublicationAlertContent.parse(JSON.parse(r.payload)) }));
}

beforeEach(() => {
  db = openDatabase(join(makeTempDir("estimates-"), "monitor.db"));
  const raw = djenItem({ id: 501, date: "2025-10-17", texto: TEXT, caseNumber: CASE });
  const result = toPublication(RawItem.parse(raw), raw, { baseUrl: "https://djen.example" });
  if (!result.ok) throw new Error(result.problem);
  const { text, raw: _raw, ...publication } = result.value;
  immediate(db, () => {
    runId = startRun(db, { startedAt: "2025-10-17T12:00:00.000Z", trigger: "manual" });
    insertPublication(db, {
      djenId: "501",
      caseNumber: CASE,
      court: "TJDFT",
      availableOn: "2025-10-17",
      kind: "Intimação",
      documentType: "Despacho",
      courtUnit: publication.courtUnit,
      publication,
      text,
      raw,
      foundBy: `case:${CASE}`,
      firstSeenAt: "2025-10-17T12:00:00.000Z",
      runId,
      baseline: false,
    });
  });
});

afterEach(() => closeDatabase(db));

describe("a configured suspension and an open estimate", () => {
  it("moves the estimate on the next sweep and mails one correction, then nothing", () => {
    report("2025-10-17T12:05:00.000Z", []);
    const alert = outbox();
    expect(alert.map((m) => [m.recipient, m.payload.notice, m.payload.lastDay])).toEqual([
      [ANA, "published", "2025-10-27"],
    ]);

    // The operator configures the court's suspension; the next sweep re-estimates.
    const second = report("2025-10-20T12:00:00.000Z", [SUSPENSION]);
    const third = report("2025-10-20T18:00:00.000Z", [SUSPENSION]);

    const mails = outbox();
    expect(second).toMatchObject({ reestimated: 1, emailsQueued: 1 });
    expect(third).toMatchObject({ reestimated: 0, emailsQueued: 0 });
    expect(mails).toHaveLength(2);
    const correction = mails[1];
    expect(correction?.recipient).toBe(ANA);
    expect(correction?.subject).toBe(
      "[datajud] ⚠ URGENTE Prazo reestimado: Despejo (Intimação de 17/10/2025) (prazo até 29/10/2025, estimativa)",
    );
    expect(correction?.payload).toMatchObject({
      notice: "re-estimated",
      countingStartsOn: "2025-10-23",
      lastDay: "2025-10-29",
      previous: { countingStartsOn: "2025-10-21", lastDay: "2025-10-27" },
    });
    expect(correction?.payload.countingReasons).toEqual([
      "suspensão de prazos: PJe indisponível, 21/10/2025 a 22/10/2025 (Portaria GPR 1.234/2025 (configuração))",
    ]);
    const publicationId = getPublication(db, "501")?.id ?? -1;
    expect(getEstimate(db, publicationId)).toMatchObject({
      revision: 2,
      toldRevision: 2,
      lastDay: "2025-10-29",
    });
  });

  it("keeps the estimates queryable per watcher, with a stable identity", () => {
    report("2025-10-17T12:05:00.000Z", []);

    expect(estimatesOfWatcher(db, "ANA@example.com")).toEqual([
      expect.objectContaining({
        subject: "djen:501",
        djenId: "501",
        rule: "intimacao",
        lastDay: "2025-10-27",
        cancelled: false,
      }),
    ]);
    expect(estimatesOfWatcher(db, "someone@example.com")).toEqual([]);
  });

  it("applies a closure of one seat only to the publications of a unit sitting there", () => {
    const caseId = watchedCaseAt(CEILANDIA_UNIT, BRASILIA);
    expect(caseId).toBeGreaterThan(0);
    const atSeat = { ...SUSPENSION, municipalities: [BRASILIA] };
    const elsewhere = { ...SUSPENSION, municipalities: [BRASILIA + 1] };

    report("2025-10-17T12:05:00.000Z", [elsewhere]);
    const unmoved = report("2025-10-20T12:00:00.000Z", [elsewhere]);
    const moved = report("2025-10-20T13:00:00.000Z", [atSeat]);

    expect(unmoved).toMatchObject({ reestimated: 0 });
    expect(moved).toMatchObject({ reestimated: 1, emailsQueued: 1 });
    expect(outbox().map((m) => m.payload.lastDay)).toEqual(["2025-10-27", "2025-10-29"]);
  });

  it("leaves a closed estimate alone: a suspension after its last day moves nothing", () => {
    report("2025-10-17T12:05:00.000Z", []);

    const later = report("2025-11-03T12:00:00.000Z", [
      { ...SUSPENSION, from: "2025-10-21", to: "2025-10-22" },
    ]);

    expect(later).toMatchObject({ reestimated: 0, emailsQueued: 0 });
    expect(outbox()).toHaveLength(1);
  });
});
