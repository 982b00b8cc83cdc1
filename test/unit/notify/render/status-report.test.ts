import { describe, expect, it } from "vitest";
import {
  buildStatusReport,
  renderStatusReport,
  StatusReport,
  StatusReportCase,
  type StatusReportInput,
} from "../../../../src/notify/render/status-report.js";
import type { StatusReportPublication } from "../../../../src/notify/render/status-report-djen.js";
import { type CaseAlertPolicy, NO_ALERT_POLICY } from "../../../../src/policy/alert-rules.js";
import type { CaseRow } from "../../../../src/store/cases.js";

const NOW = new Date("2026-06-01T12:00:00.000Z");
const DAY = 86_400_000;
const NUMBER = "0713383-43.2025.8.07.0006";

function daysAgo(days: number): string {
  return new Date(NOW.getTime() - days * DAY).toISOString();
}

/** A movement date `days` (and `ms`) before NOW as DataJud records it: São Paulo wall clock. */
function movedDaysAgo(days: number, ms = 0): string {
  const saoPaulo = new Date(NOW.getTime() - days * DAY + ms - 3 * 3_600_000);
  return saoPaulo.toISOString().slice(0, 19);
}

function row(patch: Partial<CaseRow> = {}): CaseRow {
  return {
    id: 1,
    number: NUMBER,
    digits: "07133834320258070006",
    court: "tjdft",
    label: null,
    watchers: ["ana@example.com"],
    watched: true,
    firstSeenAt: daysAgo(200),
    lastSeenAt: daysAgo(1),
    lastCheckedAt: daysAgo(1),
    lastChangedAt: null,
    lastFullReadAt: daysAgo(1),
    lastFingerprint: "fp",
    lastOutcome: "unchanged",
    lastError: null,
    consecutiveNotFound: 0,
    consecutiveFailures: 0,
    goneAt: null,
    foundIn: "tjdft",
    createdAt: daysAgo(200),
    ...patch,
  };
}

type InputCase = StatusReportInput["cases"][number];

function entry(patch: Partial<InputCase> = {}): InputCase {
  return {
    number: NUMBER,
    court: "tjdft",
    label: null,
    policy: NO_ALERT_POLICY,
    row: row(),
    lastMovementAt: movedDaysAgo(10),
    ...patch,
  };
}

function build(cases: InputCase[], staleAfterDays = 90): StatusReport {
  return buildStatusReport({ cases, now: NOW, staleAfterDays, timezone: "America/Sao_Paulo" });
}

function only(cases: InputCase[]): StatusReportCase {
  const [first] = build(cases).cases;
  if (first === undefined) throw new Error("no case in the report");
  return first;
}

function policy(patch: Partial<CaseAlertPolicy>): CaseAlertPolicy {
  return { ...NO_ALERT_POLICY, ...patch };
}

function reportOf(cases: StatusReportCase[]): StatusReport {
  return {
    generatedAt: NOW.toISOString(),
    staleAfterDays: 90,
    cases,
    oab: [],
    periodStart: null,
    publications: [],
    djenOff: false,
  };
}

describe("buildStatusReport", () => {
  it("says when a TRF1 number was last found in TRF6, and reads an older payload without it", () => {
    const moved = only([entry({ court: "trf1", row: row({ court: "trf1", foundIn: "trf6" }) })]);
    const older = StatusReportCase.parse({ ...only([entry()]), foundIn: undefined });

    const { text } = renderStatusReport(reportOf([moved]));

    expect(moved.foundIn).toBe("trf6");
    expect(text).toContain("TRF1 · encontrado no índice do TRF6 no DataJud");
    expect(older.foundIn).toBeNull();
  });

  it("reports a recently moved case as neither stale nor failing, and parses as its schema", () => {
    const report = build([entry()]);

    expect(StatusReport.parse(report)).toEqual(report);
    expect(report).toMatchObject({ generatedAt: NOW.toISOString(), staleAfterDays: 90 });
    expect(report.cases[0]).toMatchObject({
      caseNumber: NUMBER,
      court: "tjdft",
      lastOutcome: "unchanged",
      failing: false,
      stale: false,
      daysWithoutMovement: 10,
      muted: false,
      mutedUntil: null,
    });
  });

  it("counts whole days since the last movement and marks the case stale from staleAfterDays on", () => {
    const justUnder = only([entry({ lastMovementAt: movedDaysAgo(90, 1000) })]);
    const exactly = only([entry({ lastMovementAt: movedDaysAgo(90) })]);
    const future = only([entry({ lastMovementAt: movedDaysAgo(-3) })]);

    expect(justUnder).toMatchObject({ stale: false, daysWithoutMovement: 89 });
    expect(exactly).toMatchObject({ stale: true, daysWithoutMovement: 90 });
    expect(future).toMatchObject({ stale: false, daysWithoutMovement: 0 });
  });

  it("reads a movement date as the court's wall clock in São Paulo, whatever zone it is labelled with", () => {
    const wall = only([entry({ lastMovementAt: "2026-03-03T21:30:00" })]);
    const labelledZ = only([entry({ lastMovementAt: "2026-03-03T21:30:00.000Z" })]);
    const nextMorning = only([entry({ lastMovementAt: "2026-03-04T09:30:00" })]);

    expect([wall, labelledZ, nextMorning].map((c) => c.daysWithoutMovement)).toEqual([89, 89, 88]);
  });

  it("falls back to the last change, then the first read, when no movement date is known", () => {
    const changed = only([
      entry({
        lastMovementAt: null,
        row: row({ lastChangedAt: daysAgo(5), firstSeenAt: daysAgo(300) }),
      }),
    ]);
    const neverChanged = only([
      entry({ lastMovementAt: null, row: row({ lastChangedAt: null, firstSeenAt: daysAgo(120) }) }),
    ]);
    const movementWins = only([
      entry({ lastMovementAt: movedDaysAgo(100), row: row({ lastChangedAt: daysAgo(5) }) }),
    ]);

    expect(changed).toMatchObject({ stale: false, daysWithoutMovement: 5 });
    expect(neverChanged).toMatchObject({ stale: true, daysWithoutMovement: 120 });
    expect(movementWins).toMatchObject({ stale: true, daysWithoutMovement: 100 });
  });

  it("never calls a case not checked yet stale", () => {
    const noRow = only([entry({ row: undefined, lastMovementAt: null, label: "Novo" })]);
    const rowNotChecked = only([
      entry({
        row: row({ lastCheckedAt: null, lastOutcome: null }),
        lastMovementAt: movedDaysAgo(400),
      }),
    ]);

    expect(noRow).toMatchObject({
      label: "Novo",
      lastCheckedAt: null,
      lastOutcome: null,
      firstSeenAt: null,
      consecutiveFailures: 0,
      failing: false,
      stale: false,
      daysWithoutMovement: null,
    });
    expect(rowNotChecked).toMatchObject({ stale: false, daysWithoutMovement: null });
  });

  it("reports a gone case as gone, not stale", () => {
    const c = only([
      entry({
        lastMovementAt: movedDaysAgo(300),
        row: row({ goneAt: daysAgo(20), lastOutcome: "not_found", consecutiveNotFound: 5 }),
      }),
    ]);

    expect(c).toMatchObject({
      goneAt: daysAgo(20),
      stale: false,
      failing: false,
      daysWithoutMovement: 300,
    });
  });

  it("marks a case whose last check failed as failing, with its failures and error", () => {
    const c = only([
      entry({
        row: row({ lastOutcome: "failed", consecutiveFailures: 4, lastError: "HTTP 503" }),
      }),
    ]);

    expect(c).toMatchObject({ failing: true, consecutiveFailures: 4, lastError: "HTTP 503" });
  });

  it("takes the watchlist's label, falling back to the stored one", () => {
    const [fromWatchlist, fromRow, blank, none] = build([
      entry({ label: "Da lista", row: row({ label: "Do banco" }) }),
      entry({ label: null, row: row({ label: "Do banco" }) }),
      entry({ label: "  ", row: row({ label: "Do banco" }) }),
      entry({ label: null, row: row({ label: null }) }),
    ]).cases;

    expect(fromWatchlist?.label).toBe("Da lista");
    expect(fromRow?.label).toBe("Do banco");
    expect(blank?.label).toBe("Do banco");
    expect(none?.label).toBeNull();
  });

  it("keeps muted_until through its own day in the schedule's time zone, then unmutes", () => {
    // 2026-06-01T12:00Z is still 2026-06-01 in São Paulo, but already 2026-06-02 in Tokyo at 23:30Z.
    const lateUtc = new Date("2026-06-01T23:30:00.000Z");
    const at = (
      mutedUntil: string,
      timezone = "America/Sao_Paulo",
      now = NOW,
    ): StatusReportCase => {
      const [c] = buildStatusReport({
        cases: [entry({ policy: policy({ mutedUntil }) })],
        now,
        staleAfterDays: 90,
        timezone,
      }).cases;
      if (c === undefined) throw new Error("no case");
      return c;
    };

    expect(at("2026-06-01")).toMatchObject({ muted: true, mutedUntil: "2026-06-01" });
    expect(at("2027-01-31")).toMatchObject({ muted: true, mutedUntil: "2027-01-31" });
    expect(at("2026-05-31")).toMatchObject({ muted: false, mutedUntil: null });
    expect(at("2026-06-01", "America/Sao_Paulo", lateUtc)).toMatchObject({ muted: true });
    expect(at("2026-06-01", "Asia/Tokyo", lateUtc)).toMatchObject({ muted: false });
  });

  it("reports muted: true as muted for good, whatever muted_until says", () => {
    const c = only([entry({ policy: policy({ muted: true, mutedUntil: "2027-01-31" }) })]);

    expect(c).toMatchObject({ muted: true, mutedUntil: null });
  });

  it("keeps the watchlist order", () => {
    const report = build([
      entry({ number: "B", row: undefined }),
      entry({ number: "A", row: undefined }),
      entry({ number: "C", row: undefined }),
    ]);

    expect(report.cases.map((c) => c.caseNumber)).toEqual(["B", "A", "C"]);
  });

  it("refuses a stale threshold that is not a positive whole number", () => {
    expect(() => build([], 0)).toThrow(RangeError);
    expect(() => build([], 1.5)).toThrow(RangeError);
  });
});

describe("renderStatusReport", () => {
  const calm = only([entry({ label: "Silva x Souza", lastMovementAt: "2026-05-22T12:00:00" })]);
  const failing = only([
    entry({
      label: "Falhando",
      row: row({
        lastOutcome: "failed",
        consecutiveFailures: 3,
        lastCheckedAt: "2026-06-01T10:00:00.000Z",
        lastError: "HTTP 503 <html>busy</html>\r\nX-Injected: 1",
      }),
    }),
  ]);
  const stale = only([entry({ label: "Parado", lastMovementAt: movedDaysAgo(120) })]);
  const gone = only([
    entry({
      label: "Sumiu",
      row: row({ goneAt: "2026-05-20T10:00:00.000Z", lastOutcome: "not_found" }),
    }),
  ]);

  it("says only how many cases are watched when none needs attention", () => {
    const mail = renderStatusReport(reportOf([calm, calm]));
    const one = renderStatusReport(reportOf([calm]));

    expect(mail.subject).toBe("[datajud] Relatório: 2 processos acompanhados");
    expect(one.subject).toBe("[datajud] Relatório: 1 processo acompanhado");
    expect(mail.text).not.toContain("⚠");
    expect(mail.text).not.toContain("PRECISAM DE ATENÇÃO");
    expect(mail.html).not.toContain("Precisam de atenção");
  });

  it("marks and counts what needs attention in the subject", () => {
    const mail = renderStatusReport(reportOf([calm, failing, stale, failing, gone]));

    expect(mail.subject).toBe(
      "[datajud] ⚠ Relatório: 5 processos, 2 com falha, 1 fora do DataJud, 1 parado há 90+ dias",
    );
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });

  it("lists the cases needing attention first, then every case with its state", () => {
    const neverChecked = only([entry({ label: "Novo", row: undefined, lastMovementAt: null })]);

    const { text } = renderStatusReport(reportOf([calm, failing, stale, gone, neverChecked]));

    const attention = text.indexOf("⚠ PRECISAM DE ATENÇÃO (3)");
    const all = text.indexOf("TODOS OS PROCESSOS (5)");
    expect(attention).toBeGreaterThan(-1);
    expect(all).toBeGreaterThan(attention);
    expect(text.slice(attention, all)).not.toContain("Silva x Souza");
    expect(text).toContain(
      "⚠ 3 processos precisam de atenção: 1 com falha, 1 fora do DataJud, 1 parado há 90+ dias.",
    );
    expect(text).toContain(
      "Falhou nas últimas 3 consultas (01/06/2026 07:00). Último erro: HTTP 503",
    );
    expect(text).toContain("O DataJud deixou de retornar este processo em 20/05/2026 07:00");
    expect(text).toContain(
      "Sem movimentação há 120 dias; se o processo terminou ou não precisa mais ser acompanhado, retire-o do watchlist (ou use muted: true).",
    );
    expect(text).toContain(`1. Silva x Souza\n   Processo ${NUMBER} · TJDFT\n`);
    expect(text).toContain("Última movimentação: 22/05/2026 12:00 (há 9 dias)");
    expect(text).toContain("Última mudança: nenhuma detectada");
    expect(text).toContain("(sem mudança)");
    expect(text).toContain("(falhou)");
    expect(text).toContain("(não encontrado)");
    expect(text).toContain("5. Novo");
    expect(text).toContain("Última consulta: ainda não consultado");
    expect(text).toContain(
      "Datas das movimentações e do DataJud como o tribunal as registrou; demais horários em America/Sao_Paulo.\nMensagem automática do datajud-monitor.\n",
    );
  });

  it("shows our instants in the schedule's time zone and movement dates as the court recorded them", () => {
    const report = reportOf([failing, calm]);

    const lisbon = renderStatusReport(report, "Europe/Lisbon").text;

    expect(lisbon).toContain("Falhou nas últimas 3 consultas (01/06/2026 11:00)");
    expect(lisbon).toContain("Última movimentação: 22/05/2026 12:00");
    expect(lisbon).toContain("demais horários em Europe/Lisbon.");
  });

  it("names every outcome in Portuguese, and shows an unknown one as clean text", () => {
    const outcomes = ["baseline", "changed", "mystery\r\nBcc: x"].map((lastOutcome) => ({
      ...calm,
      lastOutcome,
    }));

    const { text } = renderStatusReport(reportOf(outcomes));

    expect(text).toContain("(primeira consulta)");
    expect(text).toContain("(mudou)");
    expect(text).toContain("(mystery Bcc: x)");
  });

  it("shows the muted state, and gives a muted stale case no reminder", () => {
    const forGood = { ...stale, label: "Silenciado", muted: true, mutedUntil: null };
    const untilDate = { ...calm, label: "Até", muted: true, mutedUntil: "2027-01-31" };

    const mail = renderStatusReport(reportOf([forGood, untilDate]));

    expect(mail.subject).toBe("[datajud] Relatório: 2 processos acompanhados");
    expect(mail.text).toContain(`Processo ${NUMBER} · TJDFT · silenciado\n`);
    expect(mail.text).toContain(`Processo ${NUMBER} · TJDFT · silenciado até 31/01/2027\n`);
    expect(mail.text).not.toContain("retire-o do watchlist");
    expect(mail.html).toContain("silenciado até 31/01/2027");
  });

  it("keeps a hostile label and error out of the markup and off extra lines", () => {
    const label = '<script>alert("x")</script>\r\nBcc: evil@example.com\u202e';
    const hostile = { ...failing, label, court: "tjdft<b>" };

    const mail = renderStatusReport(reportOf([hostile]));

    expect(mail.subject).toBe("[datajud] ⚠ Relatório: 1 processo, 1 com falha");
    expect(mail.html).not.toContain("<script");
    expect(mail.html).not.toContain("<b>");
    expect(mail.html).not.toContain("<html>busy");
    expect(mail.html).toContain(
      "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Bcc: evil@example.com",
    );
    expect(mail.html).toContain("HTTP 503 &lt;html&gt;busy&lt;/html&gt; X-Injected: 1");
    expect(mail.html).toContain("TJDFT&lt;B&gt;");
    expect(mail.text).toContain('- <script>alert("x")</script> Bcc: evil@example.com\n');
    expect(mail.text).toContain("Último erro: HTTP 503 <html>busy</html> X-Injected: 1");
    expect(mail.text).not.toContain("\r");
    expect(mail.text).not.toContain("\u202e");
    expect(mail.html).not.toContain("\u202e");
  });

  it("clips a long error", () => {
    const long = { ...failing, lastError: "x".repeat(5000) };

    const { text } = renderStatusReport(reportOf([long]));

    const line = text.split("\n").find((l) => l.includes("Último erro:")) ?? "";
    expect(line.length).toBeLessThan(400);
    expect(line.endsWith("…")).toBe(true);
  });

  it("renders a short e-mail when no case is watched for the address", () => {
    const mail = renderStatusReport(reportOf([]));

    expect(mail.subject).toBe("[datajud] Relatório: nenhum processo acompanhado");
    expect(mail.text).toBe(
      "Nenhum processo do watchlist é acompanhado por este endereço.\n\nDatas das movimentações e do DataJud como o tribunal as registrou; demais horários em America/Sao_Paulo.\nMensagem automática do datajud-monitor.\n",
    );
    expect(mail.html).toContain("Nenhum processo do watchlist é acompanhado por este endereço.");
    expect(mail.html).not.toContain("Todos os processos");
  });

  it("is deterministic: the same report renders the same e-mail", () => {
    const report = reportOf([calm, failing, stale, gone]);

    const first = renderStatusReport(report);
    const again = renderStatusReport(StatusReport.parse(JSON.parse(JSON.stringify(report))));

    expect(again).toEqual(first);
    expect(first.html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(first.html).toContain("Precisam de atenção (3)");
    expect(first.html).toContain("Todos os processos (4)");
  });
});

describe("the status report's DJEN part", () => {
  const check = {
    lastCheckedAt: "2026-06-01T10:00:00.000Z",
    lastOutcome: "ok",
    consecutiveFailures: 0,
    lastError: null,
    nextCheckDueAt: null,
  };
  const publication: StatusReportPublication = {
    djenId: "77",
    caseNumber: NUMBER,
    label: "Silva <x> Souza",
    inWatchlist: true,
    court: "TJDFT",
    courtUnit: '1ª Vara <img src=x onerror="alert(1)">\u202e',
    kind: "Intimação",
    documentType: "Sentença",
    availableOn: "2026-05-29",
    publishedOn: "2026-06-01",
    countingStartsOn: "2026-06-02",
    firstSeenAt: "2026-05-29T13:00:00.000Z",
    disposition: "alert",
    cancelled: false,
    cancellationReason: null,
  };

  it("reads a payload queued before DJEN, and renders it without a DJEN section", () => {
    const before = renderStatusReport(reportOf([only([entry()])]));
    const { djen: _djen, ...olderCase } = only([entry()]);

    const older = StatusReport.parse({
      generatedAt: NOW.toISOString(),
      staleAfterDays: 90,
      cases: [olderCase],
    });

    expect(older).toMatchObject({ oab: [], publications: [], periodStart: null });
    expect(older.cases[0]?.djen).toBeNull();
    expect(renderStatusReport(older)).toEqual(before);
    expect(before.text).not.toContain("DJEN");
  });

  it("puts a case whose DJEN check failed among those needing attention, with the error", () => {
    const failed = {
      ...check,
      lastOutcome: "failed",
      consecutiveFailures: 3,
      lastError: "DJEN answered HTTP 500",
    };
    const report = build([entry({ djen: failed })]);

    const mail = renderStatusReport(report);

    expect(mail.subject).toBe("[datajud] ⚠ Relatório: 1 processo, 1 sem resposta do DJEN");
    expect(mail.text).toContain(
      "As últimas 3 consultas ao DJEN falharam (01/06/2026 07:00); publicações podem não ter sido lidas. Último erro: DJEN answered HTTP 500",
    );
    expect(mail.text).toContain(
      "Última consulta ao DJEN: 01/06/2026 07:00 (falhou 3 vezes seguidas)",
    );
    expect(mail.text).toContain("PUBLICAÇÕES NO DJEN NO PERÍODO (0)\nNenhuma publicação lida.");
  });

  it("lists the period's publications with estimates, court text escaped in HTML and cleaned in text", () => {
    const report = buildStatusReport({
      cases: [entry({ djen: check })],
      now: NOW,
      staleAfterDays: 90,
      timezone: "America/Sao_Paulo",
      periodStart: "2026-05-25T11:00:00.000Z",
      publications: [publication],
    });

    const mail = renderStatusReport(report);

    expect(mail.subject).toBe("[datajud] Relatório: 1 processo acompanhado, 1 publicação no DJEN");
    expect(mail.text).toContain(
      "Publicações lidas (ou canceladas) pelo monitor desde 25/05/2026 08:00, as de processos fora da lista primeiro.",
    );
    expect(mail.text).toContain("1. Intimação · Sentença · Silva <x> Souza");
    expect(mail.text).toContain(
      "Disponibilizada em 29/05/2026 (sexta-feira); publicada em 01/06/2026; prazo a partir de 02/06/2026 (estimativas)",
    );
    expect(mail.text).not.toContain("\u202e");
    expect(mail.html).toContain("Silva &lt;x&gt; Souza");
    expect(mail.html).not.toMatch(/<img|<x>/);
    expect(mail.html).toContain("Datas estimadas");
  });
});
