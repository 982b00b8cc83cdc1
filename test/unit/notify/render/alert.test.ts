import { describe, expect, it } from "vitest";
import { renderAlert } from "../../../../src/notify/render/alert.js";
import { AlertContent } from "../../../../src/notify/render/alert-content.js";
import { NOT_LEGAL_ADVICE } from "../../../../src/notify/render/email-kit.js";
import { sampleAlert, sampleLateMovement, sampleMovement, sampleSummary } from "./sample-alert.js";

const HOSTILE_LABEL = "<script>alert('x')</script>\r\nBcc: victim@example.com\u0007";

describe("renderAlert subject", () => {
  it("names the case, the status category and the number of new movements, marked for attention", () => {
    const content = sampleAlert();

    const { subject } = renderAlert(content);

    expect(subject).toBe("[datajud] ⚠ Silva x Souza (despejo): decidido (2 movimentações novas)");
  });

  it("falls back to the number without a label and has no marker without attention", () => {
    const content = sampleAlert({
      label: "  ",
      current: sampleSummary({
        needsLawyerAttention: false,
        attentionReasons: [],
        statusCategory: "in_progress",
      }),
      newMovements: [{ instance: "G1", movement: sampleMovement() }],
    });

    const { subject } = renderAlert(content);

    expect(subject).toBe("[datajud] 0713383-43.2025.8.07.0006: em andamento (1 movimentação nova)");
  });

  it("says so when a change brought no movement", () => {
    const content = sampleAlert({ newMovements: [], changeKinds: ["class_changed"] });

    const { subject } = renderAlert(content);

    expect(subject).toMatch(/\(nenhuma movimentação nova\)$/);
  });

  it("is one line without control characters and bounded in length", () => {
    const content = sampleAlert({ label: `${HOSTILE_LABEL}${"x".repeat(500)}` });

    const { subject } = renderAlert(content);

    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting there are none.
    expect(subject).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(subject.length).toBeLessThanOrEqual(200);
    expect(subject).toContain("decidido (2 movimentações novas)");
  });
});

describe("renderAlert body", () => {
  it("diffs the summary field by field in the text part", () => {
    const content = sampleAlert();

    const { text } = renderAlert(content);

    expect(text).toContain("Categoria: concluso para decisão → decidido");
    expect(text).toContain(
      "antes: Procedimento Comum Cível em 1ª Vara Cível de Ceilândia; concluso para sentença.",
    );
    expect(text).toContain(
      "agora: Procedimento Comum Cível em 1ª Vara Cível de Ceilândia; sentença de procedência.",
    );
    expect(text).toContain(
      "Atenção do advogado: não → sim: Sentença proferida: prazo de recurso corre",
    );
    expect(text).toContain("Próximo passo: Sentença → Intimação das partes da sentença");
  });

  it("marks fields that did not change and notes a first summary", () => {
    const unchanged = sampleAlert({ previous: sampleSummary() });
    const first = sampleAlert({ previous: null });

    const same = renderAlert(unchanged).text;
    const fresh = renderAlert(first).text;

    expect(same).toContain("Categoria: decidido (sem mudança)");
    expect(fresh).toContain("Primeiro resumo deste processo.");
    expect(fresh).toContain("Categoria: decidido\n");
  });

  it("lists new movements newest first with the court's time, code, name, hint and complements", () => {
    const content = sampleAlert();

    const { text } = renderAlert(content);

    const sentence = text.indexOf(
      "- 02/10/2025 10:30 · Julgado procedente o pedido · código 219, na TPU “Procedência” · 1º grau (G1)",
    );
    const petition = text.indexOf(
      "- 30/09/2025 14:05 · Juntada de petição · código 85 · 1º grau (G1)",
    );
    expect(sentence).toBeGreaterThan(-1);
    expect(petition).toBeGreaterThan(sentence);
    expect(text).toContain("O que significa: Sentença de mérito a favor do autor");
    expect(text).toContain("Complementos: tipo de conclusão: para sentença");
  });

  it("shows a publication stamped 00:15Z at 00:15 of its own day, in text and HTML", () => {
    const publication = sampleMovement({
      id: "m-publicacao",
      code: 92,
      name: "Publicação",
      dateTime: "2025-11-04T00:15:00",
      dateTimeRaw: "2025-11-04T00:15:00.000Z",
    });
    const content = sampleAlert({ newMovements: [{ instance: "G1", movement: publication }] });

    const { text, html } = renderAlert(content);

    expect(text).toContain("- 04/11/2025 00:15 · Publicação · código 92 · 1º grau (G1)");
    expect(html).toContain("<strong>04/11/2025 00:15</strong> · Publicação");
    expect(`${text}${html}`).not.toContain("03/11/2025");
  });

  it("shows our own instants in the schedule's time zone and says which clock is which", () => {
    const content = sampleAlert();

    const { text } = renderAlert(content, "Europe/Lisbon");

    expect(text).toContain("Consultado em: 02/10/2025 15:55");
    expect(text).toContain("Última atualização no DataJud: 02/10/2025 11:11");
    expect(text).toContain("- 02/10/2025 10:30 · Julgado procedente o pedido");
    expect(text).toContain(
      "Datas das movimentações e do DataJud como o tribunal as registrou; demais horários em Europe/Lisbon.",
    );
  });

  it("renders an alert queued before raw dates were kept, reading its Z dates as the court's", () => {
    const queued = JSON.parse(JSON.stringify(sampleAlert()));
    for (const m of queued.newMovements) {
      delete m.movement.dateTimeRaw;
      m.movement.dateTime = `${m.movement.dateTime}.000Z`;
    }

    const parsed = AlertContent.parse(queued);
    const { text } = renderAlert(parsed);

    expect(text).toContain(
      "- 02/10/2025 10:30 · Julgado procedente o pedido · código 219, na TPU “Procedência” · 1º grau (G1)",
    );
  });

  it("shows instances, provenance and who wrote the summary, and the disclaimer once", () => {
    const content = sampleAlert();

    const { text, html } = renderAlert(content);

    expect(text).toContain("- 1º grau (G1): Procedimento Comum Cível · 1ª Vara Cível de Ceilândia");
    expect(text).toContain("Índice consultado: índice do TJDFT no DataJud (api_publica_tjdft)");
    expect(text).toContain("Consultado em: 02/10/2025 11:55");
    expect(text).toContain("Última atualização no DataJud: 02/10/2025 11:11");
    expect(text).toContain("regras automáticas (sem modelo de IA)");
    expect(text.split("\n").filter((l) => l === NOT_LEGAL_ADVICE)).toHaveLength(1);
    expect(html).toContain(NOT_LEGAL_ADVICE);
  });

  it("says when a TRF1 number was read from TRF6, the court that took its cases over", () => {
    const content = sampleAlert({
      caseNumber: "1004321-10.2021.4.01.3800",
      court: "trf1",
      provenance: { ...sampleAlert().provenance, index: "api_publica_trf6" },
    });
    const ownCourt = sampleAlert();

    const { text, html } = renderAlert(content);

    expect(text).toContain("Índice consultado: índice do TRF6 no DataJud (api_publica_trf6)");
    expect(text).toContain(
      "Encontrado no índice de outro tribunal: o TRF6 assumiu em 2022 os processos federais de Minas Gerais",
    );
    expect(html).toContain("o TRF6 assumiu em 2022");
    expect(renderAlert(ownCourt).text).not.toContain("outro tribunal");
  });

  it("names the model when a model wrote the summary", () => {
    const content = sampleAlert({ current: sampleSummary({ generatedBy: "claude-sonnet-4-5" }) });

    const { text } = renderAlert(content);

    expect(text).toContain("Resumo gerado pelo modelo de IA claude-sonnet-4-5");
    expect(text).not.toContain("regras automáticas");
  });

  it("caps a long list of movements", () => {
    const many = Array.from({ length: 45 }, (_, i) => ({
      instance: "G1",
      movement: sampleMovement({
        id: `m${i}`,
        dateTime: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
      }),
    }));
    const content = sampleAlert({ newMovements: many });

    const { text } = renderAlert(content);

    expect(text.match(/^- \d\d\/\d\d\/2025/gm)).toHaveLength(30);
    expect(text).toContain("… e mais 15");
  });
});

describe("renderAlert HTML", () => {
  it("escapes label and DataJud text", () => {
    const content = sampleAlert({
      label: HOSTILE_LABEL,
      newMovements: [
        {
          instance: "G1",
          movement: sampleMovement({ name: '<img src="http://tracker.example/x.png">' }),
        },
      ],
    });

    const { html, text } = renderAlert(content);

    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=&quot;http://tracker.example/x.png&quot;&gt;");
    expect(text).not.toContain("\r");
    expect(text).not.toContain("\u0007");
  });

  it("uses inline styles only, with no remote resources, and no link but the court's case page", () => {
    const content = sampleAlert();

    const { html } = renderAlert(content);
    const anchors = html.match(/<a\s[^>]*>/gi) ?? [];

    expect(html).not.toMatch(/<style|<link|<img|class=|src=/i);
    expect(anchors).toEqual([
      '<a href="https://pje-consultapublica.tjdft.jus.br/consultapublica/ConsultaPublica/listView.seam?numeroProcesso=0713383-43.2025.8.07.0006">',
    ]);
    expect(html).toContain('<meta name="viewport"');
    expect(html).toContain("max-width:640px");
    expect(html).toContain("Requer atenção do advogado");
  });
});

describe("renderAlert: the court's public case page", () => {
  const link = (caseNumber: string, court: string, index = `api_publica_${court}`) =>
    renderAlert(
      sampleAlert({ caseNumber, court, provenance: { ...sampleAlert().provenance, index } }),
    );

  it("links TJSP, TJRJ, TJMG, TRF1-6 and the TRTs from the validated number, in text and HTML", () => {
    const tjsp = link("1035289-48.2022.8.26.0602", "tjsp");
    const trt2 = link("1000123-59.2024.5.02.0001", "trt2");
    const trf4 = link("5009485-92.2021.4.04.7100", "trf4");

    expect(tjsp.text).toContain(
      "Consulta pública no tribunal (e-SAJ, consulta de 1º grau): https://esaj.tjsp.jus.br/cpopg/search.do?",
    );
    expect(tjsp.text).toContain(
      "numeroDigitoAnoUnificado=1035289-48.2022&foroNumeroUnificado=0602",
    );
    expect(tjsp.html).toContain("&amp;foroNumeroUnificado=0602");
    expect(tjsp.html).not.toContain("&foroNumeroUnificado");
    expect(trt2.text).toContain(
      "https://pje.trt2.jus.br/consultaprocessual/detalhe-processo/1000123-59.2024.5.02.0001",
    );
    expect(trf4.text).toContain("txtValor=50094859220214047100");
  });

  it("links the court whose index holds the case: a TRF1 number read from TRF6 opens TRF6's page", () => {
    const moved = link("1004321-10.2021.4.01.3800", "trf1", "api_publica_trf6");

    expect(moved.text).toContain("https://pje1g.trf6.jus.br/consultapublica/");
    expect(moved.text).not.toContain("trf1.jus.br");
  });

  it("gives no link for a court without a stable URL pattern, nor for a number that does not validate", () => {
    const tjba = link("8000123-04.2024.8.05.0001", "tjba");
    const broken = link("<script>-00.2024.8.26.0001", "tjsp");

    expect(tjba.text).not.toContain("Consulta pública no tribunal");
    expect(tjba.html).not.toMatch(/<a\s/);
    expect(broken.html).not.toMatch(/<a\s/);
  });
});

describe("AlertContent", () => {
  it("survives the JSON round trip of the outbox payload", () => {
    const content = sampleAlert();

    const parsed = AlertContent.parse(JSON.parse(JSON.stringify(content)));

    expect(renderAlert(parsed)).toEqual(renderAlert(content));
  });
});

describe("renderAlert with alert rules", () => {
  it("raises the subject marker to URGENTE and says why at the top", () => {
    const content = sampleAlert({ urgent: true });

    const { subject, text, html } = renderAlert(content);

    expect(subject).toBe(
      "[datajud] ⚠ URGENTE Silva x Souza (despejo): decidido (2 movimentações novas)",
    );
    expect(text).toContain("⚠ URGENTE: há movimentação nova que o watchlist marca como urgente.");
    expect(html).toContain("<strong>⚠ URGENTE</strong>");
  });

  it("says how many routine movements the ignore rules left out, in text and HTML", () => {
    const one = renderAlert(sampleAlert({ ignoredMovements: 1 }));
    const three = renderAlert(sampleAlert({ ignoredMovements: 3 }));
    const none = renderAlert(sampleAlert());

    expect(one.text).toContain("1 movimentação rotineira não listada (regras ignore do watchlist)");
    expect(three.html).toContain("3 movimentações rotineiras não listadas");
    expect(none.text).not.toContain("rotineira");
  });

  it("reads an outbox payload stored before the rules existed as neither urgent nor filtered", () => {
    const { urgent: _u, ignoredMovements: _i, ...old } = sampleAlert();

    const parsed = AlertContent.parse(JSON.parse(JSON.stringify(old)));

    expect(parsed.urgent).toBe(false);
    expect(parsed.ignoredMovements).toBe(0);
  });
});

describe("renderAlert on a phone", () => {
  it("keeps the case number of the title and the header on one line (no break at its hyphen)", () => {
    const content = sampleAlert({ label: null });

    const { html, text } = renderAlert(content);

    const whole = `<span style="white-space:nowrap">${content.caseNumber}</span>`;
    expect(html).toMatch(new RegExp(`<h1[^>]*>${escapeRe(whole)}</h1>`));
    expect(html).toContain(`Processo ${whole} · `);
    // The court's link keeps the bare number in its address.
    expect(html).not.toMatch(/href="[^"]*white-space/);
    expect(text).not.toContain("white-space");
  });
});

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("renderAlert: late records and the case's own data", () => {
  const late = sampleLateMovement({ name: "Publicação <b>antiga</b>" });

  it("keeps a late record out of the news: a quiet section, its own date, days late", () => {
    const content = sampleAlert({
      current: sampleSummary({ needsLawyerAttention: false, attentionReasons: [] }),
      newMovements: [],
      lateMovements: [{ instance: "G1", movement: late }],
      changeKinds: ["late_movements"],
    });

    const { subject, text, html } = renderAlert(content);

    // 17/01/2024 16:37 to 02/10/2025 14:55 (fetched, São Paulo 11:55): 623 whole days.
    expect(subject).toBe(
      "[datajud] Silva x Souza (despejo): decidido (sem novidade; 1 registro antigo listado agora, de 17/01/2024)",
    );
    expect(text).toContain("MOVIMENTAÇÕES NOVAS (0)\nNenhuma.");
    expect(text).toContain(
      "- 17/01/2024 16:37 · Publicação <b>antiga</b> · código 92 · 1º grau (G1) (listada 623 dias depois da própria data)",
    );
    expect(html).toContain("Registros antigos listados agora (1)");
    expect(html).toContain("Publicação &lt;b&gt;antiga&lt;/b&gt;");
    expect(html).not.toContain("<b>antiga</b>");
  });

  it("names the news in the subject when there is news, and the late record only in the body", () => {
    const content = sampleAlert({ lateMovements: [{ instance: "G1", movement: late }] });

    const { subject, text } = renderAlert(content);

    expect(subject).toMatch(/ \(2 movimentações novas\)$/);
    expect(text).toContain("REGISTROS ANTIGOS LISTADOS AGORA (1)");
  });

  it("shows a field change before and after, in its instance, escaped in HTML", () => {
    const content = sampleAlert({
      newMovements: [],
      fieldChanges: [
        {
          instance: "G1",
          field: "courtUnit",
          before: { code: 1, name: "1ª Vara Cível de Ceilândia", municipalityCode: 5300108 },
          after: { code: 2, name: "2ª Vara <Cível>", municipalityCode: 5300108 },
        },
      ],
      changeKinds: ["court_unit_changed"],
    });

    const { subject, text, html } = renderAlert(content);

    expect(subject).toContain(
      "(Órgão julgador alterado (redistribuição) no 1º grau (G1): agora 2ª Vara <Cível>)",
    );
    expect(text).toContain(
      "- Órgão julgador alterado (redistribuição) no 1º grau (G1)\n  Antes: 1ª Vara Cível de Ceilândia (código 1)\n  Agora: 2ª Vara <Cível> (código 2)",
    );
    expect(html).toContain("Dados do processo alterados (1)");
    expect(html).toContain("2ª Vara &lt;Cível&gt; (código 2)");
  });
});
