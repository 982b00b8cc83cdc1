import { describe, expect, it } from "vitest";
import { type ConfigResult, loadConfig } from "../../../src/config/load-config.js";

/*
 * The secrets of the reply webhooks (issue 40, docs/channels.md "Replies"): read from the
 * environment, a _FILE or a credential like every secret, refused from a config file, checked
 * against what Telegram's setWebhook takes, and never quoted back in an error.
 */

const TELEGRAM = "a".repeat(40);

function load(env: NodeJS.ProcessEnv, fs: Record<string, string> = {}): ConfigResult {
  return loadConfig({ env, cwd: "/srv/monitor", readFile: (path) => fs[path] });
}

describe("the reply webhooks' secrets", () => {
  it("come from the environment or a _FILE; unset, they are null", () => {
    const none = load({});
    const set = load(
      {
        TELEGRAM_WEBHOOK_SECRET: TELEGRAM,
        WHATSAPP_APP_SECRET_FILE: "/run/secrets/app",
        WHATSAPP_VERIFY_TOKEN: "verify-token-0123456789",
      },
      { "/run/secrets/app": "meta-app-secret\n" },
    );

    expect(none.ok && none.config.acknowledgement).toMatchObject({
      telegramSecret: null,
      whatsappAppSecret: null,
      whatsappVerifyToken: null,
    });
    expect(set.ok && set.config.acknowledgement).toMatchObject({
      telegramSecret: TELEGRAM,
      whatsappAppSecret: "meta-app-secret",
      whatsappVerifyToken: "verify-token-0123456789",
    });
    expect(set.ok && set.secrets).toEqual(
      expect.arrayContaining([TELEGRAM, "meta-app-secret", "verify-token-0123456789"]),
    );
  });

  it("refuse what Telegram's setWebhook would not take, without quoting it", () => {
    const short = load({ TELEGRAM_WEBHOOK_SECRET: "short-secret" });
    const spaced = load({ TELEGRAM_WEBHOOK_SECRET: `${"b".repeat(40)} c` });
    const token = load({ WHATSAPP_VERIFY_TOKEN: "has spaces in it, long enough" });

    for (const [result, value] of [
      [short, "short-secret"],
      [spaced, "b".repeat(40)],
      [token, "has spaces"],
    ] as const) {
      expect(result.ok).toBe(false);
      const messages = result.ok ? [] : result.errors;
      expect(messages.join("\n")).not.toContain(value);
    }
    expect(short.ok ? [] : short.errors).toEqual([
      expect.stringMatching(/TELEGRAM_WEBHOOK_SECRET.*32 to 256 of A-Z, a-z, 0-9, _ and -/u),
    ]);
  });

  it("are refused from a config file, with where to put them", () => {
    const fs = { "/c.yaml": "acknowledgement:\n  whatsappAppSecret: x\n" };

    const result = load({ MONITOR_CONFIG: "/c.yaml" }, fs);

    expect(result.ok ? [] : result.errors.join("\n")).toMatch(/WHATSAPP_APP_SECRET/u);
  });
});
