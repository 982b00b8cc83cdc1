import { createTransport as createNodemailer, type TransportConfig } from "nodemailer";
import { checkHeaders, MailError, type MailTransport, mailOptions } from "./mail-transport.js";
import { describeSmtp, type SmtpSettings } from "./smtp-url.js";

export interface TransportTimeouts {
  connectionMs: number;
  greetingMs: number;
  socketMs: number;
}

export const DEFAULT_TIMEOUTS: TransportTimeouts = {
  connectionMs: 30_000,
  greetingMs: 30_000,
  socketMs: 60_000,
};

/** Message-level failures; every other nodemailer code means the connection itself failed. */
const REJECTION_CODES = new Set(["EENVELOPE", "EMESSAGE"]);

function scrubber(secrets: ReadonlyArray<string | null>): (text: string) => string {
  const values = secrets
    .filter((s): s is string => s !== null && s.length > 0)
    .flatMap((s) => [s, encodeURIComponent(s)]);
  return (text) => values.reduce((out, secret) => out.split(secret).join("***"), text);
}

interface NodemailerLikeError {
  code?: unknown;
  message?: unknown;
  responseCode?: unknown;
}

function smtpError(error: unknown, where: string, scrub: (text: string) => string): MailError {
  const e = (typeof error === "object" && error !== null ? error : {}) as NodemailerLikeError;
  const code = typeof e.code === "string" ? e.code : "";
  const responseCode = typeof e.responseCode === "number" ? e.responseCode : undefined;
  const detail = typeof e.message === "string" ? e.message : String(error);
  const rejected = REJECTION_CODES.has(code);
  return new MailError(
    rejected ? "rejected" : "connection",
    scrub(`${where}: ${code === "" ? "" : `${code} `}${detail}`).slice(0, 1000),
    responseCode === undefined ? {} : { responseCode },
  );
}

/** nodemailer's options for an SMTP URL: the one place they are spelled out (doctor verifies with them). */
export function smtpOptions(settings: SmtpSettings, timeouts: TransportTimeouts): TransportConfig {
  return {
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    requireTLS: settings.requireTLS,
    tls: { rejectUnauthorized: settings.rejectUnauthorized },
    ...(settings.user === null
      ? {}
      : { auth: { user: settings.user, pass: settings.password ?? "" } }),
    connectionTimeout: timeouts.connectionMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
    logger: false,
    debug: false,
  };
}

export function createSmtpTransport(
  settings: SmtpSettings,
  timeouts: TransportTimeouts,
): MailTransport {
  const scrub = scrubber([settings.password]);
  const where = describeSmtp(settings);
  const mailer = createNodemailer(smtpOptions(settings, timeouts));
  return {
    async send(message) {
      checkHeaders(message);
      try {
        const info = await mailer.sendMail(mailOptions(message));
        return { response: typeof info.response === "string" ? scrub(info.response) : null };
      } catch (error) {
        throw smtpError(error, where, scrub);
      }
    },
    close() {
      mailer.close();
    },
    describe: () => where,
  };
}
