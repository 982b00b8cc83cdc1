import { describe, expect, it } from "vitest";
import { MailError } from "../../../../src/notify/transport/mail-transport.js";
import { parseSmtpUrl } from "../../../../src/notify/transport/smtp-url.js";

const PASSWORD = "hunter2-very-secret";

function errorOf(fn: () => unknown): MailError {
  try {
    fn();
  } catch (error) {
    if (error instanceof MailError) return error;
    throw error;
  }
  throw new Error("expected a MailError");
}

describe("parseSmtpUrl", () => {
  it("reads host, port, credentials and TLS mode", () => {
    const plain = parseSmtpUrl("smtp://ana%40example.com:p%2Fss@mail.example.com:2525");
    const tls = parseSmtpUrl("smtps://mail.example.com");
    const strict = parseSmtpUrl("smtp://[::1]?requireTLS=true&tls.rejectUnauthorized=false");

    expect(plain).toEqual({
      secure: false,
      host: "mail.example.com",
      port: 2525,
      user: "ana@example.com",
      password: "p/ss",
      requireTLS: false,
      rejectUnauthorized: true,
    });
    expect(tls).toMatchObject({ secure: true, port: 465, user: null, password: null });
    expect(strict).toMatchObject({
      host: "::1",
      port: 587,
      requireTLS: true,
      rejectUnauthorized: false,
    });
  });

  it("explains a bad URL without repeating it", () => {
    const inputs = [
      `http://user:${PASSWORD}@mail.example.com`,
      `smtp://user:${PASSWORD}@mail example.com`,
      `smtp://user:${PASSWORD}@mail.example.com?pool=true`,
      `smtp://user:${PASSWORD}%zz@mail.example.com`,
    ];

    const errors = inputs.map((input) => errorOf(() => parseSmtpUrl(input)));

    for (const error of errors) {
      expect(error.kind).toBe("config");
      expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(PASSWORD);
    }
    expect(errors[2]?.message).toContain('"pool"');
  });
});
