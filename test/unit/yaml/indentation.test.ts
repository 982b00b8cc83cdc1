import { describe, expect, it } from "vitest";
import { formatPositionedError } from "../../../src/yaml/positioned-error.js";
import { parseYamlSource } from "../../../src/yaml/yaml-source.js";

function errors(text: string): string[] {
  return parseYamlSource(text, "w.yaml").errors.map(formatPositionedError);
}

describe("YAML indentation mistakes: our message, at the column the line starts", () => {
  it("points at a tab inside the indentation, where it is, not at column 1", () => {
    expect(errors('cases:\n  - number: "1"\n  \tlabel: x\n')).toEqual([
      "w.yaml:3:3 YAML: a tab is used for indentation; YAML indents with spaces only: replace the tab with spaces",
    ]);
    expect(errors('cases:\n  -\tnumber: "1"\n')[0]).toMatch(/^w\.yaml:2:4 YAML: a tab/);
  });

  it("names the key above to line up with when a key is indented one space too far", () => {
    expect(errors("defaults:\n  notify: [a@b.com]\n   digest: daily\n")).toEqual([
      "w.yaml:3:4 YAML: inconsistent indentation: `digest:` starts at column 4: line it up with `notify:` (line 2, column 3)",
    ]);
  });

  it("offers the item's key and the enclosing key when a key falls between them", () => {
    expect(errors('cases:\n  - number: "1"\n    label: x\n   court: tjsp\n')).toEqual([
      "w.yaml:4:4 YAML: inconsistent indentation: `court:` starts at column 4: line it up with `label:` (line 3, column 5) or `cases:` (line 1, column 1)",
    ]);
  });

  it("says so when a list item's key was written under its '- '", () => {
    expect(errors('cases:\n  - number: "1"\n  label: x\n')).toEqual([
      "w.yaml:3:3 YAML: inconsistent indentation: `label:` starts at column 3, under the '- ' of the item above: line it up with `number:` (line 2, column 5) or `cases:` (line 1, column 1)",
    ]);
  });

  it("explains a list item under a key that already has a value, once for the line", () => {
    expect(errors('cases:\n  - number: "1"\n    notify: a@b.com\n    - c@d.com\n')).toEqual([
      "w.yaml:4:5 YAML: a list item under `notify:` (line 3), which already has a value: leave nothing after `notify:` and put each value on a '- ' line, or write notify: [a, b]",
    ]);
  });

  it("lines a list item up with the item above it", () => {
    expect(errors('cases:\n  - number: "1"\n   - number: "2"\n')).toEqual([
      "w.yaml:3:4 YAML: inconsistent indentation: this list item ('- ') starts at column 4: line it up with the item on line 2 (column 3); the items of one list start at the same column",
    ]);
    expect(errors('cases:\n  - number: "1"\n\n  # a comment\n- number: "2"\n')[0]).toContain(
      "w.yaml:5:1 YAML: inconsistent indentation: this list item ('- ') starts at column 1: line it up with the item on line 2 (column 3)",
    );
  });

  it("keeps yaml's own words for what is no indentation mistake", () => {
    expect(errors("cases: [a, b\n")).toEqual([
      expect.stringMatching(/^w\.yaml:\d+:\d+ YAML: Flow sequence in block collection/),
    ]);
  });
});
