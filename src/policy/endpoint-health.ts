import { z } from "zod";

/*
 * What the operator is told of a webhook or chat endpoint: once when it is disabled (it answered
 * 410 Gone) and once when alerts to it start being given up (dead), not once per alert. The
 * endpoint is named by channel, configured name and host only: its URL, token and secret are
 * secrets, and `lastError` was cleared of them before it was stored.
 */

const EndpointRef = {
  channel: z.string(),
  name: z.string(),
  /** The host the endpoint's URL points at (hooks.slack.com): never its path or query. */
  host: z.string(),
  lastError: z.string().nullable(),
};

export const EndpointDisabledAlert = z.object({
  type: z.literal("endpoint_disabled"),
  ...EndpointRef,
  /** When it answered 410. */
  since: z.string(),
  /** Its pending alerts given up with it. */
  givenUp: z.number().int().nonnegative(),
});
export type EndpointDisabledAlert = z.infer<typeof EndpointDisabledAlert>;

export const EndpointDeadAlert = z.object({
  type: z.literal("endpoint_dead"),
  ...EndpointRef,
  /** When the first alert was given up since the last delivery. */
  since: z.string(),
  /** Attempts the alert was given up after. */
  attempts: z.number().int().positive(),
});
export type EndpointDeadAlert = z.infer<typeof EndpointDeadAlert>;

/**
 * The daemon started without a variable an endpoint the configuration names needs (its URL,
 * token or secret): its alerts are queued and none is sent until the daemon has it.
 */
export const EndpointUnsendableAlert = z.object({
  type: z.literal("endpoint_unsendable"),
  channel: z.string(),
  name: z.string(),
  /** The variables the daemon lacks (names only). */
  missing: z.array(z.string()),
  /** When the daemon first started without them (kept while it still lacks them). */
  since: z.string(),
  lastError: z.null(),
});
export type EndpointUnsendableAlert = z.infer<typeof EndpointUnsendableAlert>;

export type EndpointAlert = EndpointDisabledAlert | EndpointDeadAlert | EndpointUnsendableAlert;

/** What `datajud-monitor endpoint enable` needs, in every message that says it is off. */
export function enableCommand(name: string): string {
  return `datajud-monitor endpoint enable ${name}`;
}
