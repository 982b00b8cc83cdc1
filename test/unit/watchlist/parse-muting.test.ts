import { describe, expect, it } from "vitest";
import { parseWatchlist } from "../../../src/watchlist/parse-watchlist.js";
import { errorsOf, oneCase, reported } from "./watchlist-test-kit.js";

describe("parseWatchlist alert settings: muting", () => {
  it("wants muted to be true or false", () => {
    const text = oneCase("muted: yes");

    const result = parseWatchlist(text, "w.yaml");

    expect(reported(result)).toEqual([
      '3:12 cases[0].muted: expected true or false, got the text "yes"',
    ]);
  });

  it.each([
    [
      "2027-02-30",
      '"2027-02-30" is not a calendar date (2027-02 has 28 days); write a real date as YYYY-MM-DD',
    ],
    ["2027-13-01", '"2027-13-01" is not a calendar date (months go from 01 to 12)'],
    ["2026-02-29", '"2026-02-29" is not a calendar date (2026-02 has 28 days)'],
    ['"31/01/2027"', '"31/01/2027": write the date as YYYY-MM-DD, here 2027-01-31'],
    ["31.01.2027", '"31.01.2027": write the date as YYYY-MM-DD, here 2027-01-31'],
    ["2027-1-5", '"2027-1-5": write the date with a two-digit month and day, here 2027-01-05'],
    [
      "next monday",
      '"next monday" is not a date written YYYY-MM-DD; write it like muted_until: 2027-01-31',
    ],
    [
      "20270131",
      "muted_until: expected a date written YYYY-MM-DD, like muted_until: 2027-01-31, got the number 20270131",
    ],
    ["true", "got true (a yes/no value)"],
  ])("refuses muted_until: %s", (value, message) => {
    const text = oneCase(`muted_until: ${value}`);

    const errors = errorsOf(parseWatchlist(text, "w.yaml"));

    expect(errors).toEqual([
      { file: "w.yaml", line: 3, col: 18, message: expect.stringContaining(message) },
    ]);
  });

  it("refuses muted together with muted_until", () => {
    const text = oneCase("muted: true", "muted_until: 2027-01-31");

    const result = parseWatchlist(text, "w.yaml");

    expect(reported(result)).toEqual([
      "4:5 muted and muted_until are both given; choose one: muted: true for no alerts until you remove it, or muted_until: a date",
    ]);
  });
});
