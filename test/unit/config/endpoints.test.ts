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
  it("WEBHOOK_URL and WEBHOOK_SECRET make an endpoint named webhook that gets every event but case.checked", () => {
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
          "party.match",
          "publication.missing",
          "operator.alert",
          "alert.acknowledged",
          "alert.escalated",
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

  it("refuses plain http, a private address and a weak secret, never quoting them", () => {
    const url = "http://sistema.example.com/hooks/tokenvalue123";
    const cases: Array<[NodeJS.ProcessEnv, RegExp]> = [
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

describe("an endpoint declared, its secret absent from this process", () => {
  it("WEBHOOK_URL without WEBHOOK_SECRET declares the firm-wide webhook: queued for, not sent from here", () => {
    const result = load({ WEBHOOK_URL: "https://sistema.example.com/hooks/tokenvalue123" });

    if (!result.ok) throw new Error(result.errors.join("\n"));
    expect(result.config.notify.endpoints).toEqual([]);
    expect(result.config.notify.declared).toEqual([
      expect.objectContaining({
        name: "webhook",
        channel: "webhook",
        variables: ["WEBHOOK_URL", "WEBHOOK_SECRET"],
        missing: ["WEBHOOK_SECRET"],
      }),
    ]);
  });

  it("notify.endpoints.webhook declares the firm-wide webhook in the file: no variable set, still declared", () => {
    const yaml = [
      "notify:",
      "  endpoints:",
      "    equipe: { channel: slack, urlVariable: SLACK_WEBHOOK_URL }",
      "    webhook: { channel: webhook, urlVariable: WEBHOOK_URL, secretVariable: WEBHOOK_SECRET }",
    ].join("\n");

    const bare = load({ SLACK_WEBHOOK_URL: SLACK }, { [CONFIG]: yaml });
    if (!bare.ok) throw new Error(bare.errors.join("\n"));
    expect(bare.config.notify.declared.map((e) => [e.name, e.missing])).toEqual([
      ["webhook", ["WEBHOOK_URL", "WEBHOOK_SECRET"]],
      ["equipe", []],
    ]);
    expect(bare.config.notify.endpoints.map((e) => e.name)).toEqual(["equipe"]);

    const full = load(
      {
        SLACK_WEBHOOK_URL: SLACK,
        WEBHOOK_URL: "https://sistema.example.com/h",
        WEBHOOK_SECRET: SECRET,
      },
      { [CONFIG]: yaml },
    );
    if (!full.ok) throw new Error(full.errors.join("\n"));
    expect(full.config.notify.endpoints.map((e) => e.name)).toEqual(["webhook", "equipe"]);
    expect(full.config.notify.declared.every((e) => e.missing.length === 0)).toBe(true);
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
          "party.match",
          "publication.missing",
          "alert.escalated",
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

  it("declares an endpoint whose variable is not set, with what is missing, and refuses the firm-wide name on a chat", () => {
    const yaml = [
      "notify:",
      "  endpoints:",
      "    equipe: { channel: teams, urlVariable: TEAMS_WEBHOOK_URL }",
    ].join("\n");
    const declared = load({}, { [CONFIG]: yaml });
    if (!declared.ok) throw new Error(declared.errors.join("\n"));
    expect(declared.config.notify.endpoints).toEqual([]);
    expect(declared.config.notify.declared).toEqual([
      {
        name: "equipe",
        channel: "teams",
        events: [
          "case.movement",
          "case.correction",
          "publication.published",
          "publication.cancelled",
          "publication.reestimated",
          "party.match",
          "publication.missing",
          "alert.escalated",
        ],
        delivery: "instant",
        digestSchedule: null,
        quietHours: true,
        variables: ["TEAMS_WEBHOOK_URL"],
        missing: ["TEAMS_WEBHOOK_URL"],
      },
    ]);

    const chat = `${yaml}\n    webhook: { channel: slack, urlVariable: SLACK_WEBHOOK_URL }`;
    const text = errorsOf(load({ SLACK_WEBHOOK_URL: SLACK }, { [CONFIG]: chat }));
    expect(text).toContain('"webhook" is the firm-wide webhook');
    expect(text).not.toContain("slacksecretpath123");
  });

  it("still refuses a variable that is set and unreadable (a _FILE that is not there)", () => {
    const yaml =
      "notify:\n  endpoints:\n    equipe: { channel: teams, urlVariable: TEAMS_WEBHOOK_URL }\n";
    const text = errorsOf(load({ TEAMS_WEBHOOK_URL_FILE: "/run/none" }, { [CONFIG]: yaml }));
    expect(text).toContain("notify.endpoints.equipe:");
  });
});
