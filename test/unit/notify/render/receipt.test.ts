import { describe, expect, it } from "vitest";
import {
  type Receipt,
  type ReceiptCase,
  receiptProblems,
  renderReceipt,
} from "../../../../src/notify/render/receipt.js";

/* The daily receipt's words: what was checked, and what was late or failing, for each case. */

function kase(overrides: Partial<ReceiptCase> = {}): ReceiptCase {
  return {
    caseNumber: "0713383-43.2025.8.07.0006",
    court: "tjdft",
    label: "Despejo",
    datajud: {
      checks: 2,
      failed: 0,
      lastCheckedAt: "2026-12-06T13:00:00.000Z",
      lastOutcome: "unchanged",
      lastError: null,
      // 23:30 on 28 November as the court wrote it: the 28th, never the 29th.
      updatedAt: "2026-11-28T23:30:00",
      late: false,
      silentSince: null,
    },
    djen: {
      checks: 2,
      failed: 0,
      lastCheckedAt: "2026-12-06T13:01:00.000Z",
      lastOkAt: "2026-12-06T13:01:00.000Z",
      lastOutcome: "ok",
      lastError: null,
    },
    news: 0,
    ...overrides,
  };
}

function receipt(cases: ReceiptCase[]): Receipt {
  return {
    type: "receipt",
    day: "2026-12-06",
    periodStart: "2026-12-05T21:00:00.000Z",
    generatedAt: "2026-12-06T21:00:00.000Z",
    cases,
    oab: [],
  };
}

describe("the daily receipt", () => {
  it("says nothing was new and what was checked, DataJud's date as the court wrote it", () => {
    const r = renderReceipt(receipt([kase()]), "America/Sao_Paulo");

    expect(r.subject).toBe("[datajud] Verificado, nada novo: 1 processo (06/12/2026)");
    expect(r.text).toContain(
      "Verificado, nada novo: 1 processo verificado entre 05/12/2026 18:00 e 06/12/2026 18:00.",
    );
    expect(r.text).toContain(
      "   DataJud: 2 consultas, a última em 06/12/2026 10:00, atualizado em 28/11/2026",
    );
    expect(r.text).toContain(
      "   DJEN: 2 consultas, a última resposta completa em 06/12/2026 10:01",
    );
    expect(r.text).not.toContain("Fontes atrasadas");
  });

  it("names what was not asked, failed or late, and leaves DJEN out when it is off", () => {
    const silent = kase({
      datajud: { ...kase().datajud, checks: 0, late: true },
      djen: null,
    });
    const failing = kase({
      caseNumber: "1035289-48.2022.8.26.0602",
      court: "tjsp",
      label: null,
      datajud: { ...kase().datajud, checks: 3, failed: 1 },
      djen: {
        ...(kase().djen as NonNullable<ReceiptCase["djen"]>),
        lastOutcome: "failed",
        lastError: "DJEN answered 500\nretry later",
      },
    });

    expect(receiptProblems(silent)).toEqual([
      "DataJud não consultado no período",
      "DataJud atrasado neste processo (o DJEN tem uma intimação que ele não mostra)",
    ]);
    expect(receiptProblems(failing)).toEqual([
      "DataJud falhou em 1 de 3 consultas",
      "DJEN falhou na última consulta: DJEN answered 500 retry later",
    ]);
    const r = renderReceipt(receipt([silent, failing]), "America/Sao_Paulo");
    expect(r.subject).toBe(
      "[datajud] Verificado, nada novo: 2 processos, 2 com fonte atrasada ou falhando (06/12/2026)",
    );
    expect(r.text).not.toMatch(/1\. .*\n {3}DJEN:/u);
  });

  it("names a court silent in DataJud while DJEN publishes, from the day it went silent", () => {
    const silent = kase({
      court: "tjsp",
      datajud: { ...kase().datajud, silentSince: "2026-11-03T13:00:00.000Z" },
    });

    expect(receiptProblems(silent, "America/Sao_Paulo")).toEqual([
      "DataJud sem atualizações do TJSP desde 03/11/2026, enquanto o DJEN publica",
    ]);
  });

  it("lists the watcher's OAB registrations with their DJEN checks", () => {
    const r = renderReceipt(
      {
        ...receipt([kase()]),
        oab: [
          {
            registration: "123456/SP",
            checks: 2,
            failed: 2,
            lastOkAt: null,
            lastOutcome: "failed",
            lastError: "DJEN refused the answer",
          },
        ],
      },
      "America/Sao_Paulo",
    );

    expect(r.subject).toBe(
      "[datajud] Verificado, nada novo: 1 processo e 1 registro da OAB, 1 com fonte atrasada ou falhando (06/12/2026)",
    );
    expect(r.text).toContain(
      "- OAB 123456/SP: DJEN falhou na última consulta: DJEN refused the answer.",
    );
    expect(r.text).toContain(
      "2. OAB 123456/SP\n   DJEN: 2 consultas, nenhuma resposta completa ainda",
    );
  });

  it("escapes what the watchlist wrote", () => {
    const r = renderReceipt(
      receipt([kase({ label: '<img src=x onerror="alert(1)">' })]),
      "America/Sao_Paulo",
    );

    expect(r.html).not.toContain("<img");
    expect(r.html).toContain("&lt;img src=x");
  });
});
