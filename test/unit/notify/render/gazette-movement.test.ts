import { describe, expect, it } from "vitest";
import {
  calendarsWith,
  estimateGazetteMovement,
  estimatePublication,
} from "../../../../src/deadlines/publication-estimate.js";
import { renderAlert } from "../../../../src/notify/render/alert.js";
import { buildAlertContent } from "../../../../src/notify/render/alert-content.js";
import type { CourtClosure } from "../../../../src/time/court-calendar.js";
import { testMovement } from "../../../support/movement.js";
import { caseRecord } from "../../store/store-fixtures.js";
import { sampleSummary } from "./sample-alert.js";

/*
 * A DataJud gazette movement ("Disponibilização no Diário da Justiça Eletrônico", TPU 1061;
 * "Publicação", 92) gets the publication and counting start a DJEN item made available the same
 * day gets, on the same court calendar (Lei 11.419/2006 art. 4 §§3-4), and the alert shows them
 * under the movement with the rule and every skipped day's source.
 */

const CASE = "0713383-43.2025.8.07.0006";
const BRASILIA = 5300108;
const calendars = calendarsWith();

function djenItemOn(court: string, day: string) {
  return estimatePublication(
    {
      court: court.toUpperCase(),
      kind: "Intimação",
      documentType: "Despacho",
      className: "Execução Fiscal",
      medium: "D",
      availableOn: day,
      caseNumber: CASE.replace(/\D/gu, ""),
      recipients: [{ name: "PARTE", side: "A" }],
      lawyers: [{}],
    },
    "Intime-se.",
    calendars,
    { municipality: BRASILIA },
  );
}

function gazette(code: number, day: string, court = "tjdft") {
  return estimateGazetteMovement(
    { code, day },
    {
      court,
      municipality: BRASILIA,
      className: "Execução Fiscal",
      classCode: 1116,
      caseNumber: CASE.replace(/\D/gu, ""),
    },
    calendars,
  );
}

describe("a DataJud gazette movement's dates", () => {
  it("a disponibilização counts as a DJEN item made available the same day does", () => {
    // Days around Carnaval, Holy Week, the recess and plain weeks, in 2025-2027.
    const days = [
      "2026-02-13",
      "2026-04-01",
      "2026-06-03",
      "2025-12-19",
      "2026-01-19",
      "2027-03-24",
      "2025-10-30",
    ];
    for (const day of days) {
      const djen = djenItemOn("tjdft", day);
      const datajud = gazette(1061, day);
      expect([datajud?.publishedOn, datajud?.countingStartsOn, datajud?.skippedDays], day).toEqual([
        djen.publishedOn,
        djen.countingStartsOn,
        djen.skippedDays,
      ]);
    }
  });

  it("before Carnaval at the TJDFT: published after Ash Wednesday (Lei 11.697/2008 art. 60)", () => {
    // Fri 13/02/2026; Mon 16 and Wed 18 closed by the LOJDFT, Tue 17 by Lei 1.408/1951 art. 5:
    // published Thu 19/02, counts from Fri 20/02.
    expect(gazette(1061, "2026-02-13")).toMatchObject({
      rule: { code: "intimacao" },
      publishedOn: "2026-02-19",
      countingStartsOn: "2026-02-20",
      lastDay: null,
    });
  });

  it("a Publicação is taken as the publication itself, the earliest the law allows", () => {
    // Thu 19/02/2026, a business day: published that day, counts from Fri 20/02. On Ash
    // Wednesday (closed at the TJDFT) it can only be the next business day, Thu 19/02.
    expect(gazette(92, "2026-02-19")).toMatchObject({
      publishedOn: "2026-02-19",
      countingStartsOn: "2026-02-20",
    });
    expect(gazette(92, "2026-02-18")).toMatchObject({ publishedOn: "2026-02-19" });
    expect(gazette(92, "2026-02-19")?.notes[0]).toMatch(/nem sempre é a publicação legal/u);
  });

  it("other movements get none", () => {
    expect(gazette(219, "2026-02-13")).toBeNull();
  });
});

describe("the alert of a gazette movement", () => {
  const movement = testMovement({
    id: "m-disp",
    code: 1061,
    name: "Disponibilização no Diário da Justiça Eletrônico",
    dateTime: "2026-02-13T09:12:00",
    complements: [],
  });

  function content(closures: readonly CourtClosure[] = []) {
    return buildAlertContent({
      caseNumber: CASE,
      court: "tjdft",
      label: null,
      previous: null,
      current: sampleSummary(),
      records: [
        caseRecord({
          courtUnit: { code: 1, name: "1ª Vara Cível de Brasília", municipalityCode: BRASILIA },
        }),
      ],
      newMovements: [{ instance: "G1", movement }],
      provenance: { index: "api_publica_tjdft", url: "", fetchedAt: "2026-02-13T15:00:00.000Z" },
      changeKinds: ["new_movements"],
      calendars: calendarsWith(closures),
    });
  }

  it("shows the dates under the movement, with the rule and each skipped day's source", () => {
    const { text, html } = renderAlert(content());

    expect(text).toContain(
      "  Datas de prazo (estimativas): considera-se publicada em 19/02/2026 (quinta-feira); prazo a partir de 20/02/2026 (sexta-feira).",
    );
    expect(text).toContain(
      "Regra: Intimação pelo DJe: publicada no primeiro dia útil após a disponibilização no DJe",
    );
    expect(text).toContain(
      "Quarta-feira de Cinzas, 18/02/2026 (Lei 11.697/2008 (LOJDFT), art. 60)",
    );
    expect(text).toContain("Carnaval (terça-feira), 17/02/2026 (Lei 1.408/1951, art. 5º)");
    expect(text).toContain("O DataJud não traz o texto do ato");
    // The court calendar once, at the top: the days that moved a date and what it does not know.
    expect(text.match(/Calendário do tribunal: /gu)).toHaveLength(1);
    expect(text).toMatch(
      /Calendário do tribunal: não contaram ou adiaram as datas: .*Carnaval \(terça-feira\), 17\/02\/2026 .*Não considera: /u,
    );
    expect(text.indexOf("Calendário do tribunal: ")).toBeLessThan(
      text.indexOf("MOVIMENTAÇÕES NOVAS"),
    );
    expect(html).toContain("considera-se publicada em 19/02/2026 (quinta-feira)");
  });

  it("uses the configured closures of the court", () => {
    const outage: CourtClosure = {
      court: "tjdft",
      municipalities: [],
      from: "2026-02-20",
      to: "2026-02-20",
      effect: "late-opening",
      reason: "PJe indisponível",
      source: "Portaria GPR 77/2026",
      url: null,
    };

    const { newMovements } = content([outage]);

    // A count cannot begin on a day the system was down (CPC art. 224 §1): Mon 23/02.
    expect(newMovements[0]?.deadline).toMatchObject({
      publishedOn: "2026-02-19",
      countingStartsOn: "2026-02-23",
    });
  });
});
