import { describe, expect, it } from "vitest";
import { provenanceOfChange } from "../../../../src/monitor/report/summarize-changes.js";

const provenance = {
  index: "api_publica_tjdft",
  url: "https://api-publica.datajud.cnj.jus.br/api_publica_tjdft/_search",
  fetchedAt: "2026-12-04T12:00:00.000Z",
};

describe("the DataJud answer a stored change was found in", () => {
  it("is read from the change's details through the schema, other keys aside", () => {
    expect(provenanceOfChange({ id: 7, details: { newMovementIds: ["a:1"], provenance } })).toEqual(
      provenance,
    );
  });

  it("is an error naming the change when the details hold none, never a made-up answer", () => {
    expect(() => provenanceOfChange({ id: 7, details: { newMovementIds: [] } })).toThrow(
      /change 7 .*no DataJud provenance.*altered outside the monitor/,
    );
    expect(() => provenanceOfChange({ id: 8, details: null })).toThrow(/change 8 /);
    expect(() =>
      provenanceOfChange({ id: 9, details: { provenance: { ...provenance, url: 3 } } }),
    ).toThrow(/change 9 /);
  });
});
