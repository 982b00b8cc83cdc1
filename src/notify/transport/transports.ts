import {
  chmodSync,
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { join, resolve } from "node:path";
import {
  createTransport as createNodemailer,
  type SendMailOptions,
  type TransportConfig,
} from "nodemailer";

export interface OutgoingMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Threading; absent on mail that belongs to no case thread (digests, operator alerts). */
  inReplyTo?: string;
  references?: string;
  headers: Record<string, string>;
}

export interface SendResult {
  /** The server's final reply (it usually names the queue id); null when nothing answered. */
  response: string | null;
  /** The file written, for the `.eml` transport. */
  path?: string;
}

export interface MailTransport {
  send(message: OutgoingMessage): Promise<SendResult>;
  close(): void;
  /** Where mail goes, for logs and `monitor status`; never the password. */
  describe(): string;
}

export type MailErrorCode =
  /** SMTP_URL cannot be used as given. */
  | "config"
  /** No server to talk to: connection, TLS, greeting, authentication, timeout. */
  | "connection"
  /** The server refused this message or its recipient. */
  | "rejected"
  /** A header value would have broken the message; a bug upstream, never sent. */
  | "header"
  /** The `.eml` file could not be written. */
  | "file";

export class MailError extends Error {
  override readonly name = "MailError";
  readonly code: MailErrorCode;
  /** True when nothing else would get through either, so a drain stops instead of trying each row. */
  readonly transportDown: boolean;
  readonly responseCode: number | undefined;

  constructor(
    code: MailErrorCode,
    message: string,
    options: { transportDown?: boolean; responseCode?: number } = {},
  ) {
    super(message);
    this.code = code;
    this.transportDown = options.transportDown ?? (code === "connection" || code === "file");
    this.responseCode = options.responseCode;
  }
}

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

export interface TransportTimeouts {
  connectionMs: number;
  greetingMs: number;
  socketMs: number;
}

const DEFAULT_TIMEOUTS: TransportTimeouts = {
  connectionMs: 30_000,
  greetingMs: 30_000,
  socketMs: 60_000,
};

const HEADER_NAME = /^[A-Za-z0-9-]{1,76}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const UNSAFE_HEADER_VALUE = /[\r\n\u0000]/;
/** Message-level failures; every other nodemailer code means the connection itself failed. */
const REJECTION_CODES = new Set(["EENVELOPE", "EMESSAGE"]);

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

function describeSmtp(s: SmtpSettings): string {
  const who = s.user === null ? "" : `${encodeURIComponent(s.user)}@`;
  const host = s.host.includes(":") ? `[${s.host}]` : s.host;
  const tls = s.secure ? "TLS" : s.requireTLS ? "STARTTLS required" : "STARTTLS when offered";
  return `${s.secure ? "smtps" : "smtp"}://${who}${host}:${s.port} (${tls})`;
}

function scrubber(secrets: ReadonlyArray<string | null>): (text: string) => string {
  const values = secrets
    .filter((s): s is string => s !== null && s.length > 0)
    .flatMap((s) => [s, encodeURIComponent(s)]);
  return (text) => values.reduce((out, secret) => out.split(secret).join("***"), text);
}

function checkHeaders(message: OutgoingMessage): void {
  const values: Array<[string, string]> = [
    ["From", message.from],
    ["To", message.to],
    ["Subject", message.subject],
    ["Message-ID", message.messageId],
    ...Object.entries(message.headers),
  ];
  if (message.inReplyTo !== undefined) values.push(["In-Reply-To", message.inReplyTo]);
  if (message.references !== undefined) values.push(["References", message.references]);
  for (const [name, value] of values) {
    if (!HEADER_NAME.test(name) || UNSAFE_HEADER_VALUE.test(value)) {
      throw new MailError(
        "header",
        `refusing to send: header ${name.replace(/[^\w-]/g, "?")} is unsafe`,
        {
          transportDown: false,
        },
      );
    }
  }
}

function mailOptions(message: OutgoingMessage): SendMailOptions {
  return {
    from: message.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: message.messageId,
    ...(message.inReplyTo === undefined ? {} : { inReplyTo: message.inReplyTo }),
    ...(message.references === undefined ? {} : { references: message.references }),
    headers: message.headers,
    // Nothing we render points at files or URLs; make sure nothing can.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
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

function createSmtpTransport(settings: SmtpSettings, timeouts: TransportTimeouts): MailTransport {
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

/** A name that cannot leave the directory and is the same for a resend of the same message. */
function emlFileName(messageId: string): string {
  const name = messageId
    .replace(/^<|>$/g, "")
    .replace(/[^A-Za-z0-9._@-]/g, "_")
    .replace(/^\.+/, "")
    .slice(0, 200);
  return `${name === "" ? "message" : name}.eml`;
}

function ensurePrivateDir(dir: string): void {
  // mkdir returns the first directory it created; only a directory we made gets its mode forced.
  // chmod as well: the umask may have taken bits off.
  if (mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined) chmodSync(dir, 0o700);
}

function createEmlTransport(outboxDir: string): MailTransport {
  const dir = resolve(outboxDir);
  const mailer = createNodemailer({ streamTransport: true, buffer: true, newline: "windows" });
  return {
    async send(message) {
      checkHeaders(message);
      let raw: Buffer;
      try {
        const info = await mailer.sendMail(mailOptions(message));
        raw = Buffer.isBuffer(info.message) ? info.message : Buffer.from(String(info.message));
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        throw new MailError("rejected", `building the message failed: ${detail}`);
      }
      const path = join(dir, emlFileName(message.messageId));
      const tmp = join(dir, `.${emlFileName(message.messageId)}.${process.pid}.tmp`);
      try {
        ensurePrivateDir(dir);
        // Written whole, then renamed: a reader never sees half a file, and a resend after a crash
        // replaces the same file instead of adding a second copy.
        const fd = openSync(tmp, "w", 0o600);
        try {
          fchmodSync(fd, 0o600);
          writeSync(fd, raw);
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
        renameSync(tmp, path);
      } catch (error) {
        rmSync(tmp, { force: true });
        const detail = error instanceof Error ? error.message : String(error);
        throw new MailError("file", `cannot write ${path}: ${detail}`);
      }
      return { response: null, path };
    },
    close() {
      mailer.close();
    },
    describe: () => `.eml files in ${dir}`,
  };
}

/** SMTP when `smtpUrl` is set, otherwise `.eml` files in `outboxDir` (the demo's default). */
export function createTransport(options: {
  smtpUrl: string | null;
  outboxDir: string;
  timeouts?: Partial<TransportTimeouts>;
}): MailTransport {
  const smtpUrl = options.smtpUrl?.trim() ?? "";
  if (smtpUrl === "") return createEmlTransport(options.outboxDir);
  return createSmtpTransport(parseSmtpUrl(smtpUrl), { ...DEFAULT_TIMEOUTS, ...options.timeouts });
}
