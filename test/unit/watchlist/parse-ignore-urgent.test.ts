import { describe, expect, it } from "vitest";
import { mergeMovementRules } from "../../../src/watchlist/parse-ignore-urgent.js";
import { parseWatchlist } from "../../../src/watchlist/parse-watchlist.js";
import { code, errorsOf, name, oneCase, reported, yaml } from "./watchlist-test-kit.js";

describe("mergeMovementRules", () => {
  it("keeps the base first and drops the same code or the same folded name", () => {
    const base = [code(11010), name("Conclusão", "conclusao")];
    const own = [code(11010), name("CONCLUSAO", "conclusao"), name("penhora", "penhora"), code(85)];

    const merged = mergeMovementRules(base, own);

    expect(merged).toEqual([...base, name("penhora", "penhora"), code(85)]);
  });
});

describe("parseWatchlist alert settings: ignore and urgent items", () => {
  it.each([
    ['""', "an empty pattern would match every movement; remove it"],
    ['"   "', "an empty pattern would match every movement; remove it"],
    ["~", "an empty pattern would match every movement; remove it"],
    ["0", "0 is not a movement code: TPU codes are whole numbers from 1 up, like 11010"],
    ['"000"', "000 is not a movement code: TPU codes are whole numbers from 1 up"],
    ["-3", "-3 is not a movement code"],
    ["1.5", "1.5 is not a movement code"],
    ["true", "got true (a yes/no value)"],
    ["[1, 2]", "a list inside the list; write one code or name per item, like ignore: [juntada"],
    ["{code: 1}", "a mapping is not a movement code or name; write the code or name itself"],
    ['"a"', '"a" is one character and would match almost every movement'],
    ['"É"', '"É" is one character and would match almost every movement'],
  ])("refuses %s at the item", (item, message) => {
    const text = oneCase(`ignore: [juntada, ${item}]`);

    const errors = errorsOf(parseWatchlist(text, "w.yaml"));

    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      line: 3,
      col: 23,
      message: expect.stringContaining(message),
    });
  });

  it("reports every bad item of a block list at its own line", () => {
    const text = yaml(
      "defaults:",
      "  urgent:",
      "    - sentença",
      "    - ''",
      "    - 0",
      "    - decisão",
      "    -",
    );

    const result = parseWatchlist(text, "w.yaml");

    expect(errorsOf(result).map((e) => [e.line, e.col])).toEqual([
      [4, 7],
      [5, 7],
      [7, 6],
    ]);
  });

  it("asks for a list when ignore is a single value", () => {
    const text = oneCase("ignore: juntada");

    const result = parseWatchlist(text, "w.yaml");

    expect(reported(result)).toEqual([
      '3:13 cases[0].ignore: expected a list, got the text "juntada"; write it as a list: [juntada]',
    ]);
  });

  it("refuses the same rule in ignore and urgent of the defaults, at the later one", () => {
    const text = yaml("defaults:", "  urgent: [sentença, 11010]", '  ignore: ["11010", juntada]');

    const result = parseWatchlist(text, "w.yaml");

    expect(reported(result)).toEqual([
      "3:12 11010 is in both ignore and urgent (urgent on line 2); keep it in one list: urgent wins, so remove it from ignore to be alerted or from urgent to hear nothing of it",
    ]);
  });

  it("refuses the same folded name in ignore and urgent of one case", () => {
    const text = oneCase("ignore: [Juntada]", "urgent: [penhora, juntada]");

    const result = parseWatchlist(text, "w.yaml");

    expect(reported(result)).toEqual([
      expect.stringMatching(
        /^4:23 "juntada" is in both ignore and urgent \(ignore on line 3\); keep it in one list/,
      ),
    ]);
  });
});
