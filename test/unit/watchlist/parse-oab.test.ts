import { describe, expect, it } from "vitest";
import { parseWatchlist } from "../../../src/watchlist/parse-watchlist.js";
import { reported, TJDFT, valid, yaml } from "./watchlist-test-kit.js";

describe("parseWatchlist: oab registrations", () => {
  it("reads defaults.oab for defaults.notify and a watcher's oab for that address, merged", () => {
    const text = yaml(
      "defaults:",
      "  notify: [escritorio@example.com]",
      '  oab: ["123456/SP", "OAB/RJ 094.719"]',
      "cases:",
      `  - number: "${TJDFT}"`,
      "watchers:",
      "  - address: joao@example.com",
      '    oab: ["123.456/sp", "77/DF"]',
    );

    const watchlist = valid(parseWatchlist(text, "w.yaml"));

    expect(watchlist.oab).toEqual([
      {
        registration: { number: "123456", uf: "SP" },
        key: "123456/SP",
        notify: ["escritorio@example.com", "joao@example.com"],
        line: 3,
      },
      {
        registration: { number: "94719", uf: "RJ" },
        key: "94719/RJ",
        notify: ["escritorio@example.com"],
        line: 3,
      },
      {
        registration: { number: "77", uf: "DF" },
        key: "77/DF",
        notify: ["joao@example.com"],
        line: 8,
      },
    ]);
    // A watcher who follows a registration needs no case of their own.
    expect(watchlist.watchers.map((w) => w.address)).toEqual(["joao@example.com"]);
  });

  it("says what is wrong with each bad item, at its position", () => {
    const text = yaml(
      "defaults:",
      "  notify: [escritorio@example.com]",
      "  oab:",
      "    - 123456",
      '    - "123456/XX"',
      '    - "abc"',
      '    - "123456/SP"',
      '    - "123.456/sp"',
    );

    expect(reported(parseWatchlist(text, "w.yaml"))).toEqual([
      '4:7 the OAB number 123456 needs its state: write it as "123456/SP" (number/UF, in quotes)',
      '5:7 "123456/XX": XX is not a Brazilian state (UF); write it as number/UF, like "123456/SP"',
      '6:7 "abc" is not an OAB registration; write it as number/UF, like "123456/SP"',
      "8:7 123456/SP is already listed on line 7; keep it once",
    ]);
  });

  it("refuses defaults.oab when defaults.notify names nobody to tell", () => {
    const text = yaml("defaults:", '  oab: ["123456/SP"]', "cases: []");

    expect(reported(parseWatchlist(text, "w.yaml"))).toEqual([
      "2:3 defaults.oab tells defaults.notify of what DJEN publishes for these registrations, and defaults.notify is empty: add addresses to defaults.notify, or list the registrations under watchers: with the address to tell",
    ]);
  });

  it("points oab written under a case to where it belongs", () => {
    const text = yaml("cases:", `  - number: "${TJDFT}"`, '    oab: ["123456/SP"]');

    expect(reported(parseWatchlist(text, "w.yaml"))[0]).toMatch(
      /^3:5 .*OAB registrations are followed for everyone \(under defaults:/,
    );
  });

  it("refuses a watcher's oab that is not a list", () => {
    const text = yaml("watchers:", "  - address: joao@example.com", '    oab: "123456/SP"');

    expect(reported(parseWatchlist(text, "w.yaml"))).toEqual([
      "2:14 joao@example.com does not receive alerts for any case; add it to a notify list, give it oab: registrations to follow, or remove this entry",
      '3:10 oab must be a list of OAB registrations, like oab: ["123456/SP"], got the text "123456/SP"',
    ]);
  });
});
