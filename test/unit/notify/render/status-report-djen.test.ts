import { describe, expect, it } from "vitest";
import { reportPublication } from "../../../../src/notify/render/status-report-djen.js";
import type { PublicationRow } from "../../../../src/store/publications.js";

/*
 * A publication the report phase has not estimated yet (read, not yet decided) is shown with an
 * estimate made on its court's calendar, as every other view does, not the national calendar's.
 */

const CASE = "07133834320258070006";

function row(patch: Partial<PublicationRow> = {}): PublicationRow {
  return {
    id: 1,
    djenId: "901",
    caseNumber: CASE,
    court: "TJDFT",
    availableOn: "2026-02-13",
    kind: "Intimação",
    documentType: "Despacho",
    courtUnit: "1ª Vara Cível de Brasília",
    publication: {
      className: "PROCEDIMENTO COMUM CÍVEL",
      medium: "D",
      recipients: [{ name: "FULANO DE TAL", side: "A" }],
      lawyers: [{ name: "ANA ADVOGADA" }],
    },
    text: "Manifeste-se a parte autora no prazo de 5 (cinco) dias.",
    foundBy: [`case:${CASE}`],
    firstSeenAt: "2026-02-13T15:00:00.000Z",
    runId: 1,
    baseline: false,
    disposition: null,
    reportedAt: null,
    cancelledAt: null,
    cancellation: null,
    correctionReportedAt: null,
    estimate: null,
    ...patch,
  };
}

describe("a publication in the status report", () => {
  it("without a stored estimate: dated on the court's calendar now", () => {
    const shown = reportPublication(row(), new Map([[CASE, "Despejo"]]));

    // Fri 13/02/2026 at the TJDFT: Carnival Monday and Ash Wednesday closed (Lei 11.697/2008
    // art. 60), Tuesday by Lei 1.408/1951 art. 5: published Thu 19/02, counts from Fri 20/02;
    // 5 business days: 20, 23, 24, 25, 26/02.
    expect(shown).toMatchObject({
      publishedOn: "2026-02-19",
      countingStartsOn: "2026-02-20",
      lastDay: "2026-02-26",
      rule: { code: "intimacao", procedure: "civil" },
    });
  });

  it("a publication for the INSS alone: no counting start from DJEN", () => {
    const shown = reportPublication(
      row({
        publication: {
          recipients: [{ name: "INSTITUTO NACIONAL DO SEGURO SOCIAL - INSS", side: "P" }],
          lawyers: [],
        },
      }),
      new Map(),
    );

    expect(shown).toMatchObject({ countingStartsOn: null, rule: { code: "personal" } });
  });
});
