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

export function verdictOf(outcome: PostOutcome): Verdict {
  if (outcome.kind === "failed") {
    return outcome.failure === "blocked" || outcome.failure === "url" || outcome.failure === "tls"
      ? { kind: "rejected", error: outcome.message }
      : { kind: "retry", error: outcome.message, retryAfterSeconds: null };
  }
  const { status, body } = outcome;
  if (status >= 200 && status < 300)
    return { kind: "delivered", response: answerText(status, body) };
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
