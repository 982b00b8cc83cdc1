import { describe, expect, it } from "vitest";
import { type MovementRule, NO_ALERT_POLICY } from "../../../src/policy/alert-rules.js";
import { mergeMovementRules } from "../../../src/watchlist/parse-alert-settings.js";
import {
  parseWatchlist,
  type Watchlist,
  type WatchlistResult,
} from "../../../src/watchlist/parse-watchlist.js";
import { formatPositionedError, type PositionedError } from "../../../src/yaml/positioned-error.js";

const TJDFT = "0713383-43.2025.8.07.0006";
const TJSP = "1035289-48.2022.8.26.0602";

function yaml(...rows: string[]): string {
  return `${rows.join("\n")}\n`;
}

function valid(result: WatchlistResult): Watchlist {
  if (!result.ok) {
    throw new Error(
      `expected a valid watchlist:\n${result.errors.map(formatPositionedError).join("\n")}`,
    );
  }
  return result.watchlist;
}

function errorsOf(result: WatchlistResult): PositionedError[] {
  if (result.ok) throw new Error("expected the watchlist to be invalid");
  return result.errors;
}

/** `line:col message` of every error, in file order. */
function reported(result: WatchlistResult): string[] {
  return errorsOf(result).map((e) => `${e.line}:${e.col} ${e.message}`);
}

function code(value: number): MovementRule {
  return { kind: "code", code: value };
}

function name(text: string, folded: string): MovementRule {
  return { kind: "name", text, folded };
}

/** A file of one case (line 2) with `rows` under it, from line 3. */
function oneCase(...rows: string[]): string {
  return yaml("cases:", `  - number: "${TJDFT}"`, ...rows.map((r) => `    ${r}`));
}

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
      "  - address: ESCRITORIO2@example.com",
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
        line: 17,
      },
      {
        address: "escritorio@example.com",
        delivery: "instant",
        digestSchedule: null,
        statusReport: "0 8 1 * *",
        line: 21,
      },
      {
        address: "ESCRITORIO2@example.com",
        delivery: null,
        digestSchedule: null,
        statusReport: null,
        line: 24,
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
      '7:14 rui@exmaple.com does not receive alerts for any case; add it to a notify list or remove this entry; did you mean "rui@example.com"?',
      '8:14 ruy@example.com does not receive alerts for any case; add it to a notify list or remove this entry; did you mean "rui@example.com"?',
      "9:14 ana@example.com does not receive alerts for any case; add it to a notify list or remove this entry",
    ]);
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
    ["digest_schedule", '"0 25 * * *"', "not a cron schedule croner accepts (", 22],
    ["status_report", '"every monday"', "not a cron schedule croner accepts (", 20],
    ["status_report", "5", 'expected a cron expression in quotes, like "0 8 * * 1"', 20],
    [
      "status_report",
      '" "',
      "status_report is empty; remove the line, or write a cron expression",
      20,
    ],
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
