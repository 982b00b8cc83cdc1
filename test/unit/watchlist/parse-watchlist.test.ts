import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  computeCheckDigits,
  formatCnjNumber,
  parseCnjNumber,
} from "../../../src/datajud/cnj-number.js";
import { NO_ALERT_POLICY } from "../../../src/policy/alert-rules.js";
import { PartyFile } from "../../../src/watchlist/parse-parties.js";
import { WatcherFile } from "../../../src/watchlist/parse-watchers.js";
import {
  loadWatchlist,
  parseWatchlist,
  WatchlistCaseFile,
  WatchlistDefaultsFile,
  type WatchlistResult,
} from "../../../src/watchlist/parse-watchlist.js";
import { formatPositionedError, type PositionedError } from "../../../src/yaml/positioned-error.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/watchlists/", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("../../../watchlist.example.yaml", import.meta.url));

const TJDFT = "0713383-43.2025.8.07.0006";
const TJSP = "1035289-48.2022.8.26.0602";

function errorsOf(result: WatchlistResult): PositionedError[] {
  if (result.ok) throw new Error("expected the watchlist to be invalid");
  return result.errors;
}

function lines(result: WatchlistResult): string[] {
  return errorsOf(result).map(formatPositionedError);
}

describe("parseWatchlist: valid files", () => {
  it("resolves courts, merges and deduplicates notify, lower-cases domains", async () => {
    const result = await loadWatchlist(join(FIXTURES, "valid.yaml"));

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.watchlist.defaults.notify).toEqual([
      "Escritorio@example.com",
      "socios@example.com",
    ]);
    expect(result.watchlist.cases).toEqual([
      {
        number: TJDFT,
        digits: "07133834320258070006",
        court: "tjdft",
        label: "Silva x Souza (despejo)",
        notify: ["Escritorio@example.com", "socios@example.com", "ana@example.com"],
        channels: [],
        policy: NO_ALERT_POLICY,
        line: 4,
      },
      {
        number: TJSP,
        digits: "10352894820228260602",
        court: "tjsp",
        label: null,
        notify: ["Escritorio@example.com", "socios@example.com"],
        channels: [],
        policy: NO_ALERT_POLICY,
        line: 7,
      },
      {
        number: TJSP,
        digits: "10352894820228260602",
        court: "stj",
        label: null,
        notify: ["Escritorio@example.com", "socios@example.com"],
        channels: [],
        policy: NO_ALERT_POLICY,
        line: 8,
      },
    ]);
  });

  it("accepts an empty file, comments only, and an empty cases list as 0 cases", () => {
    const inputs = [
      "",
      "# nothing yet\n",
      "cases: []\n",
      "cases:\n",
      "defaults:\n  notify: [a@b.com]\n",
    ];

    const results = inputs.map((text) => parseWatchlist(text, "w.yaml"));

    for (const result of results) {
      expect(result.ok && result.watchlist.cases).toEqual([]);
    }
  });

  it("accepts bytes and a byte-order mark", () => {
    const bytes = Buffer.from(`\uFEFFcases:\n  - number: "${TJDFT}"\n    label: "Ação"\n`, "utf8");

    const result = parseWatchlist(bytes, "w.yaml");

    expect(result.ok && result.watchlist.cases[0]?.label).toBe("Ação");
  });

  it("parses watchlist.example.yaml, whose numbers are all valid", async () => {
    const result = await loadWatchlist(EXAMPLE);

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.watchlist.cases.length).toBeGreaterThanOrEqual(3);
    for (const c of result.watchlist.cases) expect(parseCnjNumber(c.number).ok).toBe(true);
    expect(new Set(result.watchlist.cases.map((c) => c.court)).has("stj")).toBe(true);
  });

  it("documents every key of the schema in watchlist.example.yaml", () => {
    const text = readFileSync(EXAMPLE, "utf8");
    const keys = [
      ...Object.keys(WatchlistDefaultsFile.shape),
      ...Object.keys(WatchlistCaseFile.shape),
      ...Object.keys(WatcherFile.shape),
      ...Object.keys(PartyFile.shape),
      "defaults",
      "cases",
      "watchers",
      "parties",
    ];

    // A key whose value needs the configuration first (channels:) is shown as a comment.
    const missing = keys.filter((key) => !new RegExp(`^\\s*(# )?(- )?${key}:`, "m").test(text));

    expect(missing).toEqual([]);
  });
});

describe("parseWatchlist: errors with positions", () => {
  it("collects every error of a file, in order, at its line and column", async () => {
    const result = await loadWatchlist(join(FIXTURES, "many-errors.yaml"));

    const positions = errorsOf(result).map((e) => `${e.line}:${e.col}`);
    expect(positions).toEqual([
      "2:3",
      "4:13",
      "6:13",
      "8:5",
      "10:14",
      "10:27",
      "11:13",
      "13:12",
      "14:13",
    ]);
    expect(lines(result)[0]).toMatch(/many-errors\.yaml:2:3 unknown key "notfy"/);
  });

  it("names the right check digits of a mistyped number", () => {
    const result = parseWatchlist(`cases:\n  - number: "0713383-44.2025.8.07.0006"\n`, "w.yaml");

    expect(lines(result)).toEqual([expect.stringMatching(/^w\.yaml:2:13 .*44 but should be 43/)]);
  });

  it("suggests the closest key for an unknown one", () => {
    const result = parseWatchlist(`cases:\n  - number: "${TJDFT}"\n    lable: x\n`, "w.yaml");

    expect(lines(result)).toEqual([
      'w.yaml:3:5 unknown key "lable" in cases[0]; did you mean "label"?',
    ]);
  });

  it("lists the allowed keys when nothing is close", () => {
    const result = parseWatchlist(`cases:\n  - number: "${TJDFT}"\n    priority: high\n`, "w.yaml");

    expect(lines(result)[0]).toContain("the keys allowed here are number, label, court, notify");
  });

  it("reports a typo of a required key once, not also as a missing key", () => {
    const result = parseWatchlist(`cases:\n  - numbr: "${TJDFT}"\n`, "w.yaml");

    expect(lines(result)).toEqual([
      'w.yaml:2:5 unknown key "numbr" in cases[0]; did you mean "number"?',
    ]);
  });

  it("tells to quote a number written as a YAML number", () => {
    const result = parseWatchlist("cases:\n  - number: 07133834320258070006\n", "w.yaml");

    const [error] = errorsOf(result);
    expect(error).toMatchObject({ line: 2, col: 13 });
    expect(error?.message).toContain('put it in quotes ("07133834320258070006")');
    expect(error?.message).toContain("leading zeros");
  });

  it("reports a missing number at the case", () => {
    const result = parseWatchlist('cases:\n  - label: "no number"\n', "w.yaml");

    expect(lines(result)).toEqual(['w.yaml:2:5 cases[0]: "number" is required but missing']);
  });

  it("rejects bad e-mail addresses at the list item", () => {
    const text = [
      "defaults:",
      '  notify: ["ana@", "Ana <ana@example.com>", "a@example.com; b@example.com"]',
      "cases: []",
      "",
    ].join("\n");

    const result = parseWatchlist(text, "w.yaml");

    const errors = errorsOf(result);
    expect(errors.map((e) => [e.line, e.col])).toEqual([
      [2, 12],
      [2, 20],
      [2, 45],
    ]);
    expect(errors[0]?.message).toContain("is not an e-mail address");
    expect(errors[1]?.message).toContain("write only the address");
    expect(errors[2]?.message).toContain("one address per list item");
  });

  it("names the line of the first copy of a duplicate case", () => {
    const text = `cases:\n  - number: "${TJDFT}"\n  - number: "07133834320258070006"\n`;

    const result = parseWatchlist(text, "w.yaml");

    expect(lines(result)).toEqual([
      expect.stringMatching(
        /^w\.yaml:3:13 0713383-43\.2025\.8\.07\.0006 \(tjdft\) is already listed on line 2/,
      ),
    ]);
  });

  it("treats the same number read from another court as a different case", () => {
    const text = `cases:\n  - number: "${TJSP}"\n  - number: "${TJSP}"\n    court: stj\n`;

    const result = parseWatchlist(text, "w.yaml");

    expect(result.ok && result.watchlist.cases.map((c) => c.court)).toEqual(["tjsp", "stj"]);
  });

  it("refuses STF numbers and court: stf", () => {
    const text = `cases:\n  - number: "0000001-95.2020.1.00.0000"\n  - number: "${TJSP}"\n    court: stf\n`;

    const result = parseWatchlist(text, "w.yaml");

    const errors = errorsOf(result);
    expect(errors.map((e) => [e.line, e.col])).toEqual([
      [2, 13],
      [4, 12],
    ]);
    for (const e of errors) expect(e.message).toMatch(/STF/);
  });

  it("suggests a court alias for a misspelt one", () => {
    const result = parseWatchlist(`cases:\n  - number: "${TJSP}"\n    court: tjps\n`, "w.yaml");

    expect(lines(result)[0]).toMatch(/^w\.yaml:3:12 .*did you mean "tjsp"\?$/);
  });

  it("reports YAML syntax errors at yaml's position and nothing else", async () => {
    const result = await loadWatchlist(join(FIXTURES, "syntax-error.yaml"));

    const errors = errorsOf(result);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/^YAML: .*quote/);
  });

  it("refuses a YAML alias bomb with a position instead of expanding it", () => {
    const bomb = [
      'a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]',
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
      "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]",
      "cases: []",
      "",
    ].join("\n");

    const result = parseWatchlist(bomb, "watchlist.yaml");

    expect(lines(result)).toEqual([
      expect.stringMatching(
        /^watchlist\.yaml:2:8 YAML: the aliases .*expand .*; write the values out/,
      ),
    ]);
  });

  it("refuses a label longer than 200 characters at its position", () => {
    const text = `cases:\n  - number: "0713383-43.2025.8.07.0006"\n    label: "${"x".repeat(201)}"\n`;

    const result = parseWatchlist(text, "watchlist.yaml");

    expect(lines(result)).toEqual([
      expect.stringMatching(/^watchlist\.yaml:3:12 .*label.*at most 200 characters/),
    ]);
  });

  it("refuses a file over 4 MiB before parsing it, saying how big it is", () => {
    const text = `cases:\n  - number: "0713383-43.2025.8.07.0006"\n    label: "${"x".repeat(5 * 2 ** 20)}"\n`;

    const result = parseWatchlist(text, "watchlist.yaml");

    expect(lines(result)).toEqual([
      expect.stringMatching(/^watchlist\.yaml:1:1 the watchlist is 5\.0 MiB; at most 4 MiB/),
    ]);
  });

  it("reports a tab used for indentation alone, without the parser's messages after it", async () => {
    const result = await loadWatchlist(join(FIXTURES, "tabs.yaml"));

    expect(lines(result)).toEqual([
      expect.stringMatching(
        /\/tabs\.yaml:3:1 YAML: a tab is used for indentation; YAML indents with spaces only: replace the tab with spaces$/,
      ),
    ]);
  });

  it("reports the first byte that is not UTF-8 at its line and column", async () => {
    const result = await loadWatchlist(join(FIXTURES, "latin1.yaml"));

    expect(lines(result)).toEqual([
      expect.stringMatching(/latin1\.yaml:3:14 byte 0xE7 is not UTF-8; save the file as UTF-8/),
    ]);
  });

  it("explains a file that is a bare list instead of a cases: mapping", () => {
    const result = parseWatchlist(`- number: "${TJDFT}"\n`, "w.yaml");

    expect(lines(result)).toEqual([expect.stringMatching(/^w\.yaml:1:1 .*`cases:`/)]);
  });

  it("explains a missing file at 1:1 and points at the example", async () => {
    const result = await loadWatchlist("/nonexistent/dir/watchlist.yaml");

    const errors = errorsOf(result);
    expect(errors).toEqual([
      {
        file: "/nonexistent/dir/watchlist.yaml",
        line: 1,
        col: 1,
        message: expect.stringContaining("copy watchlist.example.yaml"),
      },
    ]);
  });
});

describe("parseWatchlist: size", () => {
  // How fast is for `npm run bench`; a timed assertion here would fail on a busy machine.
  it("parses 10,000 cases, each at its own line, with the defaults merged into every one", () => {
    const rows = ["defaults:", "  notify: [escritorio@example.com]", "cases:"];
    for (let i = 0; i < 10_000; i += 1) {
      const sequence = String(i + 1).padStart(7, "0");
      const check = computeCheckDigits(sequence, "2024", "8", "26", "0100");
      rows.push(`  - number: "${formatCnjNumber(`${sequence}${check}20248260100`)}"`);
      rows.push(`    label: "Caso ${i}"`, `    notify: [a${i % 50}@example.com]`);
    }
    const text = `${rows.join("\n")}\n`;

    const result = parseWatchlist(text, "big.yaml");

    if (!result.ok) throw new Error(JSON.stringify(result.errors.slice(0, 3)));
    const { cases } = result.watchlist;
    expect(cases).toHaveLength(10_000);
    expect(cases.at(-1)?.line).toBe(4 + 3 * 9_999);
    expect(cases.at(-1)?.label).toBe("Caso 9999");
    expect(cases.at(-1)?.notify).toEqual(["escritorio@example.com", "a49@example.com"]);
  });
});
