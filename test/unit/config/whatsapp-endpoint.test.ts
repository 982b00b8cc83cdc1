import { describe, expect, it } from "vitest";
import { type ConfigResult, loadConfig } from "../../../src/config/load-config.js";

const CWD = "/srv/monitor";
const CONFIG = "/srv/monitor/config/monitor.yaml";
const TOKEN = "EAAGconfigWHATSAPPtoken987";

function load(env: NodeJS.ProcessEnv, fs: Record<string, string> = {}): ConfigResult {
  return loadConfig({ env, cwd: CWD, readFile: (path) => fs[path] });
}

function yaml(to: string, extra = ""): string {
  return [
    "notify:",
    "  endpoints:",
    "    ana-zap:",
    "      channel: whatsapp",
    "      tokenVariable: WHATSAPP_TOKEN",
    '      phoneNumberId: "106540352242922"',
    `      to: ${JSON.stringify(to)}`,
    "      template: { name: alerta_processo, language: pt_BR }",
    extra,
  ].join("\n");
}

describe("a whatsapp endpoint", () => {
  it("reads its token from a systemd credential and keeps it among the secrets", () => {
    const result = load(
      { CREDENTIALS_DIRECTORY: "/run/credentials/dm" },
      {
        [CONFIG]: yaml("+5511987654321"),
        "/run/credentials/dm/WHATSAPP_TOKEN": `${TOKEN}\n`,
      },
    );

    if (!result.ok) throw new Error(result.errors.join("\n"));
    expect(result.config.notify.endpoints).toEqual([
      {
        name: "ana-zap",
        channel: "whatsapp",
        apiBase: "https://graph.facebook.com",
        token: TOKEN,
        phoneNumberId: "106540352242922",
        to: "5511987654321",
        template: { name: "alerta_processo", language: "pt_BR" },
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
        source: expect.stringContaining("WHATSAPP_TOKEN"),
      },
    ]);
    expect(result.secrets).toContain(TOKEN);
  });

  it("without its token is declared, queues, and names the variable it lacks", () => {
    const result = load({}, { [CONFIG]: yaml("+5511987654321") });

    if (!result.ok) throw new Error(result.errors.join("\n"));
    expect(result.config.notify.endpoints).toEqual([]);
    expect(result.config.notify.declared).toEqual([
      expect.objectContaining({
        name: "ana-zap",
        channel: "whatsapp",
        missing: ["WHATSAPP_TOKEN"],
      }),
    ]);
  });

  it.each([
    ["11987654321", "no + and country code"],
    ["+55 11 98765-4321", "spaces and a dash"],
    ["+0511987654321", "a country code starting with 0"],
    ["+5511987654321000", "more than 15 digits"],
  ])("refuses %s (%s) at its line and column, saying how to write it", (to) => {
    const result = load({ WHATSAPP_TOKEN: TOKEN }, { [CONFIG]: yaml(to) });

    if (result.ok) throw new Error("expected the number to be refused");
    const text = result.errors.join("\n");
    expect(text).toMatch(/monitor\.yaml:7:\d+/);
    expect(text).toContain("E.164");
    expect(text).toContain('"+5511987654321"');
    expect(text).not.toContain(TOKEN);
  });

  it("without a to: of its own is a per-watcher endpoint (each watcher's whatsapp: number)", () => {
    const text = yaml("+5511987654321").replace(/\n {6}to: .*\n/u, "\n");
    const result = load({ WHATSAPP_TOKEN: TOKEN }, { [CONFIG]: text });

    if (!result.ok) throw new Error(result.errors.join("\n"));
    expect(result.config.notify.endpoints[0]).toMatchObject({ to: null, perWatcher: true });
    expect(result.config.notify.declared[0]).toMatchObject({ name: "ana-zap", perWatcher: true });
  });

  it("refuses a template name or language Meta would not have", () => {
    const bad = yaml("+5511987654321").replace(
      "{ name: alerta_processo, language: pt_BR }",
      '{ name: "Alerta Processo", language: pt-br }',
    );

    const result = load({ WHATSAPP_TOKEN: TOKEN }, { [CONFIG]: bad });

    if (result.ok) throw new Error("expected the template to be refused");
    const text = result.errors.join("\n");
    expect(text).toMatch(/monitor\.yaml:8:\d+.*not a WhatsApp template name/);
    expect(text).toMatch(/monitor\.yaml:8:\d+.*not a WhatsApp template language code/);
  });

  it("holds an apiBase to the public-address rules, like Telegram's", () => {
    const result = load(
      { WHATSAPP_TOKEN: TOKEN },
      { [CONFIG]: yaml("+5511987654321", "      apiBase: http://10.0.0.5:8080") },
    );

    if (result.ok) throw new Error("expected the private address to be refused");
    expect(result.errors.join("\n")).toContain("notify.endpoints.ana-zap");
  });
});
