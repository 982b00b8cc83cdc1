import { type Logger, pino } from "pino";
import { prettyFactory } from "pino-pretty";
import { terminalText } from "./text.js";
import { SAO_PAULO_ZONE, timeOfDayInZone } from "./time/zoned-time.js";

export type { Logger };

/** JSON lines for journald, files and pipes; short human lines for a person at a terminal. */
export type LogFormat = "json" | "pretty";

export interface LoggerOptions {
  level?: string;
  /** Secret values (API keys, SMTP URL): replaced wherever they appear in a log line. */
  secrets?: readonly string[];
  /** Defaults to stderr, synchronously, so nothing is lost on exit and stdout stays for data. */
  destination?: NodeJS.WritableStream | { write(chunk: string): unknown };
  /** @default "json" */
  format?: LogFormat;
  /** The zone a pretty line's time of day is shown in (schedule.timezone). @default "America/Sao_Paulo" */
  timezone?: string;
  /** ANSI colours in pretty lines. @default false */
  colors?: boolean;
}

const REDACTED = "[redacted]";

/**
 * A URL as a log line may show it: scheme, host and port. Never its user or password, and never
 * its path or query, which are often the credential itself (a heartbeat's check id, a feed's
 * token, a webhook's secret path): "/…" says there was one. The one way a URL reaches a log.
 */
export function loggableUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(not a URL)";
  }
  if (parsed.host === "") return `${parsed.protocol}…`;
  const more =
    parsed.pathname.replace(/^\/$/u, "") !== "" || parsed.search !== "" || parsed.hash !== "";
  return `${parsed.protocol}//${parsed.host}${more ? "/…" : ""}`;
}

/** Anything written as scheme://… in free text (an error message quoting the URL it failed on). */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/giu;

/**
 * Every URL in `text` as `loggableUrl` shows it: for messages that quote a URL, as fetch's
 * "Request cannot be constructed from a URL that includes credentials: https://…" does.
 */
export function withLoggableUrls(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => loggableUrl(url));
}

/** user:password@ in any URL of a line: a last guard under the call sites' loggableUrl. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s"'<>`/?#@]*@/giu;

/** Field paths that hold secrets wherever they are logged from. */
const REDACT_PATHS = [
  "apiKey",
  "*.apiKey",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "password",
  "*.password",
  "smtpUrl",
  "*.smtpUrl",
];

function scrub(line: string, secrets: readonly string[]): string {
  let out = line;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
    const encoded = JSON.stringify(secret).slice(1, -1);
    if (encoded !== secret && encoded.length >= 4) out = out.split(encoded).join(REDACTED);
  }
  return out;
}

/** Fields every line carries that a person at the terminal already knows. */
const KNOWN_FIELDS = new Set(["level", "time", "msg", "pid", "hostname", "name", "command"]);

/** `key=value` for each leaf, nested keys joined with dots; text quoted when it has spaces. */
function fieldsText(record: Record<string, unknown>): string {
  const parts: string[] = [];
  const visit = (value: unknown, path: string): void => {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value)) {
        visit(inner, path === "" ? key : `${path}.${key}`);
      }
      return;
    }
    const text =
      typeof value === "string" && /^[^\s"=\p{Cc}]+$/u.test(value) ? value : JSON.stringify(value);
    // JSON escapes C0 controls only: bidi, zero-width and C1 characters are written out too.
    parts.push(terminalText(`${path}=${text}`));
  };
  for (const [key, value] of Object.entries(record)) {
    // An error's stack is for the JSON lines; the terminal gets its message.
    if (!KNOWN_FIELDS.has(key)) visit(key === "err" ? errorText(value) : value, key);
  }
  return parts.length === 0 ? "" : `  ${parts.join(" ")}`;
}

function errorText(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  const message = (value as { message?: unknown }).message;
  return typeof message === "string" ? message : value;
}

/**
 * One log line as a person reads it: "14:02:07 WARN: DataJud request failed, retrying  index=...",
 * the time of day in `timezone`, never UTC.
 */
export function prettyLogLine(
  options: Pick<LoggerOptions, "timezone" | "colors"> = {},
): (jsonLine: string) => string {
  const timeZone = options.timezone ?? SAO_PAULO_ZONE;
  return prettyFactory({
    colorize: options.colors ?? false,
    translateTime: false,
    ignore: "pid,hostname,name,command",
    hideObject: true,
    errorLikeObjectKeys: [],
    customPrettifiers: {
      time: (value) => {
        const at = new Date(String(value));
        return Number.isNaN(at.getTime()) ? String(value) : timeOfDayInZone(at.getTime(), timeZone);
      },
    },
    // Control, bidi and invisible characters never reach the terminal raw: DataJud's text is
    // hostile data. They are written out, so what was sent stays visible.
    messageFormat: (record, messageKey) =>
      `${terminalText(String(record[messageKey] ?? ""))}${fieldsText(record)}`,
  });
}

/** JSON lines on stderr (or short human lines); secrets removed both by field name and by value. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = (options.secrets ?? []).filter((s) => s.length >= 4);
  const target = options.destination ?? pino.destination({ dest: 2, sync: true });
  const pretty = options.format === "pretty" ? prettyLogLine(options) : null;
  const stream = {
    write(chunk: string): void {
      // Scrubbed first, so a secret never reaches the formatter either.
      const scrubbed = secrets.length > 0 ? scrub(chunk, secrets) : chunk;
      const line = scrubbed.replace(URL_USERINFO, "$1***@");
      target.write(pretty === null ? line : pretty(line));
    },
  };
  return pino(
    {
      level: options.level ?? "info",
      base: { name: "datajud-monitor" },
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    stream,
  );
}

/** A logger that drops everything: for tests and library use without output. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
