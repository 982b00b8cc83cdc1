import { type Logger, loggableUrl, withLoggableUrls } from "../log.js";
import type { SweepResult } from "./run-report.js";

/*
 * A dead man's switch (Healthchecks.io style): after every finished sweep the monitor requests
 * `monitor.heartbeatUrl`, with `/fail` appended when the sweep failed. The service at the other
 * end alerts when the pings stop: a daemon that died, hangs or lost its network cannot say so in
 * its own mail. A ping that fails is logged and forgotten; it never fails a sweep.
 */

export interface HeartbeatDeps {
  /** `monitor.heartbeatUrl`; null: no heartbeat configured. */
  url: string | null;
  fetch: typeof fetch;
  logger: Logger;
  /** @default HEARTBEAT_TIMEOUT_MS */
  timeoutMs?: number;
  /**
   * The signal that ends a ping after `ms` of wall time (network time, as DataJud's attempts
   * have; not the clock sweeps skip waits on). @default AbortSignal.timeout
   */
  timeout?: (ms: number) => AbortSignal;
}

export const HEARTBEAT_TIMEOUT_MS = 10_000;

/** The URL to request: the configured one, or its `/fail` sibling (query string kept). */
export function heartbeatTarget(url: string, failed: boolean): string {
  if (!failed) return url;
  const parsed = new URL(url);
  parsed.pathname = `${parsed.pathname.replace(/\/+$/u, "")}/fail`;
  return parsed.toString();
}

/**
 * What the heartbeat says of a sweep: nothing for a dry run or a sweep stopped before its end
 * (SIGTERM, a lost lease: another process carries on, or the daemon is going away), `/fail` when
 * it failed (no case answered, DataJud unreachable, or the sweep itself threw), a plain ping for
 * the rest (a few failed checks are retried next sweep and shown in `monitor status`).
 */
export function heartbeatSignal(result: SweepResult, dryRun: boolean): "ok" | "fail" | null {
  if (dryRun || result === "interrupted") return null;
  return result === "failed" || result === "error" ? "fail" : "ok";
}

/**
 * The request of a ping. fetch refuses a URL with a user and password in it, so they go as HTTP
 * Basic credentials, as curl sends them (a self-hosted ping service behind a proxy asks for them).
 */
export function pingRequest(target: string): { url: string; authorization: string | null } {
  const parsed = new URL(target);
  if (parsed.username === "" && parsed.password === "") {
    return { url: target, authorization: null };
  }
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = "";
  parsed.password = "";
  return {
    url: parsed.toString(),
    authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`,
  };
}

/** Why a ping failed, with any URL the error quotes cut to its host (its path is the secret). */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return withLoggableUrls(String(error));
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return withLoggableUrls(`${error.message}${cause}`);
}

/**
 * Pings; resolves true when the service answered 2xx. Never throws, and gives up after
 * `timeoutMs`, so a heartbeat service that hangs never holds a sweep.
 */
export async function pingHeartbeat(deps: HeartbeatDeps, failed: boolean): Promise<boolean> {
  if (deps.url === null) return false;
  // Where a ping went, for logs: the host only, since the path of a ping URL is its secret.
  const host = loggableUrl(deps.url);
  const timeoutMs = deps.timeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  const signal = (deps.timeout ?? AbortSignal.timeout)(timeoutMs);
  try {
    const request = pingRequest(heartbeatTarget(deps.url, failed));
    const response = await deps.fetch(request.url, {
      method: "GET",
      headers: {
        "user-agent": "datajud-monitor",
        ...(request.authorization === null ? {} : { authorization: request.authorization }),
      },
      signal,
    });
    await response.body?.cancel().catch(() => undefined);
    if (response.ok) {
      deps.logger.debug({ host, failed }, "heartbeat sent");
      return true;
    }
    deps.logger.warn(
      { host, status: response.status },
      "heartbeat ping refused; check monitor.heartbeatUrl",
    );
  } catch (error) {
    const reason = signal.aborted ? `no answer within ${timeoutMs} ms` : reasonOf(error);
    deps.logger.warn({ host, reason }, "heartbeat ping failed; the sweep itself is unaffected");
  }
  return false;
}
