import { describe, expect, it } from "vitest";
import { readEnvValue, redactionValues, scrubSecrets } from "../../../src/config/secrets.js";

function context(env: NodeJS.ProcessEnv, files: Record<string, string> = {}) {
  return { env, cwd: "/work", readFile: (path: string) => files[path] };
}

describe("readEnvValue", () => {
  it("returns nothing when neither X, X_FILE nor a credential is set", () => {
    const lookup = readEnvValue("DATAJUD_API_KEY", context({}));

    expect(lookup).toEqual({ ok: true, found: undefined });
  });

  it("reports a file it cannot read without failing the whole lookup", () => {
    const ctx = {
      env: { DATAJUD_API_KEY_FILE: "/root/key" },
      cwd: "/work",
      readFile: (): string => {
        throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
      },
    };

    const lookup = readEnvValue("DATAJUD_API_KEY", ctx);

    expect(lookup).toEqual({
      ok: false,
      error: "DATAJUD_API_KEY_FILE (/root/key): cannot read the file (permission denied)",
    });
  });

  it("falls back to the lower-case credential name", () => {
    const ctx = context(
      { CREDENTIALS_DIRECTORY: "/run/c" },
      { "/run/c/anthropic_api_key": "sk\n" },
    );

    const lookup = readEnvValue("ANTHROPIC_API_KEY", ctx);

    expect(lookup).toEqual({
      ok: true,
      found: { value: "sk", source: "credential /run/c/anthropic_api_key" },
    });
  });
});

describe("redactionValues", () => {
  it("adds the password of a URL, raw and decoded, and skips empty values", () => {
    const values = redactionValues([
      "https://hc-ping.com/abcd-uuid",
      "smtp://u:p%23ss@mail.example.com:587",
      null,
      "",
      "plain-key",
    ]);

    expect(values).toEqual(["https://hc-ping.com/abcd-uuid", "p%23ss", "p#ss", "plain-key"]);
  });

  it("keeps an SMTP URL's host readable: only its password is secret", () => {
    const values = redactionValues(["smtp://127.0.0.1:2525", "smtps://u:pw12@mail.firm.com.br"]);
    const line = scrubSecrets(
      "smtp://127.0.0.1:2525 refused; smtps://u:pw12@mail.firm.com.br:465 (TLS)",
      values,
    );

    expect(line).toBe(
      "smtp://127.0.0.1:2525 refused; smtps://u:[redacted]@mail.firm.com.br:465 (TLS)",
    );
  });
});

describe("scrubSecrets", () => {
  it("replaces every occurrence of a secret", () => {
    const message = scrubSecrets("key abcd1234 and again abcd1234", ["abcd1234"]);

    expect(message).toBe("key [redacted] and again [redacted]");
  });
});
