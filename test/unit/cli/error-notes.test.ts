import { describe, expect, it } from "vitest";
import { errorNotes } from "../../../src/cli/error-notes.js";

const KEY =
  "DataJud refused the key (HTTP 401): it is mistyped or CNJ rotated it; compare DATAJUD_API_KEY with the current public key on the DataJud wiki (https://datajud-wiki.cnj.jus.br/api-publica/acesso)";

describe("errorNotes: a long or repeated error said once, under the table", () => {
  it("references the same error on every row and says it once, with how many cases had it", () => {
    const notes = errorNotes([KEY, null, KEY, KEY], { inline: 60, head: 45 });

    expect(notes.cells).toEqual([
      "DataJud refused the key (HTTP 401) [1]",
      "",
      "DataJud refused the key (HTTP 401) [1]",
      "DataJud refused the key (HTTP 401) [1]",
    ]);
    expect(notes.notes).toEqual([`[1] 3 cases: ${KEY}`]);
  });

  it("keeps a short error seen once in its row, numbers the others in order of appearance", () => {
    const notes = errorNotes(
      ["timeout", "DataJud answered HTTP 503", "DataJud answered HTTP 503"],
      {
        inline: 40,
        head: 0,
      },
    );

    expect(notes.cells).toEqual(["timeout", "[1]", "[1]"]);
    expect(notes.notes).toEqual(["[1] 2 cases: DataJud answered HTTP 503"]);
  });

  it("cuts a long first clause, and says a long error seen once in a note too", () => {
    const long = `${"x".repeat(80)}: do this`;

    const notes = errorNotes([long], { inline: 60, head: 20 });

    expect(notes.cells).toEqual([`${"x".repeat(19)}… [1]`]);
    expect(notes.notes).toEqual([`[1] 1 case: ${long}`]);
  });
});
