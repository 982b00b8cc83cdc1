import { type Logger, pino } from "pino";

export type { Logger };

export interface LoggerOptions {
  level?: string;
  /** Secret values (API keys, SMTP URL): replaced wherever they appear in a log line. */
  secrets?: readonly string[];
  /** Defaults to stderr, synchronously, so nothing is lost on exit and stdout stays for data. */
  destination?: NodeJS.WritableStream | { write(chunk: string): unknown };
}

const REDACTED = "[redacted]";

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

/** JSON lines on stderr; secrets removed both by field name and by value. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = (options.secrets ?? []).filter((s) => s.length >= 4);
  const target = options.destination ?? pino.destination({ dest: 2, sync: true });
  const stream = {
    write(chunk: string): void {
      target.write(secrets.length > 0 ? scrub(chunk, secrets) : chunk);
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
