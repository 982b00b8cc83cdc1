import { describe, expect, it } from "vitest";
import { DataJudError } from "../../../src/datajud/errors.js";
import { toPublication } from "../../../src/djen/publication.js";
import { RawItem } from "../../../src/djen/raw-schemas.js";
import { historyPublication, nextOffset, sinceInstant } from "../../../src/mcp/history-view.js";
import type { PublicationRow } from "../../../src/store/publications.js";
import { countingDates } from "../../../src/time/counting-dates.js";
import { djenItem } from "../../fakes/fake-djen.js";

describe("since arguments", () => {
  it("a day starts at midnight in São Paulo", () => {
    expect(sinceInstant("2026-03-02")).toBe("2026-03-02T03:00:00.000Z");
    expect(sinceInstant("2018-12-01")).toBe("2018-12-01T02:00:00.000Z");
  });

  it("a date-time without a zone is São Paulo time; with one it is that instant", () => {
    expect(sinceInstant("2026-03-02T09:30")).toBe("2026-03-02T12:30:00.000Z");
    expect(sinceInstant("2026-03-02T09:30:00Z")).toBe("2026-03-02T09:30:00.000Z");
    expect(sinceInstant("2026-03-02T09:30:00+01:00")).toBe("2026-03-02T08:30:00.000Z");
  });

  it("anything else is invalid input saying what to write", () => {
    const attempt = (): string => sinceInstant("last week");

    expect(attempt).toThrow(DataJudError);
    expect(attempt).toThrow(/YYYY-MM-DD/);
    expect(() => sinceInstant("2026-03-02T25:00")).toThrow(DataJudError);
  });
});

describe("nextOffset", () => {
  it("points past the page while something is left, null at the end", () => {
    expect(nextOffset(0, 100, 590)).toBe(100);
    expect(nextOffset(500, 100, 590)).toBeNull();
    expect(nextOffset(0, 10, 10)).toBeNull();
    expect(nextOffset(20, 10, 5)).toBeNull();
  });
});

function storedRow(
  raw: Record<string, unknown>,
  overrides: Partial<PublicationRow> = {},
): PublicationRow {
  const item = RawItem.parse(raw);
  const result = toPublication(item, raw, { baseUrl: "https://djen.example" });
  if (!result.ok) throw new Error(result.problem);
  const { text: _text, raw: _raw, ...publication } = result.value;
  return {
    id: 1,
    djenId: result.value.id,
    caseNumber: result.value.caseNumber,
    court: result.value.court,
    availableOn: result.value.availableOn,
    kind: result.value.kind,
    documentType: result.value.documentType,
    courtUnit: result.value.courtUnit,
    publication,
    text: "Fica a parte intimada.",
    foundBy: ["case:07133834320258070006"],
    firstSeenAt: "2025-12-19T13:00:00.000Z",
    runId: 1,
    baseline: false,
    disposition: "alert",
    reportedAt: "2025-12-19T13:00:01.000Z",
    cancelledAt: null,
    cancellation: null,
    correctionReportedAt: null,
    estimate: null,
    ...overrides,
  };
}

describe("historyPublication", () => {
  it("gives the estimated dates across the recess and keeps the text as stored", () => {
    const view = historyPublication(storedRow(djenItem({ id: 7, date: "2025-12-19" })));

    // Friday 19 December: the recess and the suspension of deadlines (CPC art. 220) follow.
    expect(view).toMatchObject({
      djenId: "7",
      cnjNumber: "0713383-43.2025.8.07.0006",
      availableOn: "2025-12-19",
      publishedOn: countingDates("2025-12-19").publishedOn,
      countingStartsOn: countingDates("2025-12-19").countingStartsOn,
      cancelled: null,
      text: "Fica a parte intimada.",
      textChars: 22,
    });
    expect((view?.countingStartsOn ?? "") >= "2026-01-21").toBe(true);
  });

  it("a publication first read already cancelled is cancelled since it was read", () => {
    const view = historyPublication(
      storedRow(djenItem({ id: 8, date: "2025-09-29", cancelled: "Erro material" })),
    );

    expect(view?.cancelled).toEqual({
      seenAt: "2025-12-19T13:00:00.000Z",
      reason: "Erro material",
    });
  });

  it("a later cancellation carries when it was seen and DJEN's reason", () => {
    const view = historyPublication(
      storedRow(djenItem({ id: 9, date: "2025-09-29" }), {
        cancelledAt: "2025-12-20T10:00:00.000Z",
        cancellation: { reason: "Publicada por engano", at: "2025-12-20T09:00:00" },
      }),
    );

    expect(view?.cancelled).toEqual({
      seenAt: "2025-12-20T10:00:00.000Z",
      reason: "Publicada por engano",
    });
  });

  it("shows a DJEN link stored before the court-host rule only when it is a court's", () => {
    const stored = storedRow(djenItem({ id: 11 }));
    const withLink = (link: string): PublicationRow => ({
      ...stored,
      publication: { ...(stored.publication as Record<string, unknown>), link },
    });

    expect(historyPublication(withLink("https://golpe.example/boleto"))?.link).toBeNull();
    expect(historyPublication(withLink("https://pje.tjdft.jus.br/doc/11"))?.link).toBe(
      "https://pje.tjdft.jus.br/doc/11",
    );
  });

  it("a stored form it cannot read is left out, not an error", () => {
    expect(historyPublication(storedRow(djenItem({ id: 10 }), { publication: { id: 1 } }))).toBe(
      null,
    );
  });
});
