import { MailError } from "./mail-transport.js";

export interface SmtpSettings {
  secure: boolean;
  host: string;
  port: number;
  user: string | null;
  password: string | null;
  /** Refuse to send in clear text when the server offers no STARTTLS. */
  requireTLS: boolean;
  rejectUnauthorized: boolean;
}

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new MailError("config", `SMTP_URL has a badly percent-encoded ${what}`);
  }
}

function boolParam(value: string, name: string): boolean {
  if (value === "true") return true;
  if (value === "false") return false;
  throw new MailError("config", `SMTP_URL parameter ${name} must be true or false`);
}

/**
 * `smtp://user:pass@host:port` (STARTTLS when the server offers it) or `smtps://...` (TLS from the
 * first byte). Errors never quote the URL: it holds the password.
 */
export function parseSmtpUrl(smtpUrl: string): SmtpSettings {
  let url: URL;
  try {
    url = new URL(smtpUrl.trim());
  } catch {
    // Node's own error carries the input (with the password) as a property: never rethrow it.
    throw new MailError("config", "SMTP_URL is not a URL (expected smtp://user:pass@host:port)");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    throw new MailError("config", "SMTP_URL must start with smtp:// or smtps://");
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (host === "") throw new MailError("config", "SMTP_URL names no host");
  const secure = url.protocol === "smtps:";
  let requireTLS = false;
  let rejectUnauthorized = true;
  for (const [name, value] of url.searchParams) {
    if (name === "requireTLS") requireTLS = boolParam(value, name);
    else if (name === "tls.rejectUnauthorized") rejectUnauthorized = boolParam(value, name);
    else {
      throw new MailError(
        "config",
        `SMTP_URL has an unknown parameter "${name.replace(/[^\w.-]/g, "?")}" (known: requireTLS, tls.rejectUnauthorized)`,
      );
    }
  }
  return {
    secure,
    host,
    port: url.port === "" ? (secure ? 465 : 587) : Number(url.port),
    user: url.username === "" ? null : decode(url.username, "user name"),
    password: url.password === "" ? null : decode(url.password, "password"),
    requireTLS,
    rejectUnauthorized,
  };
}

export function describeSmtp(s: SmtpSettings): string {
  const who = s.user === null ? "" : `${encodeURIComponent(s.user)}@`;
  const host = s.host.includes(":") ? `[${s.host}]` : s.host;
  const tls = s.secure ? "TLS" : s.requireTLS ? "STARTTLS required" : "STARTTLS when offered";
  return `${s.secure ? "smtps" : "smtp"}://${who}${host}:${s.port} (${tls})`;
}
