import { z } from "zod";
import type { PostOutcome } from "./http-endpoint.js";

/*
 * What one POST's outcome means for the outbox row (pure). A 2xx is delivered, whatever the body
 * says. 410 Gone is the receiver saying the endpoint is no more (Slack answers it for an archived
 * channel): the endpoint is disabled and nothing more is sent to it. 408, 425, 429, 5xx, timeouts
 * and network failures pass: retried with back-off (not before Retry-After when the answer gave
 * one). Every other answer (other 4xx, a redirect) and a refused address need a person to change
 * something: retried only a few times, then dead, so a broken endpoint does not hold mail-like
 * retries for days.
 */

export type Verdict =
  | { kind: "delivered"; response: string }
  | { kind: "retry"; error: string; retryAfterSeconds: number | null }
  | { kind: "rejected"; error: string }
  | { kind: "gone"; error: string };

/** Attempts a `rejected` row gets before it is dead (fewer when the outbox allows fewer). */
export const REJECTED_ATTEMPTS = 3;

const PASSING = new Set([408, 425, 429]);

function answerText(status: number, body: string): string {
  return body === "" ? `HTTP ${status}` : `HTTP ${status}: ${body}`;
}

/*
 * The Graph API (WhatsApp) says what went wrong in `error.code`, read leniently. 190 is an
 * invalid or expired access token (HTTP 401): nothing will pass until a person gives a new token,
 * so the endpoint is disabled as a 410 disables one, and re-enabled the same way. Its throttles
 * (4 and 80007 app and account rate limits, 130429 throughput, 131048 spam rate limit, 131056 a
 * pair's rate limit) may come as a 400: they pass, and are retried with back-off. A 403
 * (permissions, 10 or 200) needs a person: rejected like any other 4xx.
 */
const GraphError = z.looseObject({
  error: z.looseObject({ code: z.number().int().optional() }),
});

const GRAPH_TOKEN_INVALID = 190;
const GRAPH_THROTTLED = new Set([4, 80007, 130429, 131048, 131056]);

function graphCode(body: string): number | null {
  try {
    const parsed = GraphError.safeParse(JSON.parse(body));
    return parsed.success ? (parsed.data.error.code ?? null) : null;
  } catch {
    return null;
  }
}

function whatsAppVerdict(status: number, body: string): Verdict | null {
  const code = graphCode(body);
  if (status === 401 || code === GRAPH_TOKEN_INVALID) {
    return {
      kind: "gone",
      error: `${answerText(status, body)} (the WhatsApp access token is invalid or expired: give the endpoint a new token)`,
    };
  }
  if (code !== null && GRAPH_THROTTLED.has(code) && status < 500) {
    return { kind: "retry", error: answerText(status, body), retryAfterSeconds: null };
  }
  return null;
}

/** What an outcome means; `channel` reads a platform's own error codes (WhatsApp's Graph API). */
export function verdictOf(outcome: PostOutcome, channel?: string): Verdict {
  if (outcome.kind === "failed") {
    return outcome.failure === "blocked" || outcome.failure === "url" || outcome.failure === "tls"
      ? { kind: "rejected", error: outcome.message }
      : { kind: "retry", error: outcome.message, retryAfterSeconds: null };
  }
  const { status, body } = outcome;
  if (status >= 200 && status < 300)
    return { kind: "delivered", response: answerText(status, body) };
  if (channel === "whatsapp") {
    const read = whatsAppVerdict(status, body);
    if (read !== null) return read;
  }
  if (status === 410) {
    return { kind: "gone", error: `${answerText(status, body)} (the endpoint says it is gone)` };
  }
  if (status >= 500 || PASSING.has(status)) {
    return {
      kind: "retry",
      error: answerText(status, body),
      retryAfterSeconds: outcome.retryAfterSeconds,
    };
  }
  if (status >= 300 && status < 400) {
    return {
      kind: "rejected",
      error: `${answerText(status, body)} (a redirect; redirects are not followed: configure the final URL)`,
    };
  }
  return { kind: "rejected", error: answerText(status, body) };
}

/** Whether a failed attempt (the `attempt`-th, from 1) makes the row dead. */
export function isLastAttempt(verdict: Verdict, attempt: number, maxAttempts: number): boolean {
  if (verdict.kind === "gone") return true;
  if (verdict.kind === "rejected") return attempt >= Math.min(REJECTED_ATTEMPTS, maxAttempts);
  return attempt >= maxAttempts;
}
