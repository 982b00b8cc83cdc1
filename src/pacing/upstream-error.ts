import { MonitorError } from "../errors.js";

/** What a failed request to a public upstream (DataJud, DJEN) carries besides its message. */
export interface UpstreamErrorOptions {
  retryable?: boolean;
  status?: number;
  attempts?: number;
  /** Seconds the service asked us to wait, from `Retry-After`. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/**
 * A failed DataJud or DJEN request, as a stable string code (`kind`) that the caller decides
 * retry-or-skip from, and a message saying what a person can do. Each service names its kinds
 * and which are worth retrying by default.
 */
export abstract class UpstreamError<Kind extends string> extends MonitorError<Kind> {
  readonly status: number | undefined;
  readonly attempts: number | undefined;
  readonly retryAfterSeconds: number | undefined;

  protected constructor(
    kind: Kind,
    message: string,
    options: UpstreamErrorOptions,
    retryableByDefault: ReadonlySet<Kind>,
  ) {
    super(kind, message, {
      retryable: options.retryable ?? retryableByDefault.has(kind),
      cause: options.cause,
    });
    this.status = options.status;
    this.attempts = options.attempts;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The options this error was made with, to make a copy of it. */
  protected options(): UpstreamErrorOptions {
    return {
      retryable: this.retryable,
      ...(this.attempts === undefined ? {} : { attempts: this.attempts }),
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.retryAfterSeconds === undefined
        ? {}
        : { retryAfterSeconds: this.retryAfterSeconds }),
      cause: this.cause,
    };
  }

  toJSON(): { kind: Kind; message: string; retryable: boolean; status?: number } {
    return {
      kind: this.kind,
      message: this.message,
      retryable: this.retryable,
      ...(this.status === undefined ? {} : { status: this.status }),
    };
  }
}
