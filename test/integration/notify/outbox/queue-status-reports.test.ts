import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { queueStatusReports } from "../../../../src/notify/outbox/queue-status-reports.js";
import { renderStatusReport, StatusReport } from "../../../../src/notify/render/status-report.js";
import type { DjenView } from "../../../../src/policy/djen-plan.js";
import { mailPolicy } from "../../../../src/policy/mail-policy.js";
import { findCasesByNumber, syncWatchedCases } from "../../../../src/store/cases.js";
import { recordCheck } from "../../../../src/store/checks.js";
import { recordDjenSourceFailure, recordDjenSourceOk } from "../../../../src/store/djen-sources.js";
import { ledgerEntries } from "../../../../src/store/ledger.js";
import {
  insertPublication,
  markPublicationCancelled,
  setPublicationDisposition,
} from "../../../../src/store/publications.js";
import { startRun } from "../../../../src/store/runs.js";
import { parseWatchlist, type Watchlist } from "../../../../src/watchlist/parse-watchlist.js";
import { DOMAIN, type TempStore, tempStore } from "../../../support/outbox-store.js";

/*
 * The status report's DJEN part, from a real database: each case number's and registration's
 * last DJEN check, and the publications read (or seen cancelled) since the schedule's previous
 * hour, each watcher's own: those of their cases and those found through their registrations.
 */

const ANA = "ana@example.com";
const JOAO = "joao@example.com";
const DESPEJO = "0713383-43.2025.8.07.0006";
const DESPEJO_DIGITS = DESPEJO.replace(/\D/g, "");
const OUTSIDE_DIGITS = "10352894820228260602";

/** Monday 6 October 2025, 08:30 in São Paulo: the Monday 08:00 reports are due. */
const NOW = new Date("2025-10-06T11:30:00.000Z");

const WATCHLIST = `
defaults:
  notify: [${ANA}]
cases:
  - number: "${DESPEJO}"
    label: "Despejo"
watchers:
  - address: ${ANA}
    status_report: "0 8 * * 1"
  - address: ${JOAO}
    status_report: "0 8 * * 1"
    oab: ["123456/SP"]
`;

let store: TempStore;
let watchlist: Watchlist;
let runId: number;

function publish(
  id: string,
  caseNumber: string,
  firstSeenAt: string,
  foundBy: string,
  availableOn = "2025-09-30",
  lawyers: Array<{ oabDigits: string; uf: string }> = [],
): void {
  insertPublication(store.db, {
    djenId: id,
    caseNumber,
    court: caseNumber === DESPEJO_DIGITS ? "TJDFT" : "TJSP",
    availableOn,
    kind: "Intimação",
    documentType: "Despacho",
    courtUnit: "1ª Vara Cível",
    publication: { cancellation: null, lawyers },
    text: "Fica a parte intimada.",
    raw: {},
    foundBy,
    firstSeenAt,
    runId,
    baseline: false,
  });
  const row = store.db
    .prepare<[string], { id: number }>("SELECT id FROM publications WHERE djen_id = ?")
    .get(id);
  setPublicationDisposition(store.db, row?.id ?? -1, "alert", firstSeenAt);
}

function reports(): Map<string, { subject: string; report: StatusReport }> {
  const rows = store.db
    .prepare<[], { recipient: string; subject: string; payload: string }>(
      "SELECT recipient, subject, payload FROM outbox WHERE kind = 'report' ORDER BY id",
    )
    .all();
  return new Map(
    rows.map((r) => [
      r.recipient,
      { subject: r.subject, report: StatusReport.parse(JSON.parse(r.payload)) },
    ]),
  );
}

beforeEach(() => {
  store = tempStore("status-report-djen-");
  const parsed = parseWatchlist(WATCHLIST, "watchlist.yaml");
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  watchlist = parsed.watchlist;
  syncWatchedCases(
    store.db,
    watchlist.cases.map((c) => ({ ...c, watchers: c.notify })),
    "2025-09-01T10:00:00.000Z",
  );
  runId = startRun(store.db, { startedAt: "2025-09-01T10:00:00.000Z", trigger: "manual" });
  // Read before the period (the previous Monday, 29/09 08:00): in last week's report.
  publish("1", DESPEJO_DIGITS, "2025-09-22T13:00:00.000Z", `case:${DESPEJO_DIGITS}`, "2025-09-22");
  // Read before the period, cancelled in it: news of this week.
  publish("2", DESPEJO_DIGITS, "2025-09-23T13:00:00.000Z", `case:${DESPEJO_DIGITS}`, "2025-09-23");
  markPublicationCancelled(store.db, "2", {
    at: "2025-10-02T13:00:00.000Z",
    details: { reason: "Publicada por engano", at: null },
  });
  // Read this week: one for Ana's case, one through João's registration in a case outside.
  publish("3", DESPEJO_DIGITS, "2025-09-30T13:00:00.000Z", `case:${DESPEJO_DIGITS}`);
  publish("4", OUTSIDE_DIGITS, "2025-10-01T13:00:00.000Z", "oab:123456/SP");
  // Found through Ana's case, addressed to João's registration (stored as 123456-O): his too.
  publish("5", DESPEJO_DIGITS, "2025-10-02T13:00:00.000Z", `case:${DESPEJO_DIGITS}`, "2025-10-01", [
    { oabDigits: "123456", uf: "SP" },
  ]);
  recordDjenSourceOk(store.db, "case", DESPEJO_DIGITS, "2025-10-06T10:00:00.000Z");
  recordDjenSourceFailure(store.db, "oab", "123456/SP", "2025-10-06T10:00:00.000Z", {
    kind: "geo_blocked",
    message: "DJEN refused the request (HTTP 403)",
  });
});

afterEach(() => store.dispose());

function queue(djen?: DjenView, now = NOW): number {
  return queueStatusReports({
    ...(djen === undefined ? {} : { djen }),
    db: store.db,
    policy: mailPolicy(watchlist, {
      timezone: "America/Sao_Paulo",
      quietHours: null,
      urgentBypassesQuietHours: false,
      defaultDelivery: "instant",
    }),
    cases: watchlist.cases,
    oab: watchlist.oab,
    now,
    staleAfterDays: 90,
    domain: DOMAIN,
  });
}

describe("a status report as a receipt", () => {
  it("counts the period's checks in the record of watching and cites where its chain stands", () => {
    const caseId = findCasesByNumber(store.db, DESPEJO_DIGITS)[0]?.id ?? -1;
    const check = (checkedAt: string) =>
      recordCheck(store.db, {
        runId,
        caseId,
        checkedAt,
        outcome: "unchanged",
        fingerprint: "fp",
        newMovements: 0,
        errorKind: null,
        error: null,
        datajudFetchedAt: checkedAt,
      });
    // Before the period (Monday 29/09 08:00 in São Paulo), then two in it; beforeEach's DJEN
    // answer of 06/10 07:00 is the period's third check.
    check("2025-09-26T13:00:00.000Z");
    check("2025-10-01T13:00:00.000Z");
    check("2025-10-03T13:00:00.000Z");

    queue();

    const record = reports().get(ANA)?.report.cases[0]?.record;
    const entries = ledgerEntries(store.db, DESPEJO_DIGITS, null);
    const head = entries.at(-1)?.hash ?? "";
    expect(record).toEqual({ checks: 3, head });
    expect(renderStatusReport(reports().get(ANA)?.report as StatusReport).text).toContain(
      `Registro de acompanhamento: 3 consultas registradas no período; cadeia em ${head.slice(0, 16)} (datajud-monitor proof ${DESPEJO})`,
    );
  });
});

describe("status reports with DJEN", () => {
  it("says when a source's next look is due, and with DJEN off, that it is off and nothing failing", () => {
    queue({ enabled: true, plan: { caseEveryHours: 8, oabEveryHours: 2 } });
    const on = reports().get(ANA);
    store.db.prepare("DELETE FROM outbox").run();
    queue({ enabled: false, plan: null });
    const ana = reports().get(ANA);
    const joao = reports().get(JOAO);

    // Answered Monday 6 October 2025 at 07:00 (São Paulo), a working day: due 8 hours later.
    expect(renderStatusReport(on?.report as StatusReport).text).toContain(
      "Última consulta ao DJEN: 06/10/2025 07:00 (ok); próxima a partir de 06/10/2025 15:00",
    );
    expect(ana?.report.djenOff).toBe(true);
    expect(ana?.report.cases[0]?.djen).toBeNull();
    // João's registration was refused (403) before DJEN was switched off: not failing now.
    expect(joao?.report.oab).toEqual([{ registration: "123456/SP", djen: null }]);
    expect(joao?.subject).not.toMatch(/⚠|sem resposta do DJEN/);
    expect(renderStatusReport(joao?.report as StatusReport).text).toContain(
      "DJEN desligado neste monitor (djen.enabled: false): nenhuma publicação é consultada.",
    );
  });

  it("lists the watcher's case publications of the week, a cancellation included, with the last DJEN check", () => {
    const queued = queue();

    expect(queued).toBe(2);
    const ana = reports().get(ANA);
    expect(ana?.report.periodStart).toBe("2025-09-29T11:00:00.000Z");
    expect(ana?.report.cases[0]?.djen).toMatchObject({ lastOutcome: "ok" });
    expect(ana?.report.oab).toEqual([]);
    expect(ana?.report.publications.map((p) => [p.djenId, p.cancelled])).toEqual([
      ["2", true],
      ["3", false],
      ["5", false],
    ]);
    expect(ana?.subject).toBe("[datajud] Relatório: 1 processo acompanhado, 3 publicações no DJEN");
    const { text } = renderStatusReport(ana?.report as StatusReport);
    expect(text).toContain("PUBLICAÇÕES NO DJEN NO PERÍODO (3)");
    expect(text).toContain("1. Intimação · Despacho · Despejo");
    expect(text).toContain(
      "Disponibilizada em 23/09/2025 (terça-feira); publicada em 24/09/2025; prazo a partir de 25/09/2025 (estimativas)",
    );
    expect(text).toContain("Cancelada pelo tribunal; motivo: Publicada por engano");
    expect(text).toContain("nunca depois da resposta da lei");
    expect(text).toContain("Última consulta ao DJEN: 06/10/2025 07:00 (ok)");
  });

  it("gives a watcher who follows only a registration its check and the publications found through it", () => {
    queue();

    const joao = reports().get(JOAO);
    expect(joao?.report.cases).toEqual([]);
    expect(joao?.report.oab).toEqual([
      {
        registration: "123456/SP",
        djen: expect.objectContaining({ lastOutcome: "failed", consecutiveFailures: 1 }),
      },
    ]);
    expect(joao?.report.publications).toEqual([
      expect.objectContaining({
        djenId: "4",
        caseNumber: "1035289-48.2022.8.26.0602",
        inWatchlist: false,
        publishedOn: "2025-10-01",
        countingStartsOn: "2025-10-02",
      }),
      expect.objectContaining({ djenId: "5", label: "Despejo", inWatchlist: true }),
    ]);
    expect(joao?.subject).toBe(
      "[datajud] ⚠ Relatório: 1 OAB, 1 sem resposta do DJEN, 2 publicações no DJEN",
    );
    const { text } = renderStatusReport(joao?.report as StatusReport);
    expect(text).toContain("Relatório de acompanhamento: 1 OAB\n");
    expect(text).not.toContain("TODOS OS PROCESSOS");
    expect(text).toContain(
      "Intimação · Despacho · 1035289-48.2022.8.26.0602 (processo fora da lista)",
    );
    expect(text).toMatch(
      /- OAB 123456\/SP: Última consulta ao DJEN: 06\/10\/2025 07:00 \(falhou\)\. A última consulta ao DJEN falhou .*HTTP 403/,
    );
  });
});

describe("when a status report is due", () => {
  const HOUR = 3_600_000;

  it("queues each watcher's report once per fire, however often it is asked", () => {
    expect(queue()).toBe(2);
    expect(queue()).toBe(0);
    expect(queue(undefined, new Date(NOW.getTime() + HOUR))).toBe(0);
    expect([...reports().keys()]).toEqual([ANA, JOAO]);
  });

  it("still sends a fire missed while the monitor was down within a day of it, not later", () => {
    // Monday's 08:00 fire (11:00 UTC); the monitor comes back Tuesday 07:00, then 09:00.
    expect(queue(undefined, new Date("2025-10-07T12:00:00.000Z"))).toBe(0);
    expect(queue(undefined, new Date("2025-10-07T10:00:00.000Z"))).toBe(2);
    // The period still starts at the previous fire, Monday 29/09 08:00.
    expect(reports().get(ANA)?.report.periodStart).toBe("2025-09-29T11:00:00.000Z");
  });
});
