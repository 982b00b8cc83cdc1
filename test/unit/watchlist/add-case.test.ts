import { describe, expect, it } from "vitest";
import { addCaseToWatchlist } from "../../../src/watchlist/add-case.js";

const CASE = "1035289-48.2022.8.26.0602";

describe("addCaseToWatchlist", () => {
  it("adds cases: at the end of a file that has none, the rest untouched", () => {
    const text = "# only parties so far\ndefaults:\n  notify: [ana@example.com]\n";

    const result = addCaseToWatchlist(text, "w.yaml", { number: "10352894820228260602" });

    expect(result).toEqual({
      ok: true,
      text: `${text}cases:\n  - number: "${CASE}"\n`,
      line: 5,
      formatted: CASE,
    });
  });

  it("keeps an item's indentation when the list is written flush with its key", () => {
    const text = 'cases:\n- number: "0713383-43.2025.8.07.0006"\n  label: Despejo\n';

    const result = addCaseToWatchlist(text, "w.yaml", { number: CASE, label: "Cobrança" });

    expect(result.ok && result.text).toBe(`${text}- number: "${CASE}"\n  label: Cobrança\n`);
  });

  it("fills an empty flow list, keeping the comments", () => {
    const text = "# mine\ncases: [] # none yet\n";

    const result = addCaseToWatchlist(text, "w.yaml", { number: CASE });

    expect(result.ok && result.text).toContain("# mine");
    expect(result.ok && result.text).toContain(CASE);
  });

  it("refuses a bad address and says nothing is written", () => {
    const result = addCaseToWatchlist("cases: []\n", "w.yaml", {
      number: CASE,
      notify: ["not an address"],
    });

    expect(result).toEqual({ ok: false, errors: ['"not an address" is not an e-mail address'] });
  });
});
