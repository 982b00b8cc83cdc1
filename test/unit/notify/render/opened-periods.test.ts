import { describe, expect, it } from "vitest";
import { normalizeInstanceRecord } from "../../../../src/datajud/normalize.js";
import { calendarsWith } from "../../../../src/deadlines/publication-estimate.js";
import { renderAlert } from "../../../../src/notify/render/alert.js";
import { buildAlertContent } from "../../../../src/notify/render/alert-content.js";
import { movementEvent } from "../../../../src/notify/render/build-event.js";
import { chatMessage } from "../../../../src/notify/render/chat-message.js";
import { renderDigest } from "../../../../src/notify/render/digest.js";
import { rulesSummary } from "../../../../src/summarize/rules-summary.js";
import {
  formatted,
  loadRealHits,
  type RawMovement,
  realHit,
} from "../../../support/real-datajud.js";

/*
 * The periods an act opens are listed once, with their last days, under "O que fazer e até
 * quando": the attention block and the summary's fields (written by the rules) say where they are
 * instead of naming them again, in the text, the HTML, the chat message and the digest; no date
 * goes missing. On the real tjdft record: the sentence of Tue 14/07/2020, its 1061 of Thu 16/07;
 * by hand (act-deadlines-real.test.ts): embargos Fri 24/07/2020, apelação Fri 07/08/2020.
 */

const hits = loadRealHits();
const DIGITS = "00125906120158070018";
const APELACAO = "apelação: 15 dias úteis da intimação da sentença";

function alertOn(until: string, drop1061 = false) {
  const doc = realHit(hits, "tjdft", DIGITS, "G1");
  const source = doc._source as { movimentos: RawMovement[] };
  source.movimentos = source.movimentos.filter(
    (m) =>
      String(m.dataHora) <= until &&
      !(drop1061 && (m.codigo === 1061 || m.codigo === 92) && String(m.dataHora) >= "2020-07-14"),
  );
  const record = normalizeInstanceRecord(doc, "tjdft");
  const fresh = record.movements.filter((m) => (m.dateTime ?? "") >= "2020-07-14");
  const now = new Date("2020-07-18T12:00:00.000Z");
  const current = rulesSummary({
    cnjNumber: formatted(DIGITS),
    court: "tjdft",
    records: [record],
    newMovements: fresh,
    now,
  });
  const content = buildAlertContent({
    caseNumber: formatted(DIGITS),
    court: "tjdft",
    label: null,
    previous: null,
    current,
    records: [record],
    newMovements: fresh.map((movement) => ({ instance: "G1", movement })),
    provenance: { index: "api_publica_tjdft", url: "", fetchedAt: now.toISOString() },
    changeKinds: ["new_movements"],
    calendars: calendarsWith(),
  });
  const { text, html } = renderAlert(content);
  const chat = chatMessage(movementEvent(content, { id: `evt_${"0".repeat(32)}` }));
  const lines = chat.lines.map((l) => (typeof l === "string" ? l : l.text));
  const digest = renderDigest([content], "America/Sao_Paulo");
  return { content, text, html, chat: lines, digest: digest.text };
}

describe("an act's periods said once, under what to do by when", () => {
  it("the attention block and the summary point to the dated periods instead of naming them", () => {
    const { content, text, html, chat, digest } = alertOn("2020-07-17T23:59:59");
    // The rules' own words name the periods in full: they are what is not repeated.
    expect(content.current.attentionReasons[0]?.reason).toContain(APELACAO);

    expect(text).toContain(
      "- sentença proferida: prazos que abre: ver “O que fazer e até quando”, acima (14/07/2020",
    );
    expect(text).toMatch(
      /Atenção do advogado: sim: sentença proferida: prazos que abre: ver “O que fazer e até quando”, acima/u,
    );
    expect(text).toContain(
      "Próximo passo: Recurso da sentença (ver “O que fazer e até quando”, acima) ou trânsito em julgado.",
    );
    expect(text).not.toContain(APELACAO);
    expect(html).not.toContain(APELACAO);
    expect(html).toContain("prazos que abre: ver “O que fazer e até quando”, acima");
    // Every date is still there, once in the list.
    for (const body of [text, html]) {
      expect(body).toContain("Até 24/07/2020 (sexta-feira)");
      expect(body).toContain("Até 07/08/2020 (sexta-feira)");
    }
    expect(chat).toContain("Atenção: sentença proferida: prazos que abre: ver as datas acima");
    expect(chat.filter((l) => l.startsWith("Até "))).toHaveLength(2);
    expect(digest).not.toContain(APELACAO);
    expect(digest).toContain("prazos que abre: ver “O que fazer e até quando”, abaixo");
    expect(digest).toContain("Até 07/08/2020 (sexta-feira)");
  });

  it("keeps the summary's words where a period has no date yet", () => {
    // Without its 1061 and 92, the sentence's publication is unknown: "data a confirmar".
    const { content, text, chat } = alertOn("2020-07-17T23:59:59", true);
    expect(content.acts[0]?.periods.every((p) => p.lastDay === null)).toBe(true);

    expect(text).toContain(`sentença proferida: prazos que abre: ${APELACAO}`);
    expect(text).not.toContain("ver “O que fazer e até quando”");
    expect(chat.join("\n")).toContain(APELACAO);
  });
});
