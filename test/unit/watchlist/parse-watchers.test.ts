import { describe, expect, it } from "vitest";
import { parseWatchlist } from "../../../src/watchlist/parse-watchlist.js";
import { errorsOf, reported, TJDFT, valid, yaml } from "./watchlist-test-kit.js";

describe("parseWatchlist alert settings: watchers", () => {
  function withWatchers(...rows: string[]): string {
    return yaml(
      "defaults:",
      "  notify: [escritorio@example.com]",
      "cases:",
      `  - number: "${TJDFT}"`,
      "    notify: [rui@example.com]",
      "watchers:",
      ...rows,
    );
  }

  it("keeps a watcher's whatsapp number in E.164 form (issue 40)", () => {
    const text = withWatchers("  - address: rui@example.com", '    whatsapp: " +5511987654321 "');

    const watchlist = valid(parseWatchlist(text, "w.yaml"));

    expect(watchlist.watchers[0]).toMatchObject({
      address: "rui@example.com",
      whatsapp: "+5511987654321",
    });
  });

  it("refuses a whatsapp number that is not E.164, or that YAML read as a number, at its position", () => {
    const text = withWatchers(
      "  - address: rui@example.com",
      '    whatsapp: "(11) 98765-4321"',
      "  - address: escritorio@example.com",
      "    whatsapp: +5561987654321",
    );

    const result = parseWatchlist(text, "w.yaml");

    expect(reported(result)).toEqual([
      '8:15 whatsapp: "(11) 98765-4321" is not a phone number in E.164 form; write + then the country code and the number, digits only, like "+5511987654321"',
      '10:15 whatsapp: write the number in quotes, like "+5511987654321" (without them YAML reads it as a number and drops the +)',
    ]);
  });

  it("requires an address", () => {
    const text = withWatchers("  - delivery: digest");

    const result = parseWatchlist(text, "w.yaml");

    expect(reported(result)).toEqual(['7:5 watchers[0]: "address" is required but missing']);
  });

  it("refuses an address that is not one, with the notify lists' messages", () => {
    const text = withWatchers('  - address: "Rui <rui@example.com>"', "  - address: rui@example");

    const result = parseWatchlist(text, "w.yaml");

    expect(reported(result)).toEqual([
      '7:14 "Rui <rui@example.com>": write only the address, like ana@example.com, without a name or <>',
      '8:14 "rui@example" is not an e-mail address (like ana@example.com)',
    ]);
  });

  it("refuses the same address twice, whatever its case, naming the first line", () => {
    const text = withWatchers(
      "  - address: rui@example.com",
      "    delivery: digest",
      "  - address: Rui@Example.com",
    );

    const result = parseWatchlist(text, "w.yaml");

    expect(reported(result)).toEqual([
      "9:14 Rui@example.com is already listed under watchers on line 7; keep one entry per address",
    ]);
  });

  it("refuses an address no notify list names, suggesting a close one", () => {
    const text = withWatchers(
      "  - address: rui@exmaple.com",
      "  - address: ruy@example.com",
      "  - address: ana@example.com",
    );

    const result = parseWatchlist(text, "w.yaml");

    expect(reported(result)).toEqual([
      '7:14 rui@exmaple.com does not receive alerts for any case; add it to a notify list, give it oab: registrations to follow, or remove this entry; did you mean "rui@example.com"?',
      '8:14 ruy@example.com does not receive alerts for any case; add it to a notify list, give it oab: registrations to follow, or remove this entry; did you mean "rui@example.com"?',
      "9:14 ana@example.com does not receive alerts for any case; add it to a notify list, give it oab: registrations to follow, or remove this entry",
    ]);
  });

  it("knows the addresses only a party's notify list names, and a watcher who only follows OABs", () => {
    const text = yaml(
      "cases: []",
      "parties:",
      "  - name: ACME Comércio Ltda.",
      "    notify: [ana@example.com]",
      "watchers:",
      "  - address: ana@example.com",
      "    delivery: digest",
      "  - address: beto@example.com",
      '    oab: ["123456/SP"]',
    );

    const watchlist = valid(parseWatchlist(text, "w.yaml"));

    expect(watchlist.watchers.map((w) => w.address)).toEqual([
      "ana@example.com",
      "beto@example.com",
    ]);
    expect(watchlist.oab.map((o) => o.registration)).toEqual([{ number: "123456", uf: "SP" }]);
  });

  it("knows the addresses of cases that are refused for other reasons", () => {
    const text = yaml(
      "cases:",
      '  - number: "0713383-44.2025.8.07.0006"',
      "    notify: [rui@example.com]",
      "watchers:",
      "  - address: rui@example.com",
    );

    const errors = errorsOf(parseWatchlist(text, "w.yaml"));

    expect(errors.map((e) => e.line)).toEqual([2]);
  });

  it("wants delivery to be instant or digest", () => {
    const text = withWatchers("  - address: rui@example.com", "    delivery: Digets");

    const result = parseWatchlist(text, "w.yaml");

    expect(reported(result)).toEqual([
      '8:15 delivery must be instant or digest, got the text "Digets"; did you mean "digest"?',
    ]);
  });

  it.each([
    [
      "digest_schedule",
      '"0 25 * * *"',
      'not a cron schedule: its hour field "25" is not valid',
      22,
    ],
    ["status_report", '"every monday"', "not a cron schedule: it has 2 fields, not 5", 20],
    ["status_report", "5", 'expected a cron expression in quotes, like "0 8 * * 1"', 20],
    [
      "status_report",
      '" "',
      "status_report is empty; remove the line, or write a cron expression",
      20,
    ],
    [
      "receipt",
      '"24:00"',
      'receipt: expected true (a receipt at 18:00), false, or a time of day in quotes like "19:30", got the text "24:00"',
      14,
    ],
    ["receipt", '"18h"', 'a time of day in quotes like "19:30", got the text "18h"', 14],
    ["receipt", "daily", 'a time of day in quotes like "19:30", got the text "daily"', 14],
  ])("refuses %s: %s", (key, value, message, col) => {
    const text = withWatchers(
      "  - address: rui@example.com",
      "    delivery: digest",
      `    ${key}: ${value}`,
    );

    const errors = errorsOf(parseWatchlist(text, "w.yaml"));

    expect(errors).toEqual([
      { file: "w.yaml", line: 9, col, message: expect.stringContaining(message) },
    ]);
  });

  it("refuses digest_schedule without delivery: digest", () => {
    const text = withWatchers(
      "  - address: rui@example.com",
      '    digest_schedule: "0 18 * * 1-5"',
      "  - address: escritorio@example.com",
      "    delivery: instant",
      '    digest_schedule: "0 18 * * 1-5"',
    );

    const result = parseWatchlist(text, "w.yaml");

    expect(reported(result)).toEqual([
      "8:5 digest_schedule only applies to a digest; add delivery: digest to this entry or remove digest_schedule",
      "11:5 digest_schedule only applies to a digest; this entry has delivery: instant; change it to delivery: digest or remove digest_schedule",
    ]);
  });

  it("explains a list of bare addresses", () => {
    const text = withWatchers("  - rui@example.com");

    const result = parseWatchlist(text, "w.yaml");

    expect(reported(result)).toEqual([
      '7:5 watchers[0]: expected a mapping (indented key: value lines), got the text "rui@example.com"',
    ]);
  });
});
