import { describe, expect, it } from "vitest";
import { normalizeInstanceRecord } from "../../../../src/datajud/normalize.js";
import { calendarsWith } from "../../../../src/deadlines/publication-estimate.js";
import { renderAlert } from "../../../../src/notify/render/alert.js";
import { AlertContent, buildAlertContent } from "../../../../src/notify/render/alert-content.js";
import { movementEvent } from "../../../../src/notify/render/build-event.js";
import { chatMessage } from "../../../../src/notify/render/chat-message.js";
import { renderDigest } from "../../../../src/notify/render/digest.js";
import type { MovementEventData } from "../../../../src/notify/render/webhook-event.js";
import type { DjenItemFacts } from "../../../../src/summarize/act-deadlines.js";
import {
  formatted,
  loadRealHits,
  type RawMovement,
  realHit,
  SCHEDULED_HEARING,
} from "../../../support/real-datajud.js";
import { sampleSummary } from "./sample-alert.js";

/*
 * Issue 34: an alert read in ten seconds, on real DataJud records (test/fixtures/real-datajud) and
 * edits of them. Each act that opens periods says what happened and, where its publication is
 * known, each period's last day, estimated on the court's calendar as a DJEN item's. Every
 * expected date is worked out by hand in its test from the articles and the calendar data
 * (src/time/calendar: national holidays, Lei 14.759/2023 for 20/11; weekends, CPC art. 216).
 */

const hits = loadRealHits();
const calendars = calendarsWith();

const DISPONIBILIZACAO = "Disponibilização no Diário da Justiça Eletrônico";

interface Edit {
  /** Movements after this wall clock are cut: the record as DataJud served it then. */
  until: string;
  /** Movements from this wall clock on are the alert's new ones. */
  newSince: string;
  klass?: { codigo: number; nome: string };
  extra?: RawMovement[];
  publications?: DjenItemFacts[];
  /** The summary asks for no attention. */
  quiet?: boolean;
  /** A new hearing's own date, as a DJEN publication of the case says it. */
  hearingOn?: { date: string; time: string };
  /** When the sweep read it (ISO, UTC); 20/11/2026 unless said. */
  at?: string;
}

function alertOf(alias: string, digits: string, grau: string, edit: Edit) {
  const doc = realHit(hits, alias, digits, grau);
  const source = doc._source as Record<string, unknown> & { movimentos?: RawMovement[] };
  if (edit.klass !== undefined) source.classe = edit.klass;
  source.movimentos = [...(source.movimentos ?? []), ...(edit.extra ?? [])].filter(
    (m) => String(m.dataHora) <= edit.until,
  );
  const record = normalizeInstanceRecord(doc, alias);
  const fresh = record.movements.filter((m) => (m.dateTime ?? "") >= edit.newSince);
  const content = buildAlertContent({
    caseNumber: formatted(digits),
    court: alias,
    label: null,
    previous: null,
    current: edit.quiet
      ? sampleSummary({ needsLawyerAttention: false, attentionReasons: [] })
      : sampleSummary(),
    records: [record],
    newMovements: fresh.map((movement) => ({ instance: grau, movement })),
    provenance: {
      index: `api_publica_${alias}`,
      url: "",
      fetchedAt: edit.at ?? "2026-11-20T15:00:00.000Z",
    },
    changeKinds: ["new_movements"],
    calendars,
    publications: edit.publications ?? [],
    hearingDates: Object.fromEntries(
      edit.hearingOn === undefined
        ? []
        : fresh
            .filter((m) => m.code === 12740)
            .map((m) => [
              m.id,
              {
                date: edit.hearingOn?.date ?? "",
                time: edit.hearingOn?.time ?? null,
                source: "djen" as const,
                quote: "audiência designada",
              },
            ]),
    ),
  });
  // The payload as the outbox stores it and reads it back: it must parse, or the alert is dead.
  expect(AlertContent.parse(JSON.parse(JSON.stringify(content)))).toEqual(content);
  const { text, html } = renderAlert(content);
  const event = movementEvent(content, { id: `evt_${"0".repeat(32)}` });
  return { content, text, html, data: event.data as MovementEventData, chat: chatMessage(event) };
}

/** The lines under a heading of the text, up to the next blank line. */
function section(text: string, heading: string): string[] {
  const lines = text.split("\n");
  const at = lines.indexOf(heading);
  if (at < 0) return [];
  const end = lines.indexOf("", at);
  return lines.slice(at + 1, end < 0 ? undefined : end);
}

const TODO = "O QUE FAZER E ATÉ QUANDO (DATAS ESTIMADAS, NUNCA DEPOIS DA LEI)";

describe("an act's periods dated from its publication, first in the alert", () => {
  it("a civil sentence published in the DJe (real tjdft record): embargos and apelação with their last days", () => {
    // The real record: 220 Improcedência on 14/07/2020 (Tue), 1061 Disponibilização on 16/07/2020
    // (Thu), 92 Publicação on 17/07/2020. Published on the next business day, Fri 17/07 (Lei
    // 11.419/2006 art. 4 § 3); counted from the next, Mon 20/07 (§ 4; CPC art. 224 § 3).
    // Embargos, 5 dias úteis (CPC art. 1.023, art. 219): 20, 21, 22, 23, 24/07 -> Fri 24/07/2020.
    // Apelação, 15 dias úteis (art. 1.003 § 5): 20-24/07 (5), 27-31/07 (10), 03-07/08 (15) ->
    // Fri 07/08/2020; no holiday of the DF or the nation falls in between.
    const { text, html, data, chat } = alertOf("tjdft", "00125906120158070018", "G1", {
      until: "2020-07-17T23:59:59",
      newSince: "2020-07-14T00:00:00",
      at: "2020-07-18T12:00:00.000Z",
    });
    expect(section(text, "O QUE ACONTECEU")).toEqual([
      "- Sentença (Julgado improcedente o pedido) em 14/07/2020, 1º grau (G1); publicação considerada feita em 17/07/2020 (disponibilização no Diário em 16/07/2020, segundo o DataJud).",
    ]);
    const todo = section(text, TODO);
    expect(todo.slice(0, 2)).toEqual([
      "- Até 24/07/2020 (sexta-feira): embargos de declaração (5 dias úteis; CPC, art. 1.023; dias úteis, art. 219)",
      "- Até 07/08/2020 (sexta-feira): apelação (15 dias úteis; CPC, art. 1.003, § 5º; dias úteis, art. 219)",
    ]);
    expect(todo[2]).toMatch(
      /^Sentença: publicação considerada feita em 17\/07\/2020 \(sexta-feira\); o prazo conta de 20\/07\/2020 \(segunda-feira\)\. Regra: Intimação/u,
    );
    // What happened and what to do come before the details.
    expect(text.indexOf(TODO)).toBeLessThan(text.indexOf("O QUE MUDOU NO RESUMO"));
    expect(text.indexOf(TODO)).toBeLessThan(text.indexOf("MOVIMENTAÇÕES NOVAS"));
    // The sentence's own periods replace the generic "5 dias" under its two gazette movements.
    expect(text).not.toContain("Prazo da lei, se for o caso");
    expect(
      text.match(/Ato publicado, pelo que o DataJud mostra antes: Julgado improcedente o pedido/gu),
    ).toHaveLength(2);
    expect(html).toContain(
      "<strong>Até 07/08/2020 (sexta-feira)</strong>: apelação (15 dias úteis;",
    );
    expect(html.indexOf("Até 07/08/2020")).toBeLessThan(html.indexOf("Movimentações novas"));

    expect(data.acts).toEqual([
      expect.objectContaining({
        act: "sentença",
        actOn: "2020-07-14",
        publishedOn: "2020-07-17",
        countingStartsOn: "2020-07-20",
        estimate: true,
        periods: [
          expect.objectContaining({ name: "apelação", days: 15, lastDay: "2020-08-07" }),
          expect.objectContaining({
            name: "embargos de declaração",
            days: 5,
            lastDay: "2020-07-24",
          }),
        ],
      }),
    ]);
    expect(data.opening?.todo[0]).toBe(
      "Até 24/07/2020 (sexta-feira): embargos de declaração (5 dias úteis; CPC, art. 1.023; dias úteis, art. 219)",
    );
    // The chat message: the movements, then what to do by when, each an estimate.
    const lines = chat.lines.map((l) => (typeof l === "string" ? l : l.text));
    const todoAt = lines.findIndex((l) => l.startsWith("Até "));
    expect(lines.slice(todoAt, todoAt + 2)).toEqual([
      "Até 24/07/2020 (sexta-feira): embargos de declaração (5 dias úteis; CPC, art. 1.023; dias úteis, art. 219) (estimativa)",
      "Até 07/08/2020 (sexta-feira): apelação (15 dias úteis; CPC, art. 1.003, § 5º; dias úteis, art. 219) (estimativa)",
    ]);
    expect(lines[todoAt + 2]).toMatch(/^Situação: /u);
  });

  it("says the court calendar once in an alert with two dated gazette movements", () => {
    const { text, html, data } = alertOf("tjdft", "00125906120158070018", "G1", {
      until: "2020-07-17T23:59:59",
      newSince: "2020-07-14T00:00:00",
      at: "2020-07-18T12:00:00.000Z",
    });
    // 1061 and 92 each carry an estimate on the TJDFT's calendar; the paragraph is said once.
    expect(text.match(/Calendário do tribunal: /gu)).toHaveLength(1);
    expect(html.match(/Calendário do tribunal: /gu)).toHaveLength(1);
    expect(text.match(/Não considera: /gu)).toHaveLength(1);
    const paragraph = text.split("\n").find((l) => l.startsWith("Calendário do tribunal: ")) ?? "";
    expect(paragraph).toContain(
      "nenhum feriado, recesso ou suspensão que ele conhece moveu estas datas. Não considera: ",
    );
    expect(paragraph.length).toBeLessThan(900);
    expect(data.opening?.calendar).toBe(paragraph);
  });

  it("a Sisbajud block in an execução fiscal (real tjdft record): both periods named, 'data a confirmar' until its publication", () => {
    // The real record ends with 11382 Bloqueio/penhora on line on 13/07/2022 and no publication.
    const before = alertOf("tjdft", "07223914020178070001", "G1", {
      until: "2099",
      newSince: "2022-07-13T00:00:00",
      at: "2022-07-14T12:00:00.000Z",
    });
    expect(section(before.text, TODO)).toEqual([
      "- Data a confirmar: impugnação à indisponibilidade (impenhorabilidade ou excesso) (5 dias úteis; CPC, art. 854, § 3º, aplicado à execução fiscal (Lei 6.830/1980, art. 1º)) (a publicação do ato ainda não consta do DataJud nem do DJEN)",
      "- Data a confirmar: embargos à execução fiscal (30 dias corridos; Lei 6.830/1980, art. 16, III; contados aqui em dias corridos, a leitura mais cedo, pois a contagem em dias úteis na LEF é controvertida) (a publicação do ato ainda não consta do DataJud nem do DJEN)",
    ]);
    expect(before.text).not.toContain("Calendário do tribunal");
    expect(before.data.acts?.[0]?.periods.map((p) => p.lastDay)).toEqual([null, null]);

    // Edit: the court makes the intimação available on Fri 15/07/2022; the next sweep brings only
    // that movement. Published Mon 18/07 (Lei 11.419 art. 4 § 3), counted from Tue 19/07 (§ 4).
    // Impugnação, 5 dias úteis (CPC art. 854 § 3): 19, 20, 21, 22, 25/07 -> Mon 25/07/2022.
    // Embargos, 30 dias corridos (LEF art. 16, III): 19/07 + 29 -> Wed 17/08/2022, a business day.
    const after = alertOf("tjdft", "07223914020178070001", "G1", {
      until: "2099",
      newSince: "2022-07-15T00:00:00",
      at: "2022-07-16T12:00:00.000Z",
      extra: [{ codigo: 1061, nome: DISPONIBILIZACAO, dataHora: "2022-07-15T00:30:00.000Z" }],
    });
    expect(section(after.text, TODO).slice(0, 2)).toEqual([
      "- Até 25/07/2022 (segunda-feira): impugnação à indisponibilidade (impenhorabilidade ou excesso) (5 dias úteis; CPC, art. 854, § 3º, aplicado à execução fiscal (Lei 6.830/1980, art. 1º))",
      "- Até 17/08/2022 (quarta-feira): embargos à execução fiscal (30 dias corridos; Lei 6.830/1980, art. 16, III; contados aqui em dias corridos, a leitura mais cedo, pois a contagem em dias úteis na LEF é controvertida)",
    ]);
    expect(after.text).toContain(
      "A primeira publicação no Diário depois do bloqueio foi tomada como a intimação dele ao advogado (CPC, art. 854, § 2º): confira o ato publicado.",
    );
    expect(after.data.acts?.[0]?.periods.map((p) => p.lastDay)).toEqual([
      "2022-07-25",
      "2022-08-17",
    ]);
  });

  it("a cumprimento de sentença started (real tjsp record): pay in 15 dias úteis, then the impugnação", () => {
    // The real record: 11385 Cumprimento de Sentença Iniciada on 22/09/2025, a decision on
    // 29/09 and 92 Publicação on Tue 30/09/2025, taken as the intimação to pay (CPC art. 523).
    // "Publicação" on D is taken as the publication itself: counted from Wed 01/10/2025.
    // Pagamento, 15 dias úteis: 01-03/10 (3), 06-10 (8), 13-17 (13), 20, 21 (15) -> Tue 21/10/2025
    // (12/10, Nossa Senhora Aparecida, is a Sunday). Impugnação, 15 dias úteis from the day after
    // (CPC art. 525): 22-24/10 (3), 27-31 (8; the Dia do Servidor, 28/10, is not known to the
    // calendar and counts, the earliest reading), 03-07/11 (13), 10, 11 (15) -> Tue 11/11/2025.
    const { text, data } = alertOf("tjsp", "00104905620258260309", "G1", {
      until: "2025-09-30T23:59:59",
      newSince: "2025-09-22T00:00:00",
      at: "2025-10-01T12:00:00.000Z",
    });
    const todo = section(text, TODO);
    expect(todo).toContain(
      "- Até 21/10/2025 (terça-feira): pagamento voluntário (sem ele, multa de 10% e honorários de 10%) (cumprimento de sentença, 22/09/2025) (15 dias úteis; CPC, art. 523, caput e § 1º; dias úteis, art. 219)",
    );
    expect(todo).toContain(
      "- Até 11/11/2025 (terça-feira): impugnação ao cumprimento de sentença, depois do prazo de pagamento (cumprimento de sentença, 22/09/2025) (15 dias úteis; CPC, art. 525; dias úteis, art. 219)",
    );
    // The decision of 29/09 the same Publicação published opens its own periods (act-periods.json,
    // execution_interlocutory): embargos, 5 dias úteis from 01/10: 01, 02, 03, 06, 07/10 -> Tue
    // 07/10/2025; agravo de instrumento, 15 dias úteis -> Tue 21/10/2025, as the payment.
    expect(todo[0]).toMatch(
      /^- Até 07\/10\/2025 \(terça-feira\): embargos de declaração \(decisão interlocutória .*, 29\/09\/2025\) \(5 dias úteis;/u,
    );
    expect(
      todo.some((l) => /^- Até 21\/10\/2025 \(terça-feira\): agravo de instrumento/u.test(l)),
    ).toBe(true);
    // Its own periods replace the law's generic 5 days (CPC art. 218 § 3º).
    expect(text).not.toContain("pedir uma providência sem prazo fixado");
    expect(data.acts?.[0]?.periods.map((p) => p.lastDay)).toEqual(["2025-10-21", "2025-11-11"]);
  });

  it("a criminal conviction (edit of the real tjto record): embargos in 2 and apelação in 5 calendar days, never ending on a closed day", () => {
    // Edit: class Ação Penal; 219 Procedência on Wed 18/11/2026; made available on Thu 19/11.
    // Fri 20/11/2026 is a national holiday (Lei 14.759/2023), so the act is published on Mon
    // 23/11 and counted from Tue 24/11 (Lei 11.419 art. 4 §§ 3-4). Apelação, 5 dias corridos
    // (CPP arts. 593 and 798): 24, 25, 26, 27, 28/11; Sat 28/11 is no day to end on, so it passes
    // to Mon 30/11/2026 (CPP art. 798 § 3). Embargos de declaração, 2 dias (CPP art. 382): 24,
    // 25/11, Wed 25/11/2026, an open day; first, as the earlier.
    const { text, data } = alertOf("tjto", "00034953520178272716", "G1", {
      until: "2099",
      newSince: "2026-11-01T00:00:00",
      klass: { codigo: 283, nome: "Ação Penal - Procedimento Ordinário" },
      extra: [
        { codigo: 219, nome: "Procedência", dataHora: "2026-11-18T16:45:00.000Z" },
        { codigo: 1061, nome: DISPONIBILIZACAO, dataHora: "2026-11-19T00:20:00.000Z" },
      ],
    });
    expect(section(text, "O QUE ACONTECEU")[0]).toBe(
      "- Sentença penal (Sentença condenatória) em 18/11/2026, 1º grau (G1); publicação considerada feita em 23/11/2026 (disponibilização no Diário em 19/11/2026, segundo o DataJud).",
    );
    expect(section(text, TODO)[0]).toBe(
      "- Até 25/11/2026 (quarta-feira): embargos de declaração (2 dias corridos; CPP, art. 382; dias corridos, art. 798)",
    );
    expect(section(text, TODO)[1]).toBe(
      "- Até 30/11/2026 (segunda-feira): apelação (5 dias corridos; CPP, art. 593; dias corridos, art. 798) (Terminaria em 28/11/2026, dia sem expediente ou em que não pode terminar: passa a 30/11/2026 (CPP, art. 798 §3º))",
    );
    expect(text).toContain("Na sentença penal, o prazo corre da última intimação");
    // Under the 1061, the act's own dated periods are pointed to, not denied.
    expect(text).toContain(
      "Os prazos que o ato publicado abre, com seus últimos dias, estão no início do alerta, em “O que fazer e até quando”.",
    );
    expect(text).not.toContain("não estimamos o último dia");
    expect(text).toMatch(
      /não contaram ou adiaram as datas: Dia Nacional de Zumbi e da Consciência Negra, 20\/11\/2026/u,
    );
    expect(data.acts?.[0]?.periods).toEqual([
      expect.objectContaining({
        name: "embargos de declaração",
        counting: "calendar",
        countingStartsOn: "2026-11-24",
        lastDay: "2026-11-25",
      }),
      expect.objectContaining({
        name: "apelação",
        counting: "calendar",
        countingStartsOn: "2026-11-24",
        lastDay: "2026-11-30",
      }),
    ]);
  });

  it("a sentence DataJud does not show published, dated from the case's DJEN intimação of it", () => {
    // Edit: 219 Procedência on Wed 18/11/2026 and no gazette movement; DJEN holds two intimações
    // made available on Thu 19/11: a despacho (not the sentence) and the sentença. Published Mon
    // 23/11 (20/11 a holiday), counted from Tue 24/11. Embargos, 5 dias úteis: 24-27/11 (4), 30/11
    // (5) -> Mon 30/11/2026. Apelação, 15 dias úteis: 24-27/11 (4), 30/11-04/12 (9), 07-11/12
    // (14; the Dia da Justiça, 08/12, is not known to the calendar and counts), 14/12 -> Mon
    // 14/12/2026.
    const publications: DjenItemFacts[] = [
      {
        availableOn: "2026-11-19",
        kind: "Intimação",
        documentType: "Despacho",
        text: "Intimem-se.",
        cancelled: false,
      },
      {
        availableOn: "2026-11-19",
        kind: "Intimação",
        documentType: "Sentença",
        text: "SENTENÇA. Julgo procedente o pedido.",
        cancelled: false,
      },
    ];
    const { text, data } = alertOf("tjto", "00034953520178272716", "G1", {
      until: "2099",
      newSince: "2026-11-01T00:00:00",
      klass: { codigo: 7, nome: "Procedimento Comum Cível" },
      extra: [{ codigo: 219, nome: "Procedência", dataHora: "2026-11-18T16:45:00.000Z" }],
      publications,
    });
    expect(section(text, "O QUE ACONTECEU")[0]).toContain(
      "publicação considerada feita em 23/11/2026 (intimação no DJEN disponibilizada em 19/11/2026)",
    );
    expect(data.acts?.[0]?.periods.map((p) => [p.name, p.lastDay])).toEqual([
      ["apelação", "2026-12-14"],
      ["embargos de declaração", "2026-11-30"],
    ]);
    // Only the despacho, or a cancelled sentence: not the act's publication.
    const none = alertOf("tjto", "00034953520178272716", "G1", {
      until: "2099",
      newSince: "2026-11-01T00:00:00",
      klass: { codigo: 7, nome: "Procedimento Comum Cível" },
      extra: [{ codigo: 219, nome: "Procedência", dataHora: "2026-11-18T16:45:00.000Z" }],
      publications: [
        publications[0] as DjenItemFacts,
        { ...(publications[1] as DjenItemFacts), cancelled: true },
      ],
    });
    expect(none.data.acts?.[0]?.periods.map((p) => p.lastDay)).toEqual([null, null]);
    expect(section(none.text, TODO)[0]).toMatch(/^- Data a confirmar: /u);
  });

  it("a mere juntada or remessa opens nothing: the alert says no period was found", () => {
    // The real tjsp record's last movement: 85 Petição on 26/01/2026, alone.
    const { text, data } = alertOf("tjsp", "00104905620258260309", "G1", {
      until: "2099",
      newSince: "2026-01-26T00:00:00",
      quiet: true,
    });
    expect(section(text, TODO)).toEqual([
      "Nenhum prazo ou audiência identificado nestas movimentações; confira nos autos.",
    ]);
    expect(text).not.toContain("Prazo da lei");
    expect(data.acts).toEqual([]);
  });

  it("a digest: the sentence alerted undated, then its publication, reads dated once", () => {
    // The tjdft sentence of 14/07/2020 alone (no publication yet), then the sweep that brings its
    // 1061 and 92: the digest merges both alerts of the case; the later reading of the act wins.
    const first = alertOf("tjdft", "00125906120158070018", "G1", {
      until: "2020-07-14T23:59:59",
      newSince: "2020-07-14T00:00:00",
      at: "2020-07-15T12:00:00.000Z",
    });
    expect(section(first.text, TODO)[0]).toMatch(/^- Data a confirmar: /u);
    const second = alertOf("tjdft", "00125906120158070018", "G1", {
      until: "2020-07-17T23:59:59",
      newSince: "2020-07-15T00:00:00",
      at: "2020-07-18T12:00:00.000Z",
    });
    // The second alert brings only the gazette movements; the act they publish is dated.
    expect(section(second.text, "O QUE ACONTECEU")[0]).toContain(
      "Sentença (Julgado improcedente o pedido) em 14/07/2020",
    );
    const { text, html } = renderDigest([first.content, second.content]);
    expect(text.match(/Até 07\/08\/2020 \(sexta-feira\): apelação/gu)).toHaveLength(1);
    expect(text).not.toContain("Data a confirmar");
    expect(text.match(/Calendário do tribunal: /gu)).toHaveLength(1);
    expect(html).toContain("Até 24/07/2020 (sexta-feira): embargos de declaração");
  });

  it("a hearing designated (edit of the real tjto record): its date to do, or to confirm", () => {
    const edit = { until: "2099", newSince: "2026-11-01T00:00:00", extra: [SCHEDULED_HEARING] };
    const undated = alertOf("tjto", "00034953520178272716", "G1", edit);
    expect(section(undated.text, TODO)).toEqual([
      "- Data a confirmar: Audiência de conciliação designada: comparecimento (a data da audiência não consta do DataJud: conferir no processo ou no DJEN)",
    ]);
    const dated = alertOf("tjto", "00034953520178272716", "G1", {
      ...edit,
      hearingOn: { date: "2027-03-10", time: "14:00" },
    });
    expect(section(dated.text, TODO)).toEqual([
      "- Em 10/03/2027 (quarta-feira): Audiência de conciliação designada às 14:00: comparecimento",
    ]);
    expect(dated.data.opening?.todo).toEqual([
      "Em 10/03/2027 (quarta-feira): Audiência de conciliação designada às 14:00: comparecimento",
    ]);
    // No estimate, no calendar paragraph: the hearing's date is the court's, not a count.
    expect(dated.text).not.toContain("Calendário do tribunal");
  });

  it("a first read of a long case: acts long past are history, not what to do", () => {
    // The whole real tjdft record read for the first time in 2026: its 2020 sentence and 2021
    // acórdão, each published, had every period end years ago.
    const { text, data } = alertOf("tjdft", "00125906120158070018", "G1", {
      until: "2099",
      newSince: "0000",
    });
    expect(data.acts).toEqual([]);
    expect(text).not.toContain("Até 07/08/2020");
    // Read the week after the publication, the same sentence is what to do.
    const fresh = alertOf("tjdft", "00125906120158070018", "G1", {
      until: "2020-07-17T23:59:59",
      newSince: "0000",
      at: "2020-07-18T12:00:00.000Z",
    });
    expect(fresh.data.acts?.map((a) => a.actOn)).toEqual(["2020-07-14"]);
  });

  it("a gazette movement the court re-dates moves the act's last days in the correction's alert", () => {
    // The real tjdft record up to its 1061 (the 92 of 17/07 left out), read again after the court
    // re-dated the 1061 from Thu 16/07 to Fri 17/07/2020: published Mon 20/07, counted from Tue
    // 21/07 (Lei 11.419 art. 4 §§ 3-4). Embargos, 5 dias úteis: 21, 22, 23, 24, 27/07 -> Mon
    // 27/07/2020 (it was 24/07); apelação, 15 dias úteis: 21-24/07 (4), 27-31/07 (9), 03-07/08
    // (14), 10/08 -> Mon 10/08/2020 (it was 07/08).
    const read = (day: string) => {
      const doc = realHit(hits, "tjdft", "00125906120158070018", "G1");
      const source = doc._source as { movimentos: RawMovement[] };
      source.movimentos = source.movimentos
        .filter((m) => String(m.dataHora) <= "2020-07-16T23:59:59")
        .map((m) =>
          m.codigo === 1061 && m.dataHora === "2020-07-16T02:42:08.000Z"
            ? { ...m, dataHora: `${day}T02:42:08.000Z` }
            : m,
        );
      return normalizeInstanceRecord(doc, "tjdft");
    };
    const gazette = (r: ReturnType<typeof read>) => {
      const found = r.movements.find((m) => m.code === 1061 && m.dateTime?.startsWith("2020-07-1"));
      if (found === undefined) throw new Error("no 1061 in July 2020");
      return found;
    };
    const before = gazette(read("2020-07-16"));
    const now = read("2020-07-17");
    const content = buildAlertContent({
      caseNumber: formatted("00125906120158070018"),
      court: "tjdft",
      label: null,
      previous: null,
      current: sampleSummary(),
      records: [now],
      newMovements: [],
      corrections: [{ instance: "G1", kind: "redated", before, after: gazette(now) }],
      provenance: { index: "api_publica_tjdft", url: "", fetchedAt: "2020-07-18T12:00:00.000Z" },
      changeKinds: ["corrected_movements"],
      calendars,
    });
    expect(content.acts.map((a) => a.periods.map((p) => p.lastDay))).toEqual([
      ["2020-08-10", "2020-07-27"],
    ]);
    const { text } = renderAlert(content);
    expect(section(text, TODO).slice(0, 2)).toEqual([
      "- Até 27/07/2020 (segunda-feira): embargos de declaração (5 dias úteis; CPC, art. 1.023; dias úteis, art. 219)",
      "- Até 10/08/2020 (segunda-feira): apelação (15 dias úteis; CPC, art. 1.003, § 5º; dias úteis, art. 219)",
    ]);
  });

  it("a citação's periods run from the citação or the audiência, never from a publication", () => {
    // Edit: a civil case of the real tjto record, a citação (TPU 12284) on Wed 18/11/2026 and a
    // 1061 the next day. The contestação runs from the audiência or the juntada (CPC arts. 231
    // and 335; act-periods.json marks it notFromPublication): it stays without a date.
    const { text, data } = alertOf("tjto", "00034953520178272716", "G1", {
      until: "2099",
      newSince: "2026-11-01T00:00:00",
      klass: { codigo: 7, nome: "Procedimento Comum Cível" },
      extra: [
        { codigo: 12284, nome: "Citação", dataHora: "2026-11-18T16:45:00.000Z" },
        { codigo: 1061, nome: DISPONIBILIZACAO, dataHora: "2026-11-19T00:20:00.000Z" },
      ],
    });
    const citation = data.acts?.find((a) => a.periods.some((p) => /contesta/u.test(p.name)));
    expect(citation?.periods.every((p) => p.lastDay === null)).toBe(true);
    expect(text).toMatch(/Data a confirmar: contestação[^\n]*não corre da publicação do ato/u);
  });
});
