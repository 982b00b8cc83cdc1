import { describe, expect, it } from "vitest";
import { NO_ALERT_POLICY } from "../../../src/policy/alert-rules.js";
import { parseWatchlist } from "../../../src/watchlist/parse-watchlist.js";
import { code, name, oneCase, reported, TJDFT, TJSP, valid, yaml } from "./watchlist-test-kit.js";

describe("parseWatchlist alert settings: valid files", () => {
  it("reads rules, muting and watchers, merging the defaults' rules before each case's", () => {
    const text = yaml(
      "defaults:",
      "  notify: [escritorio@example.com, ESCRITORIO2@example.com]",
      '  ignore: [conclusão, "mero  Expediente", 11010, "246"]',
      '  urgent: [sentença, "trânsito em julgado"]',
      "cases:",
      `  - number: "${TJDFT}"`,
      "    notify: [ana@example.com]",
      '    ignore: [publicação, CONCLUSAO, "11010"]',
      "    urgent: [penhora, Sentença]",
      "    muted: true",
      `  - number: "${TJSP}"`,
      "    muted_until: 2027-01-31",
      `  - number: "${TJSP}"`,
      "    court: stj",
      '    muted_until: "2028-02-29"',
      "watchers:",
      "  - address: Ana@Example.COM",
      "    delivery: digest",
      '    digest_schedule: "0 18 * * 1-5"',
      "    status_report: 0 8 * * 1",
      "  - address: escritorio@example.com",
      "    delivery: instant",
      '    status_report: "0 8 1 * *"',
      '    receipt: "7:30"',
      "  - address: ESCRITORIO2@example.com",
      "    receipt: true",
    );

    const watchlist = valid(parseWatchlist(text, "w.yaml"));

    const defaultIgnore = [
      name("conclusão", "conclusao"),
      name("mero  Expediente", "mero expediente"),
      code(11010),
      code(246),
    ];
    const defaultUrgent = [
      name("sentença", "sentenca"),
      name("trânsito em julgado", "transito em julgado"),
    ];
    expect(watchlist.defaults).toEqual({
      notify: ["escritorio@example.com", "ESCRITORIO2@example.com"],
      channels: [],
      ignore: defaultIgnore,
      urgent: defaultUrgent,
    });
    expect(watchlist.cases.map((c) => c.policy)).toEqual([
      {
        ignore: [...defaultIgnore, name("publicação", "publicacao")],
        urgent: [...defaultUrgent, name("penhora", "penhora")],
        muted: true,
        mutedUntil: null,
      },
      { ignore: defaultIgnore, urgent: defaultUrgent, muted: false, mutedUntil: "2027-01-31" },
      { ignore: defaultIgnore, urgent: defaultUrgent, muted: false, mutedUntil: "2028-02-29" },
    ]);
    expect(watchlist.watchers).toEqual([
      {
        address: "Ana@example.com",
        delivery: "digest",
        digestSchedule: "0 18 * * 1-5",
        statusReport: "0 8 * * 1",
        receipt: null,
        line: 17,
      },
      {
        address: "escritorio@example.com",
        delivery: "instant",
        digestSchedule: null,
        statusReport: "0 8 1 * *",
        receipt: "07:30",
        line: 21,
      },
      {
        address: "ESCRITORIO2@example.com",
        delivery: null,
        digestSchedule: null,
        statusReport: null,
        receipt: "18:00",
        line: 25,
      },
    ]);
  });

  it("gives a file without the new keys neutral policies and no watchers", () => {
    const text = yaml(
      "defaults:",
      "  notify: [escritorio@example.com]",
      "cases:",
      `  - number: "${TJDFT}"`,
      "    notify: [ana@example.com]",
      `  - number: "${TJSP}"`,
    );

    const watchlist = valid(parseWatchlist(text, "w.yaml"));

    expect(watchlist.defaults).toEqual({
      notify: ["escritorio@example.com"],
      channels: [],
      ignore: [],
      urgent: [],
    });
    for (const c of watchlist.cases) expect(c.policy).toEqual(NO_ALERT_POLICY);
    expect(watchlist.watchers).toEqual([]);
  });

  it("treats empty keys as not given", () => {
    const text = yaml(
      "defaults:",
      "  ignore:",
      "  urgent: []",
      "cases:",
      `  - number: "${TJDFT}"`,
      "    ignore:",
      "    muted:",
      "    muted_until:",
      "watchers:",
    );

    const watchlist = valid(parseWatchlist(text, "w.yaml"));

    expect(watchlist.cases[0]?.policy).toEqual(NO_ALERT_POLICY);
    expect(watchlist.watchers).toEqual([]);
  });

  it("allows the same rule in ignore and urgent of different scopes", () => {
    const text = yaml(
      "defaults:",
      "  ignore: [juntada]",
      "cases:",
      `  - number: "${TJDFT}"`,
      "    urgent: [Juntada]",
    );

    const watchlist = valid(parseWatchlist(text, "w.yaml"));

    expect(watchlist.cases[0]?.policy).toMatchObject({
      ignore: [name("juntada", "juntada")],
      urgent: [name("Juntada", "juntada")],
    });
  });

  it("accepts a muted_until that has passed and muted: false", () => {
    const text = yaml(
      "cases:",
      `  - number: "${TJDFT}"`,
      "    muted_until: 2020-01-31",
      `  - number: "${TJSP}"`,
      "    muted: false",
    );

    const watchlist = valid(parseWatchlist(text, "w.yaml"));

    expect(watchlist.cases.map((c) => [c.policy.muted, c.policy.mutedUntil])).toEqual([
      [false, "2020-01-31"],
      [false, null],
    ]);
  });

  it("reads an unquoted date in a YAML 1.1 file too", () => {
    const text = yaml(
      "%YAML 1.1",
      "---",
      "cases:",
      `  - number: "${TJDFT}"`,
      "    muted_until: 2027-01-31",
    );

    const watchlist = valid(parseWatchlist(text, "w.yaml"));

    expect(watchlist.cases[0]?.policy.mutedUntil).toBe("2027-01-31");
  });

  it("matches a watcher to a notify list regardless of case", () => {
    const text = yaml(
      "cases:",
      `  - number: "${TJDFT}"`,
      "    notify: [rui@example.com]",
      "watchers:",
      "  - address: RUI@EXAMPLE.COM",
    );

    const watchlist = valid(parseWatchlist(text, "w.yaml"));

    expect(watchlist.watchers.map((w) => w.address)).toEqual(["RUI@example.com"]);
  });
});

describe("parseWatchlist alert settings: unknown keys", () => {
  it.each([
    [oneCase("mute: true"), '3:5 unknown key "mute" in cases[0]; did you mean "muted"?'],
    [
      oneCase("muted-until: 2027-01-31"),
      '3:5 unknown key "muted-until" in cases[0]; did you mean "muted_until"?',
    ],
    [
      oneCase("urgente: [penhora]"),
      '3:5 unknown key "urgente" in cases[0]; did you mean "urgent"?',
    ],
    [
      yaml("defaults:", "  ignored: [juntada]"),
      '2:3 unknown key "ignored" in defaults; did you mean "ignore"?',
    ],
    [
      yaml("defaults:", "  muted: true"),
      '2:3 unknown key "muted" in defaults: muting is set per case; put muted: under the case in cases:',
    ],
    [
      oneCase("delivery: digest"),
      '3:5 unknown key "delivery" in cases[0]: delivery is set per address; add an entry under watchers: with address: and delivery:',
    ],
    [yaml("watcher: []"), 'unknown key "watcher"; did you mean "watchers"?'],
    [
      yaml(
        "defaults:",
        "  notify: [a@example.com]",
        "watchers:",
        "  - address: a@example.com",
        "    digest-schedule: x",
      ),
      '5:5 unknown key "digest-schedule" in watchers[0]; did you mean "digest_schedule"?',
    ],
  ])("suggests the key (%#)", (text, message) => {
    const result = parseWatchlist(text, "w.yaml");

    expect(reported(result)).toEqual([expect.stringContaining(message)]);
  });
});

describe("parseWatchlist alert settings: every error at once", () => {
  it("still checks the alert keys of malformed defaults, cases and watchers", () => {
    const text = yaml(
      "defaults:",
      "  notfy: [escritorio@example.com]",
      "  ignore: [x]",
      "cases:",
      `  - number: "${TJDFT}"`,
      "    colour: blue",
      "    ignore: [0]",
      "    muted_until: 2027-02-30",
      "    notify: [rui@example.com]",
      "  - label: no number",
      "    urgent: ['']",
      "    muted: true",
      "    muted_until: 2027-01-31",
      "watchers:",
      "  - address: rui@example.com",
      "    deliveri: digest",
      "    digest_schedule: '61 * * * *'",
      "  - address: nobody@example.com",
    );

    const result = parseWatchlist(text, "w.yaml");

    expect(reported(result)).toEqual([
      expect.stringMatching(/^2:3 unknown key "notfy"/),
      expect.stringMatching(/^3:12 "x" is one character/),
      expect.stringMatching(/^6:5 unknown key "colour"/),
      expect.stringMatching(/^7:14 0 is not a movement code/),
      expect.stringMatching(/^8:18 "2027-02-30" is not a calendar date/),
      expect.stringMatching(/^10:5 cases\[1\]: "number" is required but missing/),
      expect.stringMatching(/^11:14 an empty pattern/),
      expect.stringMatching(/^13:5 muted and muted_until are both given/),
      expect.stringMatching(
        /^16:5 unknown key "deliveri" in watchers\[0\]; did you mean "delivery"/,
      ),
      expect.stringMatching(/^17:22 digest_schedule: "61 \* \* \* \*" is not a cron schedule/),
      expect.stringMatching(/^18:14 nobody@example.com does not receive alerts for any case/),
    ]);
  });
});
