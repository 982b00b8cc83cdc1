import { describe, expect, it } from "vitest";
import { type ConfigResult, loadConfig } from "../../../src/config/load-config.js";

/*
 * Every error about the config file starts with file:line:col, the place an editor jumps to:
 * the schema's own, and those decided after it (timeouts together, endpoints, closures added up,
 * private networks too wide). Each config below holds one mistake.
 */

const CWD = "/srv/monitor";
const FILE = `${CWD}/monitor.yaml`;

function load(yaml: string, env: NodeJS.ProcessEnv = {}): string[] {
  const result: ConfigResult = loadConfig({
    env: { MONITOR_CONFIG: FILE, ...env },
    cwd: CWD,
    readFile: (path) => (path === FILE ? yaml : undefined),
  });
  if (result.ok) throw new Error(`expected the config to be refused:\n${yaml}`);
  return result.errors;
}

const MISTAKES: Array<[string, string, NodeJS.ProcessEnv?]> = [
  [
    "DataJud's total timeout under one attempt's",
    "datajud:\n  timeoutMs: 30000\n  totalTimeoutMs: 20000\n",
  ],
  [
    "DJEN's total timeout under one attempt's",
    "djen:\n  timeoutMs: 30000\n  totalTimeoutMs: 20000\n",
  ],
  [
    "the firm-wide webhook name on a chat",
    "notify:\n  endpoints:\n    webhook:\n      channel: slack\n      urlVariable: SLACK_URL\n",
    { SLACK_URL: "https://hooks.slack.com/services/T000/B000/XXXX" },
  ],
  [
    "an endpoint at a private address",
    "notify:\n  endpoints:\n    equipe:\n      channel: slack\n      urlVariable: SLACK_URL\n",
    { SLACK_URL: "https://10.1.2.3/hook" },
  ],
  ["a private-network rule for all of IPv4", 'notify:\n  allowedPrivateNetworks: ["0.0.0.0/0"]\n'],
  ["a private-network rule for all of IPv6", 'notify:\n  allowedPrivateNetworks: ["::/0"]\n'],
  [
    "a private-network rule for half of IPv4",
    'notify:\n  allowedPrivateNetworks: ["128.0.0.0/1"]\n',
  ],
  [
    "a rule for every IPv4-mapped address",
    'notify:\n  allowedPrivateNetworks: ["::ffff:0:0/96"]\n',
  ],
  [
    "two overlapping closures making 17 months",
    [
      "calendar:",
      "  closures:",
      "    - { court: tjsp, from: 2026-01-01, to: 2026-12-31, effect: closed, reason: a, source: b }",
      "    - { court: tjsp, from: 2026-08-01, to: 2027-05-31, effect: closed, reason: a, source: b }",
      "",
    ].join("\n"),
  ],
];

describe("config errors at file:line:col", () => {
  it.each(MISTAKES)("%s", (_what, yaml, env) => {
    const messages = load(yaml, env);

    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(message).toMatch(new RegExp(`^${FILE}:\\d+:\\d+ `, "u"));
  });

  it("says how much of the address space a rule covers, and what to list instead", () => {
    const [message] = load('notify:\n  allowedPrivateNetworks: ["10.0.0.0/8", "0.0.0.0/0"]\n');

    expect(message).toBe(
      `${FILE}:2:42 notify.allowedPrivateNetworks[1]: "0.0.0.0/0" covers all of the IPv4 address space: it would let webhooks and chats reach any address (the cloud's metadata service included); list only the private networks your receivers are on, like 10.20.0.0/16 or fd00:1234::/48 (at most a /8)`,
    );
  });

  it("adds each court's closures up, overlapping days once, and accepts a year of them", () => {
    const closure = (court: string, from: string, to: string) =>
      `    - { court: ${court}, from: ${from}, to: ${to}, effect: closed, reason: a, source: b }`;
    const [message] = load(
      [
        "calendar:",
        "  closures:",
        closure("tjsp", "2026-01-01", "2026-12-31"),
        closure("tjsp", "2026-08-01", "2027-05-31"),
        "",
      ].join("\n"),
    );
    const fine = loadConfig({
      env: { MONITOR_CONFIG: FILE },
      cwd: CWD,
      readFile: () =>
        [
          "calendar:",
          "  closures:",
          closure("tjsp", "2026-01-01", "2026-06-30"),
          closure("tjsp", "2026-03-01", "2026-12-31"),
          closure("tjrj", "2026-01-01", "2026-12-31"),
          "",
        ].join("\n"),
    });

    expect(message).toMatch(
      /:4:\d+ calendar\.closures\[1\]\.to: the closures of tjsp add up to 516 days between 2026-01-01 and 2027-05-31 \(overlapping days counted once\)/u,
    );
    expect(fine.ok).toBe(true);
  });
});
