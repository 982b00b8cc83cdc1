import { UpstreamError, type UpstreamErrorOptions } from "../pacing/upstream-error.js";

/**
 * Every way a DataJud lookup can fail, as a stable string code. The orchestrator decides
 * retry-or-skip from `retryable`; the message always says what a person can do about it.
 */
export type DataJudErrorKind =
  /** 401: the public key was rejected (CNJ rotates it). */
  | "auth"
  /** 403: the key is valid but not allowed here. */
  | "forbidden"
  /** 400: DataJud refused the query itself. */
  | "bad_request"
  /** 404: the index (court alias) does not exist. */
  | "unknown_index"
  /** 429 */
  | "rate_limited"
  /** 5xx other than the ones below */
  | "server"
  /** one attempt exceeded DATAJUD_TIMEOUT_MS */
  | "timeout"
  /** all attempts together exceeded DATAJUD_TOTAL_TIMEOUT_MS */
  | "deadline"
  /** DNS, connection refused, reset... */
  | "network"
  /** HTTP 200 with `_shards.failed > 0`: the answer may be missing hits */
  | "partial_shards"
  /** Elasticsearch rejected the work (thread pool full, circuit breaker) */
  | "rejected"
  /** the body was not JSON or not a search response */
  | "bad_response"
  /** the body passed the size limit: not read, and the same query would send it again */
  | "too_large"
  /** the caller aborted */
  | "cancelled"
  /** our own input was wrong: a CNJ number, a court alias, a date */
  | "invalid_input"
  /** the court exists but DataJud's public API does not serve it (STF) */
  | "unsupported_court";

export interface DataJudErrorOptions extends UpstreamErrorOptions {
  index?: string;
}

const RETRYABLE_BY_DEFAULT: ReadonlySet<DataJudErrorKind> = new Set([
  "rate_limited",
  "server",
  "timeout",
  "network",
  "partial_shards",
  "rejected",
  "bad_response",
]);

export class DataJudError extends UpstreamError<DataJudErrorKind> {
  override readonly name = "DataJudError";
  readonly index: string | undefined;

  constructor(kind: DataJudErrorKind, message: string, options: DataJudErrorOptions = {}) {
    super(kind, message, options, RETRYABLE_BY_DEFAULT);
    this.index = options.index;
  }

  /** A copy that records how many attempts were made before giving up. */
  withAttempts(attempts: number): DataJudError {
    return new DataJudError(this.kind, this.message, {
      ...this.options(),
      attempts,
      ...(this.index === undefined ? {} : { index: this.index }),
    });
  }
}

/** How the client's message begins when no connection was made (refused, DNS, TLS). */
export const UNREACHABLE_PREFIX = "could not reach DataJud";

/**
 * Why DataJud was not reached at all (refused, DNS, TLS), or null when it was (a slow or failing
 * answer is an answer). A deadline passed while the last attempt could not connect counts too.
 * Read from the message, which crosses the MCP boundary intact where the error object does not.
 */
export function unreachableReason(error: unknown): string | null {
  if (!(error instanceof DataJudError)) return null;
  if (error.kind === "network") {
    return error.message.startsWith(UNREACHABLE_PREFIX) ? error.message : null;
  }
  if (error.kind === "deadline") {
    const at = error.message.indexOf(`last error: ${UNREACHABLE_PREFIX}`);
    return at < 0 ? null : error.message.slice(at + "last error: ".length);
  }
  return null;
}

export function isDataJudError(value: unknown): value is DataJudError {
  return value instanceof DataJudError;
}

/** Longest piece of a caller's input quoted back in an error message. */
const QUOTED_MAX = 40;

/**
 * A caller's input, quoted for an error message: whole when short, else its beginning and its
 * length, so a four-megabyte argument does not come back four megabytes long.
 */
export function quoteInput(text: string, max = QUOTED_MAX): string {
  if (text.length <= max) return `"${text}"`;
  return `"${text.slice(0, max)}..." (${text.length.toLocaleString("en")} characters)`;
}

export function invalidInput(message: string): DataJudError {
  return new DataJudError("invalid_input", message, { retryable: false });
}
