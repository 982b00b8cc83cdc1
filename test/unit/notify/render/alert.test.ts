import { describe, expect, it } from "vitest";
import { renderAlert } from "../../../../src/notify/render/alert.js";
import { AlertContent } from "../../../../src/notify/render/alert-content.js";
import { NOT_LEGAL_ADVICE } from "../../../../src/notify/render/email-kit.js";
import { sampleAlert, sampleMovement, sampleSummary } from "./sample-alert.js";

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

    const sentence = text.indexOf("- 02/10/2025 10:30 · Procedência · código 219 · G1");
    const petition = text.indexOf("- 30/09/2025 14:05 · Juntada de Petição · código 85 · G1");
    expect(sentence).toBeGreaterThan(-1);
    expect(petition).toBeGreaterThan(sentence);
    expect(text).toContain("O que significa: Sentença de mérito a favor do autor");
    expect(text).toContain("Complementos: tipo de conclusao: para sentença");
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

    expect(text).toContain("- 04/11/2025 00:15 · Publicação · código 92 · G1");
    expect(html).toContain("<strong>04/11/2025 00:15</strong> · Publicação");
    expect(`${text}${html}`).not.toContain("03/11/2025");
  });

  it("shows our own instants in the schedule's time zone and says which clock is which", () => {
    const content = sampleAlert();

    const { text } = renderAlert(content, "Europe/Lisbon");

    expect(text).toContain("Consultado em: 02/10/2025 15:55");
    expect(text).toContain("Última atualização no DataJud: 02/10/2025 11:11");
    expect(text).toContain("- 02/10/2025 10:30 · Procedência");
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

    expect(text).toContain("- 02/10/2025 10:30 · Procedência · código 219 · G1");
  });

  it("shows instances, provenance and who wrote the summary, and the disclaimer once", () => {
    const content = sampleAlert();

    const { text, html } = renderAlert(content);

    expect(text).toContain("- G1: Procedimento Comum Cível · 1ª Vara Cível de Ceilândia");
    expect(text).toContain("Índice consultado: api_publica_tjdft");
    expect(text).toContain("Consultado em: 02/10/2025 11:55");
    expect(text).toContain("Última atualização no DataJud: 02/10/2025 11:11");
    expect(text).toContain("regras automáticas (sem modelo de IA)");
    expect(text.split("\n").filter((l) => l === NOT_LEGAL_ADVICE)).toHaveLength(1);
    expect(html).toContain(NOT_LEGAL_ADVICE);
  });

  it("says when a TRF1 number was read from TRF6, the court that took its cases over", () => {
    const content = sampleAlert({
      caseNumber: "1004321-20.2021.4.01.3800",
      court: "trf1",
      provenance: { ...sampleAlert().provenance, index: "api_publica_trf6" },
    });
    const ownCourt = sampleAlert();

    const { text, html } = renderAlert(content);

    expect(text).toContain("Índice consultado: api_publica_trf6");
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

  it("uses inline styles only, with no remote resources or links", () => {
    const content = sampleAlert();

    const { html } = renderAlert(content);

    expect(html).not.toMatch(/<style|<link|<img|<a\s|class=|src=|href=/i);
    expect(html).toContain('<meta name="viewport"');
    expect(html).toContain("max-width:640px");
    expect(html).toContain("Requer atenção do advogado");
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
