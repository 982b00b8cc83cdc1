import { describe, expect, it } from "vitest";
import { mailPolicy } from "../../../src/policy/mail-policy.js";
import { parseWatchlist } from "../../../src/watchlist/parse-watchlist.js";
import { reported, TJDFT, TJSP, valid, yaml } from "./watchlist-test-kit.js";

const FILE = "watchlist.yaml";
const ON = { endpoints: ["equipe", "plantao"], acknowledgement: true };

const DEFAULTS = [
  "defaults:",
  "  escalation:",
  "    within: 4",
  "    before: 2",
  "    chain: [ { watcher: Socia@Firma.com.br }, { endpoint: equipe } ]",
];

describe("escalation: in the watchlist", () => {
  it("a watcher named only in a chain may give her watchers: settings (her WhatsApp number)", () => {
    // She gets steps, not the cases' alerts: before, her entry was refused as receiving nothing,
    // so her WhatsApp could never carry a step.
    const text = yaml(
      ...DEFAULTS,
      "cases:",
      `  - number: "${TJDFT}"`,
      "    escalation:",
      "      within: 4",
      "      chain: [ { watcher: plantao@firma.com.br } ]",
      "watchers:",
      "  - address: socia@firma.com.br",
      '    whatsapp: "+5561912345678"',
      "  - address: plantao@firma.com.br",
      '    whatsapp: "+5561987654321"',
    );

    const watchlist = valid(parseWatchlist(text, FILE, ON));

    expect(watchlist.watchers.map((w) => [w.address, w.whatsapp])).toEqual([
      ["socia@firma.com.br", "+5561912345678"],
      ["plantao@firma.com.br", "+5561987654321"],
    ]);
  });

  it("gives every case the defaults' chain, a case's own replaces it, false turns it off", () => {
    const text = yaml(
      ...DEFAULTS,
      "cases:",
      `  - number: "${TJDFT}"`,
      `  - number: "${TJSP}"`,
      "    escalation: false",
      `  - number: "${TJSP}"`,
      "    court: tjdft",
      "    escalation:",
      "      within: 2",
      '      hours: "12:00-19:00"',
      "      chain: [ { endpoint: plantao } ]",
    );

    const watchlist = valid(parseWatchlist(text, FILE, ON));

    const defaults = {
      within: 4,
      before: 2,
      window: { start: 540, end: 1080 },
      chain: [
        { kind: "watcher", address: "Socia@firma.com.br" },
        { kind: "endpoint", name: "equipe" },
      ],
    };
    expect(watchlist.defaults.escalation).toEqual(defaults);
    expect(watchlist.cases.map((c) => c.escalation ?? null)).toEqual([
      defaults,
      null,
      {
        within: 2,
        before: null,
        window: { start: 720, end: 1140 },
        chain: [{ kind: "endpoint", name: "plantao" }],
      },
    ]);
    const policy = mailPolicy(watchlist, {
      timezone: "America/Sao_Paulo",
      quietHours: null,
      urgentBypassesQuietHours: true,
      defaultDelivery: "instant",
    });
    const [first, second] = watchlist.cases;
    expect(policy.escalation(first?.digits ?? "", first?.court ?? "")).toEqual(defaults);
    expect(policy.escalation(second?.digits ?? "", second?.court ?? "")).toBeNull();
    expect(policy.escalation("00000000000000000000", "tjsp")).toBeNull();
    expect(policy.defaultEscalation).toEqual(defaults);
  });

  it("is off by default", () => {
    const watchlist = valid(parseWatchlist(yaml("cases:", `  - number: "${TJDFT}"`), FILE, ON));
    expect(watchlist.defaults.escalation).toBeUndefined();
    expect(watchlist.cases[0]?.escalation).toBeUndefined();
  });

  it("is refused where acknowledgement links are off, at the key", () => {
    const text = yaml(...DEFAULTS, "cases:", `  - number: "${TJDFT}"`);
    expect(
      reported(parseWatchlist(text, FILE, { endpoints: ["equipe"], acknowledgement: false })),
    ).toEqual([
      "2:3 escalation needs acknowledgement links, which are off (nothing could stop the chain): set acknowledgement.publicBaseUrl in the configuration and ACK_SECRET in the environment (docs/channels.md, Acknowledgement), or remove escalation:",
    ]);
  });

  it("reports each mistake at its own line and column", () => {
    const text = yaml(
      "defaults:",
      "  escalation:",
      "    within: 2.5",
      "    befor: 2",
      '    hours: "18:00-09:00"',
      "    chain:",
      "      - watcher: not-an-address",
      "      - endpoint: equpe",
      "      - { watcher: a@b.com.br, endpoint: equipe }",
      "cases:",
      `  - number: "${TJDFT}"`,
      "    escalation: true",
      `  - number: "${TJSP}"`,
      "    escalation: { chain: [ { endpoint: equipe } ] }",
    );
    expect(reported(parseWatchlist(text, FILE, ON))).toEqual([
      "3:13 defaults.escalation.within: a whole number of business hours, like within: 4",
      '4:5 unknown key "befor" in defaults.escalation; did you mean "before"?',
      "12:17 cases[0].escalation: expected a mapping with within:, before: and chain: (or false to turn it off for a case), got true (a yes/no value)",
      "14:17 cases[1].escalation: say when a step is due: within: (business hours after the alert), before: (court business days before its last day), or both",
    ]);
    const rest = yaml(
      "defaults:",
      "  escalation:",
      "    within: 4",
      '    hours: "18:00-09:00"',
      "    chain:",
      "      - watcher: not-an-address",
      "      - endpoint: equpe",
      "      - { watcher: a@b.com.br, endpoint: equipe }",
      "      - {}",
    );
    const errors = reported(parseWatchlist(rest, FILE, ON));
    expect(errors[0]).toBe(
      '4:12 hours: "18:00-09:00" ends before it starts; a window within one day, like "09:00-18:00"',
    );
    expect(errors[1]).toMatch(/^6:18 /u);
    expect(errors.slice(2)).toEqual([
      '7:19 no endpoint "equpe" in the configuration; did you mean "equipe"?',
      "8:9 defaults.escalation.chain[2]: give one of watcher: (an e-mail address) or endpoint: (an endpoint's name) per step",
      "9:9 defaults.escalation.chain[3]: give one of watcher: (an e-mail address) or endpoint: (an endpoint's name) per step",
    ]);
  });
});
