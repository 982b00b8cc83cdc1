import { DataJudError, type DataJudErrorKind } from "../datajud/errors.js";
import { DjenError, type DjenErrorKind } from "../djen/errors.js";
import { MonitorError } from "../errors.js";
import type { ToolErrorPayload } from "./tool-schemas.js";

/**
 * Failures that are not DataJud's: the server is not set up for the tool (`config`), it has no
 * database to read history from (`no_database`), the case has no recorded history
 * (`unknown_case`), or a bug (`internal`).
 */
export type ServerErrorKind = "config" | "no_database" | "unknown_case" | "internal";

export type ToolErrorKind = DataJudErrorKind | ServerErrorKind;

/** A tool failure that is not DataJud's, with the fix in `hint`. */
export class ToolError extends MonitorError<ServerErrorKind> {
  override readonly name = "ToolError";
}

const RETRY_LATER =
  "DataJud did not answer properly; this says nothing about the case. Call again in a few minutes; if it keeps failing, tell the operator (monitor status, monitor doctor).";

/** What a caller can do next, per kind; agents branch on `retryable` and show `hint`. */
const HINTS: Record<ToolErrorKind, string> = {
  auth: "DataJud refused the API key: it is mistyped or CNJ rotated it. The operator must put CNJ's current public key (https://datajud-wiki.cnj.jus.br/api-publica/acesso) in DATAJUD_API_KEY and restart the server. Retrying will not help.",
  forbidden:
    "DataJud refused access to this index; retrying will not help. Check the court alias with list_courts.",
  bad_request:
    "DataJud refused the query itself; change the arguments (dates as YYYY-MM-DD, codes as numbers) rather than retrying.",
  unknown_index: "The court alias has no DataJud index; call list_courts for the valid aliases.",
  rate_limited:
    "DataJud asked us to slow down (at most 120 requests a minute). Wait a minute and call again; rate_status shows what is left.",
  server: RETRY_LATER,
  timeout: RETRY_LATER,
  deadline: RETRY_LATER,
  network: RETRY_LATER,
  partial_shards: RETRY_LATER,
  rejected: RETRY_LATER,
  bad_response: RETRY_LATER,
  too_large:
    "DataJud's answer passed the size limit the operator set (datajud.maxResponseMb) and was not read; retrying the same call will not help. Ask for fewer cases, or tell the operator.",
  cancelled: "The call was cancelled before DataJud answered; call again if it is still needed.",
  invalid_input:
    "Fix the argument the message names (tools/list shows every tool's input schema) and call again.",
  unsupported_court:
    "DataJud's public API does not serve this court (STF); look the case up on the court's own portal.",
  config: "The server is not configured for this tool; the message says what to set.",
  no_database: "The message says how to point the server at the monitor's database.",
  unknown_case:
    "The monitor has no history of this case: list_watched_cases lists the cases it keeps, get_case reads DataJud directly.",
  internal:
    "A fault in the server, not in your arguments or in DataJud; call again once, then report the message to the operator.",
};

export function hintFor(kind: ToolErrorKind): string {
  return HINTS[kind];
}

const DJEN_RETRY_LATER =
  "DJEN did not answer properly; this says nothing about the publications. Call again in a few minutes (DJEN allows about 20 requests a minute).";

/** The same for search_publications: DJEN's failures and what to do about each. */
const DJEN_HINTS: Record<DjenErrorKind, string> = {
  geo_blocked:
    "DJEN answers only addresses in Brazil; retrying will not help. The operator must run the server from Brazil (or set DJEN_BASE_URL to a proxy there).",
  bad_request: "DJEN refused the query; change the arguments rather than retrying.",
  rate_limited:
    "DJEN's rate limit: ours (djen.requestsPerMinute, shared with the monitor's own DJEN checks) or DJEN's HTTP 429. Call again after the seconds the message gives (a minute when it gives none).",
  server: DJEN_RETRY_LATER,
  timeout: DJEN_RETRY_LATER,
  deadline: DJEN_RETRY_LATER,
  network: DJEN_RETRY_LATER,
  bad_response: DJEN_RETRY_LATER,
  too_large:
    "DJEN's answer passed the size limit the operator set (djen.maxResponseMb) and was not read; retrying the same call will not help. Narrow the window or tell the operator.",
  incomplete: DJEN_RETRY_LATER,
  filter_ignored:
    "DJEN answered with communications that do not match the search (it ignored a filter), so none are shown. Call again later; if it persists, report it.",
  too_many: "DJEN counts 10,000 or more: narrow the window or add a court.",
  cancelled: "The call was cancelled before DJEN answered; call again if it is still needed.",
  invalid_input: "Fix the argument the message names and call again.",
};

/** Any error thrown inside a tool as the envelope every failed call carries. */
/** Longest error message a tool returns: every message names its input by a short quote anyway. */
const MESSAGE_MAX = 1000;

/** What a failed tool call returns, its message never longer than MESSAGE_MAX. */
export function errorPayload(error: unknown): ToolErrorPayload {
  const payload = payloadOf(error);
  const { message } = payload.error;
  if (message.length <= MESSAGE_MAX) return payload;
  return { error: { ...payload.error, message: `${message.slice(0, MESSAGE_MAX)}...` } };
}

function payloadOf(error: unknown): ToolErrorPayload {
  const hint =
    error instanceof DjenError
      ? DJEN_HINTS[error.kind]
      : error instanceof DataJudError
        ? hintFor(error.kind)
        : error instanceof ToolError
          ? (error.hint ?? hintFor(error.kind))
          : null;
  if (hint !== null && error instanceof MonitorError) {
    return {
      error: { kind: error.kind, message: error.message, retryable: error.retryable, hint },
    };
  }
  return {
    error: {
      kind: "internal",
      message: error instanceof Error ? error.message : String(error),
      retryable: false,
      hint: hintFor("internal"),
    },
  };
}

/**
 * The SDK answers a bad argument, an unknown tool or a result that fails its own schema with a
 * bare text message; as an envelope, a client reads every failure the same way.
 */
export function sdkErrorPayload(message: string): ToolErrorPayload {
  const caller = /Input validation error|Invalid arguments|Tool \S+ (?:not found|disabled)/u.test(
    message,
  );
  const kind: ToolErrorKind = caller ? "invalid_input" : "internal";
  return { error: { kind, message, retryable: false, hint: hintFor(kind) } };
}
