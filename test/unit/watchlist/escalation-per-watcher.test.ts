import { describe, expect, it } from "vitest";
import { parseWatchlist } from "../../../src/watchlist/parse-watchlist.js";
import { reported, TJDFT, yaml } from "./watchlist-test-kit.js";

/*
 * A chain step naming a per-watcher WhatsApp endpoint (one without `to:`) can reach nobody: the
 * endpoint has no number of its own (monitor/report/escalate.ts refuses it when the step is due).
 * Told by validate, at the step, not first when the step is due.
 */

describe("an escalation step naming a per-watcher endpoint", () => {
  it("is an error at the step, saying to name the watcher instead", () => {
    const text = yaml(
      "defaults:",
      "  escalation:",
      "    within: 4",
      "    chain: [ { endpoint: zap } ]",
      "cases:",
      `  - number: "${TJDFT}"`,
    );
    const options = { endpoints: ["zap", "equipe"], acknowledgement: true };
    // Without knowing which endpoints are per-watcher (the daemon), the name alone is checked.
    expect(parseWatchlist(text, "watchlist.yaml", options).ok).toBe(true);
    expect(
      reported(
        parseWatchlist(text, "watchlist.yaml", { ...options, perWatcherEndpoints: ["zap"] }),
      ),
    ).toEqual([
      '4:26 endpoint "zap" sends to each watcher\'s own number and has none of its own: name the watcher in the chain instead (watcher: their e-mail address; their WhatsApp number goes with it)',
    ]);
  });
});
