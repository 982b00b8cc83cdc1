import { describe, expect, it } from "vitest";
import {
  type EmailDocument,
  GAP,
  heading,
  para,
  renderDocument,
  toned,
  writeHtml,
  writeText,
} from "../../../../src/notify/render/document.js";

const HOSTILE = `<img src=x onerror="alert(1)"> & 'x'`;
const ESCAPED = "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;x&#39;";

function doc(blocks: EmailDocument["blocks"], subject = "Assunto"): EmailDocument {
  return { subject, lang: "pt-BR", blocks };
}

describe("the text writer", () => {
  it("writes titles as written, sections and minor headings in capitals, a gap as a blank line", () => {
    const text = writeText(
      doc([
        heading("title", "Relatório de acompanhamento"),
        para("Gerado em 06/12/2026 07:00.", "meta"),
        GAP,
        heading("section", "Publicações no DJEN (2)"),
        heading("minor", "Registros antigos listados agora (1)"),
      ]),
    );

    expect(text).toBe(
      [
        "Relatório de acompanhamento",
        "Gerado em 06/12/2026 07:00.",
        "",
        "PUBLICAÇÕES NO DJEN (2)",
        "REGISTROS ANTIGOS LISTADOS AGORA (1)",
        "",
      ].join("\n"),
    );
  });

  it("hangs a list item's lines under its marker: two spaces after '- ', three after '1. '", () => {
    const text = writeText(
      doc([
        { kind: "list", items: [{ title: [{ strong: "Caso A" }], lines: ["linha 1", "linha 2"] }] },
        {
          kind: "list",
          ordered: true,
          items: [
            { title: "Primeiro", lines: [toned("small", "detalhe")] },
            { title: "Segundo\ncontinua" },
          ],
        },
        { kind: "list", spaced: true, items: [{ title: "x" }, { title: "y" }] },
      ]),
    );

    expect(text).toBe(
      [
        "- Caso A",
        "  linha 1",
        "  linha 2",
        "1. Primeiro",
        "   detalhe",
        "2. Segundo",
        "   continua",
        "",
        "- x",
        "",
        "- y",
        "",
      ].join("\n"),
    );
  });

  it("writes rows as 'key: value', a notice's heading in capitals, and entries numbered with their blocks indented", () => {
    const text = writeText(
      doc([
        {
          kind: "notice",
          heading: "⚠ Precisam de atenção (1)",
          blocks: [{ kind: "list", items: [{ title: "Caso" }] }],
        },
        {
          kind: "entries",
          entries: [
            {
              title: "⚠ URGENTE Caso A",
              blocks: [
                { kind: "rows", rows: [{ key: "Situação", value: "primeira\n\nterceira" }] },
                { kind: "list", items: [{ title: "mov", lines: ["Quando: hoje"] }] },
                para(["… e mais 2 (veja ", { code: "monitor history" }, ")."], "muted"),
              ],
            },
            { title: "Caso B", blocks: [para("Processo 1")] },
          ],
        },
      ]),
    );

    expect(text).toBe(
      [
        "⚠ PRECISAM DE ATENÇÃO (1)",
        "- Caso",
        "1. ⚠ URGENTE Caso A",
        "   Situação: primeira",
        "   ",
        "   terceira",
        "   - mov",
        "     Quando: hoje",
        "   … e mais 2 (veja `monitor history`).",
        "",
        "2. Caso B",
        "   Processo 1",
        "",
        "",
      ].join("\n"),
    );
  });
});

describe("the HTML writer", () => {
  it("escapes every string it is given, wherever it sits, and adds no markup of the text's", () => {
    const html = writeHtml(
      doc(
        [
          heading("title", HOSTILE),
          heading("section", HOSTILE),
          heading("minor", HOSTILE),
          para([HOSTILE, { strong: HOSTILE }, { code: HOSTILE }], "meta"),
          { kind: "rows", rows: [{ key: HOSTILE, value: HOSTILE, tone: "attention" }] },
          {
            kind: "list",
            items: [{ title: [{ strong: HOSTILE }], lines: [HOSTILE, toned("small", HOSTILE)] }],
          },
          { kind: "notice", heading: HOSTILE, blocks: [para(HOSTILE)] },
          { kind: "entries", entries: [{ title: HOSTILE, blocks: [para(HOSTILE, "footer")] }] },
        ],
        HOSTILE,
      ),
    );

    expect(html).not.toContain("<img");
    expect(html).not.toContain("'x'");
    // The subject (the page's title) and each of the 15 strings above.
    expect(html.split(ESCAPED)).toHaveLength(17);
  });

  it("makes the first heading the page's h1, the later sections h2, and keeps line breaks", () => {
    const html = writeHtml(
      doc([
        heading("section", "⚠ DataJud refused the API key"),
        para("linha 1\nlinha 2"),
        heading("section", "The monitor reaches DataJud again"),
      ]),
    );

    expect(html.match(/<h1 /g)).toHaveLength(1);
    expect(html).toMatch(/<h1 [^>]*>⚠ DataJud refused the API key<\/h1>/);
    expect(html).toMatch(/<h2 [^>]*>The monitor reaches DataJud again<\/h2>/);
    expect(html).toContain("linha 1<br>linha 2");
  });

  it("keeps a CNJ number on one line in headings and meta lines, and numbers entries", () => {
    const html = writeHtml(
      doc([
        { kind: "entries", entries: [{ title: "Caso 0708123-34.2024.8.07.0001", blocks: [] }] },
        para("Processo 0708123-34.2024.8.07.0001 · TJDFT", "meta"),
      ]),
    );

    expect(html.match(/white-space:nowrap">0708123-34\.2024\.8\.07\.0001</g)).toHaveLength(2);
    expect(html).toMatch(/<h1 [^>]*>1\. Caso /);
  });

  it("renders lists as ul or ol with each line in its tone, and a notice as one box", () => {
    const html = writeHtml(
      doc([
        { kind: "list", ordered: true, items: [{ title: "a", lines: ["muted"] }] },
        {
          kind: "notice",
          heading: "Atenção",
          blocks: [{ kind: "list", lineTone: "body", items: [{ title: "b", lines: ["plain"] }] }],
        },
      ]),
    );

    expect(html).toMatch(
      /<ol [^>]*><li [^>]*>a<br><span style="color:#71717a;[^"]*">muted<\/span>/,
    );
    expect(html).toMatch(/<div [^>]*><strong>Atenção<\/strong><ul [^>]*margin-top:6px;">/);
    expect(html).toContain("b<br>plain</li>");
  });
});

describe("a page title", () => {
  it("opens the HTML page as its h1 and is not in the text part", () => {
    const mail = renderDocument({
      subject: "Assunto",
      lang: "pt-BR",
      pageTitle: "Verificação diária de 01/10/2025",
      blocks: [heading("section", "Fontes"), para("Verificado, nada novo.")],
    });

    expect(mail.text).toBe("FONTES\nVerificado, nada novo.\n");
    expect(mail.html).toMatch(
      /<h1 [^>]*>Verificação diária de 01\/10\/2025<\/h1>\n<h2 [^>]*>Fontes<\/h2>/,
    );
  });
});

describe("a link", () => {
  it("is its address in text, and an anchor in HTML whose address no number-keeping span breaks", () => {
    const url = "https://tribunal.example/consulta?numero=0708123-34.2024.8.07.0001&x=<1>";
    const mail = renderDocument(
      doc([para(["Consulta pública no tribunal (PJe): ", { link: url }], "meta")]),
    );

    expect(mail.text).toBe(`Consulta pública no tribunal (PJe): ${url}\n`);
    const escaped =
      "https://tribunal.example/consulta?numero=0708123-34.2024.8.07.0001&amp;x=&lt;1&gt;";
    expect(mail.html).toContain(`<a href="${escaped}">${escaped}</a>`);
  });
});

describe("a quote of court text", () => {
  it("keeps its lines as they came in text, and is escaped in its own box in HTML", () => {
    const court = "Intime-se.\n<script>x</script> & 'y'";
    const mail = renderDocument(doc([heading("section", "Texto"), { kind: "quote", text: court }]));

    expect(mail.text).toBe(`TEXTO\n${court}\n`);
    expect(mail.html).toContain(
      "Intime-se.<br>&lt;script&gt;x&lt;/script&gt; &amp; &#39;y&#39;</div>",
    );
    expect(mail.html).not.toContain("<script");
  });
});

describe("renderDocument", () => {
  it("gives the subject, the text part and a whole HTML page in the document's language", () => {
    const mail = renderDocument({ subject: "Assunto", lang: "en", blocks: [para("Hello")] });

    expect(mail.subject).toBe("Assunto");
    expect(mail.text).toBe("Hello\n");
    expect(mail.html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(mail.html).toContain('<html lang="en">');
    expect(mail.html).toContain("<title>Assunto</title>");
  });
});
