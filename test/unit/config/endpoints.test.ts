import { describe, expect, it } from "vitest";
import { type ConfigResult, loadConfig } from "../../../src/config/load-config.js";

const CWD = "/srv/monitor";
const SECRET = `whsec_${Buffer.alloc(32, 5).toString("base64")}`;
const SLACK = "https://hooks.slack.com/services/T0001/B0001/slacksecretpath123";

function load(env: NodeJS.ProcessEnv, fs: Record<string, string> = {}): ConfigResult {
  return loadConfig({ env, cwd: CWD, readFile: (path) => fs[path] });
}

function errorsOf(result: ConfigResult): string {
  if (result.ok) throw new Error("expected the config to be refused");
  return result.errors.join("\n");
}

const CONFIG = "/srv/monitor/config/monitor.yaml";

describe("the firm-wide webhook", () => {
  it("WEBHOOK_URL and WEBHOOK_SECRET make an endpoint named webhook that gets every event", () => {
    const result = load({
      WEBHOOK_URL: "https://sistema.example.com/hooks/datajud",
      WEBHOOK_SECRET: SECRET,
    });

    if (!result.ok) throw new Error(result.errors.join("\n"));
    expect(result.config.notify.endpoints).toEqual([
      {
        name: "webhook",
        channel: "webhook",
        url: "https://sistema.example.com/hooks/datajud",
        secrets: [SECRET],
        events: [
          "case.movement",
          "case.correction",
          "publication.published",
          "publication.cancelled",
          "publication.reestimated",
          "operator.alert",
        ],
        delivery: "instant",
        digestSchedule: null,
        quietHours: false,
        source: "WEBHOOK_URL, WEBHOOK_SECRET",
      },
    ]);
    expect(result.secrets).toEqual(
      expect.arrayContaining([
        SECRET,
        "https://sistema.example.com/hooks/datajud",
        "/hooks/datajud",
      ]),
    );
  });

  it("reads both from *_FILE and systemd credentials", () => {
    const result = load(
      { WEBHOOK_URL_FILE: "/run/secrets/url", CREDENTIALS_DIRECTORY: "/run/credentials/dm" },
      {
        "/run/secrets/url": "https://sistema.example.com/h\n",
        "/run/credentials/dm/WEBHOOK_SECRET": `${SECRET}\n`,
      },
    );

    if (!result.ok) throw new Error(result.errors.join("\n"));
    expect(result.config.notify.endpoints[0]).toMatchObject({
      url: "https://sistema.example.com/h",
      secrets: [SECRET],
    });
  });

  it("refuses one without the other, plain http, a private address and a weak secret, never quoting them", () => {
    const url = "http://sistema.example.com/hooks/tokenvalue123";
    const cases: Array<[NodeJS.ProcessEnv, RegExp]> = [
      [
        { WEBHOOK_URL: "https://sistema.example.com/hooks/tokenvalue123" },
        /without WEBHOOK_SECRET/,
      ],
      [{ WEBHOOK_URL: url, WEBHOOK_SECRET: SECRET }, /plain http:\/\/ is refused/],
      [{ WEBHOOK_URL: "https://10.1.1.1/hooks/tokenvalue123", WEBHOOK_SECRET: SECRET }, /private/],
      [
        {
          WEBHOOK_URL: "https://sistema.example.com/hooks/tokenvalue123",
          WEBHOOK_SECRET: "whsec_c2hvcnQ=",
        },
        /bytes/,
      ],
      [
        { WEBHOOK_URL: "not a url tokenvalue123", WEBHOOK_SECRET: SECRET },
        /is not an http:\/\/ or https:\/\/ URL/,
      ],
    ];

    for (const [env, reason] of cases) {
      const text = errorsOf(load(env));
      expect(text).toMatch(reason);
      expect(text).not.toContain("tokenvalue123");
      expect(text).not.toContain("c2hvcnQ");
    }
  });
});

describe("notify.endpoints", () => {
  it("reads each endpoint's secrets from the variables it names", () => {
    const yaml = [
      "notify:",
      "  endpoints:",
      '    equipe: { channel: slack, urlVariable: SLACK_WEBHOOK_URL, delivery: digest, digestSchedule: "0 18 * * 1-5" }',
      '    plantao: { channel: telegram, tokenVariable: TELEGRAM_BOT_TOKEN, chatId: "-100123", events: [publication.published], quietHours: false }',
      "  allowedPrivateNetworks: [10.20.0.0/16]",
    ].join("\n");

    const result = load(
      { SLACK_WEBHOOK_URL: SLACK, TELEGRAM_BOT_TOKEN_FILE: "/run/tg" },
      { [CONFIG]: yaml, "/run/tg": "123456:telegram-token\n" },
    );

    if (!result.ok) throw new Error(result.errors.join("\n"));
    expect(result.config.notify.endpoints).toEqual([
      {
        name: "equipe",
        channel: "slack",
        url: SLACK,
        events: [
          "case.movement",
          "case.correction",
          "publication.published",
          "publication.cancelled",
          "publication.reestimated",
        ],
        delivery: "digest",
        digestSchedule: "0 18 * * 1-5",
        quietHours: true,
        source: "SLACK_WEBHOOK_URL",
      },
      {
        name: "plantao",
        channel: "telegram",
        apiBase: "https://api.telegram.org",
        token: "123456:telegram-token",
        chatId: "-100123",
        events: ["publication.published"],
        delivery: "instant",
        digestSchedule: null,
        quietHours: false,
        source: "TELEGRAM_BOT_TOKEN_FILE (/run/tg)",
      },
    ]);
    expect(result.config.notify.allowedPrivateNetworks).toEqual(["10.20.0.0/16"]);
    expect(result.secrets).toEqual(expect.arrayContaining([SLACK, "123456:telegram-token"]));
  });

  it("refuses a URL written in the config file, pointing to the variable instead", () => {
    const yaml = `notify:\n  endpoints:\n    equipe: { channel: slack, urlVariable: "${SLACK}" }\n`;

    const text = errorsOf(load({}, { [CONFIG]: yaml }));

    expect(text).toMatch(/monitor\.yaml:3:\d+/);
    expect(text).toMatch(/NAME of the variable/);
  });

  it("says which variable is missing, and refuses the firm-wide name", () => {
    const yaml = [
      "notify:",
      "  endpoints:",
      "    equipe: { channel: teams, urlVariable: TEAMS_WEBHOOK_URL }",
      "    webhook: { channel: slack, urlVariable: SLACK_WEBHOOK_URL }",
    ].join("\n");

    const text = errorsOf(load({ SLACK_WEBHOOK_URL: SLACK }, { [CONFIG]: yaml }));

    expect(text).toContain("notify.endpoints.equipe: TEAMS_WEBHOOK_URL is not set");
    expect(text).toContain('"webhook" is the firm-wide');
    expect(text).not.toContain("slacksecretpath123");
  });
});
