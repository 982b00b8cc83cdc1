/** What a named failure carries besides its message. */
export interface MonitorErrorOptions {
  /** Whether trying again later may succeed; false unless said. */
  retryable?: boolean;
  /** What a person or an agent can do about it, where the message does not say it. */
  hint?: string;
  cause?: unknown;
}

/**
 * A failure the monitor names: `kind`, the stable string callers branch on (never the message;
 * what the MCP envelope and a failed check carry), whether trying again may succeed, and, where
 * the message does not say it, what to do. Each family is a thin subclass naming its kinds
 * (DataJudError, DjenError, ToolError, StoreError, BackupError, MailError, the demo's QueryError).
 */
export class MonitorError<Kind extends string = string> extends Error {
  override readonly name: string = "MonitorError";
  readonly kind: Kind;
  readonly retryable: boolean;
  readonly hint: string | undefined;

  constructor(kind: Kind, message: string, options: MonitorErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.retryable = options.retryable ?? false;
    this.hint = options.hint;
  }
}
