import { describe, expect, it } from "vitest";
import { renderPublicationAlert } from "../../../../src/notify/render/publication-alert.js";
import { foldText } from "../../../../src/policy/alert-rules.js";
import { decidePublication } from "../../../../src/policy/publication-rules.js";
import { samplePublication } from "./sample-publication.js";

const NOW = new Date("2026-12-02T13:00:00.000Z");

function policy(urgent: string[]) {
  return {
    ignore: [],
    urgent: urgent.map((text) => ({ kind: "name" as const, text, folded: foldText(text) })),
    muted: false,
    mutedUntil: null,
  };
}

describe("a DJEN alert's urgency names the watchlist rule that matched", () => {
  it("keeps which rule matched the kind or the document type, as the watchlist wrote it", () => {
    const decision = decidePublication({
      facts: { kind: "Edital", documentType: "Sentença" },
      policy: policy(["audiência", "sentenca"]),
      now: NOW,
      timezone: "America/Sao_Paulo",
    });

    expect(decision.urgency).toBe("rule");
    expect(decision.urgentRule).toEqual({
      rule: "sentenca",
      field: "documentType",
      value: "Sentença",
    });
  });

  it("says the rule and what it matched in the alert, then that an intimação may open a deadline", () => {
    const content = samplePublication({
      urgency: "rule",
      urgentRule: { rule: "sentença", field: "documentType", value: "Sentença" },
    });

    const { text, html } = renderPublicationAlert(content);

    expect(text).toContain(
      'a regra urgent: "sentença" do watchlist casa com o tipo de documento "Sentença"; intimação ou citação: pode abrir prazo.',
    );
    expect(html).toContain(
      "a regra urgent: &quot;sentença&quot; do watchlist casa com o tipo de documento",
    );
    expect(text).not.toContain("o watchlist marca esta publicação como urgente");
  });

  it("keeps the old words for an alert queued before the rule was kept", () => {
    const { text } = renderPublicationAlert(
      samplePublication({ urgency: "rule", urgentRule: null }),
    );

    expect(text).toContain("o watchlist marca esta publicação como urgente.");
  });
});
