import { describe, expect, it } from "vitest";
import {
  type DjenGapWarning,
  renderDjenGapWarning,
} from "../../../../src/notify/render/djen-gap.js";
import { renderAdminAlert } from "../../../../src/notify/render/operator-mail.js";
import { sourcesFooter, sourcesLine } from "../../../../src/notify/render/sources-line.js";
import type { CourtSilentAlert } from "../../../../src/policy/source-freshness.js";

/*
 * The lawyers' warning of a DJEN miss, the sources line of an alert's footer (DataJud's date as
 * the court wrote it, our instant in the schedule's zone) and the operator's silent-court alert.
 */

const WARNING: DjenGapWarning = {
  type: "djen_gap",
  caseNumber: "0713383-43.2025.8.07.0006",
  court: "tjdft",
  label: '<b>Despejo</b> "urgente"',
  instance: "G1",
  movementName: "Disponibilização no Diário da Justiça Eletrônico",
  availableOn: "2026-12-02",
  djenAskedAt: "2026-12-06T10:02:00.000Z",
  urgent: true,
  foundAt: "2026-12-06T10:05:00.000Z",
  courtLink: null,
};

describe("renderDjenGapWarning", () => {
  it("says the issue's sentence, urgent in the subject, with DJEN's last look in the zone", () => {
    const mail = renderDjenGapWarning(WARNING, "America/Sao_Paulo");
    expect(mail.subject).toBe(
      '⚠ URGENTE Intimação no DataJud sem publicação no DJEN: 0713383-43.2025.8.07.0006 (<b>Despejo</b> "urgente")',
    );
    expect(mail.text.split("\n")[0]).toBe(
      "O DataJud registra uma intimação disponibilizada em 02/12/2026 que o DJEN não devolveu: confira no tribunal.",
    );
    // 10:02 UTC is 07:02 in São Paulo.
    expect(mail.text).toContain("consultado por este processo até 06/12/2026 07:02");
    expect(mail.text).toContain("Um prazo contado dessa publicação pode estar correndo");
  });

  it("escapes the label in HTML and drops the marker once no period could run", () => {
    const mail = renderDjenGapWarning({ ...WARNING, urgent: false }, "America/Sao_Paulo");
    expect(mail.subject.startsWith("Intimação no DataJud")).toBe(true);
    expect(mail.html).not.toContain("<b>Despejo</b>");
    expect(mail.html).toContain("&lt;b&gt;Despejo&lt;/b&gt;");
    expect(mail.text).toContain("A data é antiga para um prazo ainda em curso");
  });
});

describe("sourcesLine", () => {
  it("shows DataJud's date as the court wrote it, even with Z, and DJEN's look in the zone", () => {
    // 23:30 on 28 November as DataJud wrote it: the 28th, never shifted to the 29th.
    expect(
      sourcesLine(
        {
          dataJudUpdatedAt: "2026-11-28T23:30:00",
          djenAskedAt: "2026-12-06T10:02:00.000Z",
          dataJudLate: false,
        },
        "America/Sao_Paulo",
      ),
    ).toBe("Fontes: DataJud atualizado em 28/11/2026; DJEN consultado em 06/12/2026 07:02");
  });

  it("says what is unknown, adds the note when DataJud lags, and nothing without sources", () => {
    expect(
      sourcesFooter(
        { dataJudUpdatedAt: null, djenAskedAt: null, dataJudLate: true },
        "America/Sao_Paulo",
      ),
    ).toEqual([
      "Fontes: DataJud sem data de atualização; DJEN não consultado para este processo",
      "DataJud atrasado neste processo: o DJEN tem uma intimação que o registro do DataJud ainda não mostra (confira a intimação no DJEN ou no tribunal).",
    ]);
    expect(sourcesFooter(undefined, "America/Sao_Paulo")).toEqual([]);
  });
});

describe("the silent-court operator alert", () => {
  it("names the court, the silence and DJEN's activity, in English", () => {
    const alert: CourtSilentAlert = {
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
    };
    const mail = renderAdminAlert([alert], "America/Sao_Paulo");
    expect(mail.subject).toBe("[datajud] ⚠ DataJud silent for TJSP while DJEN publishes");
    expect(mail.text).toContain(
      "DataJud has not updated any of the 2 watched cases of TJSP since 01/10/2025 10:00",
    );
    expect(mail.text).toContain("its lag is not measured yet, so 30 days is the mark");
  });
});
