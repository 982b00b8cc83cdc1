import { describe, expect, it } from "vitest";
import {
  fieldChangesOfChange,
  readFieldChange,
  SECRECY_LEVELS,
  secrecyText,
} from "../../../src/summarize/field-changes.js";

describe("readFieldChange", () => {
  it("says which subjects came and went, in the instance where they changed", () => {
    const reading = readFieldChange({
      instance: "G1",
      field: "subjects",
      before: [{ code: 10655, name: "Honorários Advocatícios" }],
      after: [
        { code: 10655, name: "Honorários Advocatícios" },
        { code: 7691, name: "Cumprimento de sentença" },
      ],
    });

    expect(reading).toEqual({
      title: "Assuntos alterados no 1º grau (G1)",
      headline:
        "Assuntos alterados no 1º grau (G1): incluído Cumprimento de sentença (código 7691)",
      brief: "Assuntos alterados no 1º grau (G1)",
      before: "Honorários Advocatícios (código 10655)",
      after: "Honorários Advocatícios (código 10655); Cumprimento de sentença (código 7691)",
      note: null,
    });
  });

  it("reads every MNI secrecy level by its name, and one outside the table as such", () => {
    expect(Object.keys(SECRECY_LEVELS)).toEqual(["0", "1", "2", "3", "4", "5"]);
    expect([secrecyText(0), secrecyText(5), secrecyText(7), secrecyText(null)]).toEqual([
      "0 (público)",
      "5 (sigilo absoluto)",
      "7 (nível fora da tabela do MNI)",
      "não informado",
    ]);
  });

  it("says a case made public again is public", () => {
    const note = readFieldChange({
      instance: "G2",
      field: "secrecyLevel",
      before: 3,
      after: 0,
    }).note;

    expect(note).toContain("O processo passou a ser público.");
  });

  it("reads the stored changes leniently: an unknown field is left out", () => {
    expect(
      fieldChangesOfChange({
        fieldChanges: [
          { instance: "G1", field: "class", before: null, after: { code: 156, name: "X" } },
          { instance: "G1", field: "judge", before: 1, after: 2 },
        ],
      }).map((f) => f.field),
    ).toEqual(["class"]);
  });
});
