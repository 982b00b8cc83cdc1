import type { EndpointState } from "../store/endpoint-state.js";
import type { EndpointOutbox } from "../store/outbox.js";

/*
 * Each webhook and chat endpoint as `monitor status` and `/metrics` show it (pure): its alerts by
 * state and what the monitor remembers of it. Named by channel and configured name only.
 */

export type EndpointCondition = "disabled" | "dead" | "retrying" | "ok";

/** An endpoint's alerts (store/outbox.ts `endpointOutbox`) and what is remembered of it. */
export interface EndpointStatus
  extends Omit<EndpointOutbox, "recipient">,
    Omit<EndpointState, "channel"> {
  /** In the configuration now (false: rows or state are left of one removed or renamed). */
  configured: boolean;
  /** disabled (410 until enabled) > dead (an alert given up since the last delivery) > retrying > ok. */
  condition: EndpointCondition;
}

function key(channel: string, name: string): string {
  return `${channel}\u0000${name}`;
}

export function endpointStatuses(
  configured: ReadonlyArray<{ channel: string; name: string }>,
  outbox: readonly EndpointOutbox[],
  states: readonly EndpointState[],
): EndpointStatus[] {
  const out = new Map<string, EndpointStatus>();
  const entry = (channel: string, name: string): EndpointStatus => {
    const k = key(channel, name);
    let status = out.get(k);
    if (status === undefined) {
      status = {
        channel,
        name,
        configured: false,
        condition: "ok",
        pending: 0,
        retrying: 0,
        nextAttemptAt: null,
        lastError: null,
        sent: 0,
        dead: 0,
        disabledAt: null,
        disabledReason: null,
        deadSince: null,
        daemonMissing: [],
        daemonCheckedAt: null,
      };
      out.set(k, status);
    }
    return status;
  };
  for (const e of configured) entry(e.channel, e.name).configured = true;
  for (const o of outbox) {
    const { channel, recipient, ...counts } = o;
    Object.assign(entry(channel, recipient), counts);
  }
  for (const s of states) {
    Object.assign(entry(s.channel, s.name), {
      disabledAt: s.disabledAt,
      disabledReason: s.disabledReason,
      deadSince: s.deadSince,
      daemonMissing: s.daemonMissing,
      daemonCheckedAt: s.daemonCheckedAt,
    });
  }
  const list = [...out.values()];
  for (const s of list) {
    s.condition =
      s.disabledAt !== null
        ? "disabled"
        : s.deadSince !== null
          ? "dead"
          : s.retrying > 0
            ? "retrying"
            : "ok";
  }
  return list;
}

/** What `/metrics` exports of each endpoint (metrics/metrics.ts StoredCounts.endpoints). */
export function endpointMetrics(statuses: readonly EndpointStatus[]): Array<{
  channel: string;
  name: string;
  alerts: Record<string, number>;
  disabled: boolean;
}> {
  return statuses.map((e) => ({
    channel: e.channel,
    name: e.name,
    alerts: { pending: e.pending, retrying: e.retrying, sent: e.sent, dead: e.dead },
    disabled: e.disabledAt !== null,
  }));
}
