import { describe, expect, it } from "vitest";
import { parseWatchlist } from "../../../src/watchlist/parse-watchlist.js";
import { reported, TJDFT, TJSP, valid, yaml } from "./watchlist-test-kit.js";

const FILE = "watchlist.yaml";

describe("channels: endpoints told about a case", () => {
  it("adds a case's own channels to defaults.channels, without repeats", () => {
    const text = yaml(
      "defaults:",
      "  channels: [webhook, equipe]",
      "cases:",
      `  - number: "${TJDFT}"`,
      "    channels: [plantao, equipe]",
      `  - number: "${TJSP}"`,
    );

    const watchlist = valid(
      parseWatchlist(text, FILE, { endpoints: ["webhook", "equipe", "plantao"] }),
    );

    expect(watchlist.defaults.channels).toEqual(["webhook", "equipe"]);
    expect(watchlist.cases.map((c) => c.channels)).toEqual([
      ["webhook", "equipe", "plantao"],
      ["webhook", "equipe"],
    ]);
  });

  it("refuses a name the configuration does not have, at its position, with the closest one", () => {
    const text = yaml("cases:", `  - number: "${TJDFT}"`, "    channels: [equpe, slack-geral]");

    expect(reported(parseWatchlist(text, FILE, { endpoints: ["equipe", "plantao"] }))).toEqual([
      '3:16 no endpoint "equpe" in the configuration; did you mean "equipe"?',
      '3:23 no endpoint "slack-geral" in the configuration; configured: equipe, plantao',
    ]);
  });

  it("refuses a URL or token written in the watchlist, without quoting it", () => {
    const url = "https://hooks.slack.com/services/T0/B0/secretpart";
    const token = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
    const text = yaml("defaults:", `  channels: ["${url}", "${token}"]`);

    const errors = reported(parseWatchlist(text, FILE));

    expect(errors).toHaveLength(2);
    for (const error of errors) {
      expect(error).toMatch(/URL, token or secret: those never go in the watchlist/);
      expect(error).not.toContain("secretpart");
      expect(error).not.toContain("AAHdqTcv");
    }
  });

  it("without the configuration, checks only the names' form", () => {
    const text = yaml("defaults:", "  channels: [qualquer-nome, Maiusculas]");

    expect(reported(parseWatchlist(text, FILE))).toEqual([
      '2:29 "Maiusculas" is not an endpoint name (lower-case letters, digits and dashes, like equipe-slack)',
    ]);
  });
});
