import { describe, expect, it } from "vitest";
import type { Movement } from "../../../src/datajud/instance-record.js";
import { normalizeMovement } from "../../../src/datajud/normalize.js";
import {
  hearingDateFromPublications,
  hearingDateOnRecord,
  hearingWhenText,
} from "../../../src/summarize/hearing-when.js";

function hearing(situation: string, extra?: string): Movement {
  const m = normalizeMovement({
    codigo: 12740,
    nome: "de Conciliação",
    dataHora: "2026-11-20T14:10:00.000Z",
    complementosTabelados: [
      { codigo: 15, valor: extra ?? 9, nome: situation, descricao: "situacao_da_audiencia" },
    ],
  });
  if (m === null) throw new Error("test movement unreadable");
  return m;
}

const TEXT =
  "Intimação da parte ré para a audiência de conciliação designada para o dia 15/02/2027, às 9h30.";

describe("a hearing's own date", () => {
  it("reads the date the complement gives, never the movement's time", () => {
    const dated = hearingDateOnRecord(hearing("designada", "designada para 10/02/2027 às 14h00"));

    expect(dated).toMatchObject({ date: "2027-02-10", time: "14:00", source: "datajud" });
    expect(hearingDateOnRecord(hearing("designada"))).toBeNull();
  });

  it("takes a DJEN publication made available near the movement, not a cancelled or distant one", () => {
    const designated = hearing("designada");
    const near = { availableOn: "2026-11-23", text: TEXT, cancelled: false };

    expect(hearingDateFromPublications(designated, [near])).toMatchObject({
      date: "2027-02-15",
      time: "09:30",
      source: "djen",
      availableOn: "2026-11-23",
    });
    expect(hearingDateFromPublications(designated, [{ ...near, cancelled: true }])).toBeNull();
    expect(
      hearingDateFromPublications(designated, [{ ...near, availableOn: "2027-01-05" }]),
    ).toBeNull();
    expect(hearingDateFromPublications(hearing("cancelada"), [near])).toBeNull();
  });

  it("says both dates, or that DataJud does not carry the hearing's", () => {
    const m = hearing("designada");

    expect(hearingWhenText(m, null)).toBe(
      "movimento registrado em 20/11/2026 14:10 (quando a audiência foi designada ou alterada); a data da audiência não consta do DataJud: conferir no processo ou no DJEN",
    );
  });
});
