import { UpstreamError, type UpstreamErrorOptions } from "../pacing/upstream-error.js";

/**
 * Every way a DJEN lookup can fail, as a stable string code. As with DataJud, a failure is never
 * "no publication": the caller reports it and tries again later.
 */
export type DjenErrorKind =
  /** 403: DJEN (behind CloudFront) answers only addresses in Brazil. */
  | "geo_blocked"
  /** 400, 404, 422 and other 4xx: DJEN refused the query itself (or the base URL is wrong). */
  | "bad_request"
  /** 429 */
  | "rate_limited"
  /** 5xx */
  | "server"
  /** one attempt exceeded djen.timeoutMs */
  | "timeout"
  /** all attempts together exceeded djen.totalTimeoutMs */
  | "deadline"
  /** DNS, connection refused, reset... */
  | "network"
  /** the body was not JSON, not the answer's shape, or said it failed */
  | "bad_response"
  /** the body passed djen.maxResponseMb and was not read (asking again would get the same) */
  | "too_large"
  /** an empty page before `count` items were read: DJEN lost part of the answer */
  | "incomplete"
  /** an item that does not match what was asked: DJEN ignored a filter, so nothing of it is used */
  | "filter_ignored"
  /** `count` reached DJEN's cap of 10,000: the real total is unknown */
  | "too_many"
  /** the caller aborted */
  | "cancelled"
  /** our own input was wrong: a case number, an OAB registration, a date */
  | "invalid_input";

export type DjenErrorOptions = UpstreamErrorOptions;

const RETRYABLE_BY_DEFAULT: ReadonlySet<DjenErrorKind> = new Set([
  "rate_limited",
  "server",
  "timeout",
  "deadline",
  "network",
  "bad_response",
  "incomplete",
  "filter_ignored",
]);

/** Not retried inside one query: they would fail the same way at once; the next sweep tries again. */
const RETRIED_LATER_ONLY: ReadonlySet<DjenErrorKind> = new Set(["filter_ignored", "deadline"]);

export class DjenError extends UpstreamError<DjenErrorKind> {
  override readonly name = "DjenError";

  constructor(kind: DjenErrorKind, message: string, options: DjenErrorOptions = {}) {
    super(kind, message, options, RETRYABLE_BY_DEFAULT);
  }

  /** Whether the same request may be sent again within this query. */
  get retryNow(): boolean {
    return this.retryable && !RETRIED_LATER_ONLY.has(this.kind);
  }

  /** A copy that records how many attempts were made before giving up. */
  withAttempts(attempts: number): DjenError {
    return new DjenError(this.kind, this.message, { ...this.options(), attempts });
  }
}

/** How the client's message begins when no connection was made (refused, DNS, TLS). */
export const DJEN_UNREACHABLE_PREFIX = "could not reach DJEN";
/** How the client's message begins when an attempt got no answer in time. */
const DJEN_NO_ANSWER_PREFIX = "DJEN did not answer within";
/** What read_publications puts before a registration's error: which variant failed. */
const VARIANT_PREFIX = /^OAB \S+ asked as "[^"]*": /u;

/**
 * Why DJEN could not be reached at all, or null when it answered (a 5xx or a 429 is an answer).
 * Given the error a source ended with, after its retries: no connection (refused, DNS, TLS), or
 * its last attempt unanswered in time, as the final error or the last one before the deadline.
 * Read from kind and message, which cross the MCP boundary intact where the error object does not.
 */
export function djenUnreachableReason(error: { kind: string; message: string }): string | null {
  const message = error.message.replace(VARIANT_PREFIX, "");
  const unreachable = (text: string): boolean =>
    text.startsWith(DJEN_UNREACHABLE_PREFIX) || text.startsWith(DJEN_NO_ANSWER_PREFIX);
  if (error.kind === "network") {
    return message.startsWith(DJEN_UNREACHABLE_PREFIX) ? message : null;
  }
  if (error.kind === "timeout") return message.startsWith(DJEN_NO_ANSWER_PREFIX) ? message : null;
  if (error.kind === "deadline") {
    const at = message.indexOf("last error: ");
    const last = at < 0 ? "" : message.slice(at + "last error: ".length);
    return unreachable(last) ? last : null;
  }
  return null;
}

/** What a source not asked because DJEN could not be reached is told (its failed check). */
export function notAskedMessage(reason: string): string {
  return `not asked: DJEN could not be reached (${reason})`;
}

export function djenInvalidInput(message: string): DjenError {
  return new DjenError("invalid_input", message, { retryable: false });
}

export const GEO_BLOCKED_MESSAGE =
  "DJEN refused the request (HTTP 403): DJEN's API answers only addresses in Brazil. Run the monitor from a server in Brazil (or through a proxy there, with DJEN_BASE_URL), or switch DJEN off with djen.enabled: false";
