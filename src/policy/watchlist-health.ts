import { z } from "zod";
import type { NewHealthIncident } from "../store/health-incidents.js";
import type { OpenIncident } from "./health.js";

/**
 * The watchlist incident: open while the daemon runs on the last good copy of the watchlist
 * because the file is invalid (at its start, or after an edit), over once a valid file is
 * accepted. One e-mail each way, to `mail.admin` and the endpoints that take operator alerts,
 * like the other health incidents (policy/health.ts). Pure: the outbox writes the decision.
 */

/** At most this many of the file's errors travel in the alert; `validate` lists them all. */
export const ERRORS_TOLD = 20;

export const WatchlistInvalidAlert = z.object({
  type: z.literal("watchlist_invalid"),
  /** When the file was first refused: identifies the incident. */
  since: z.string(),
  file: z.string(),
  /** `file:line:col message`, at most ERRORS_TOLD of them. */
  errors: z.array(z.string()),
  /** How many errors the file has in all. */
  errorCount: z.number().int().positive(),
  /** When the copy the daemon runs on was accepted, and how many cases it lists. */
  goodCopyAcceptedAt: z.string(),
  goodCopyCases: z.number().int().nonnegative(),
  /** Refused at the daemon's start (a restart would otherwise have stopped it), not on a reload. */
  atStart: z.boolean(),
});
export type WatchlistInvalidAlert = z.infer<typeof WatchlistInvalidAlert>;

export const WatchlistRecoveredAlert = z.object({
  type: z.literal("watchlist_recovered"),
  since: z.string(),
  recoveredAt: z.string(),
  file: z.string(),
});
export type WatchlistRecoveredAlert = z.infer<typeof WatchlistRecoveredAlert>;

export type WatchlistAlert = WatchlistInvalidAlert | WatchlistRecoveredAlert;

export interface WatchlistDecision {
  open: NewHealthIncident | null;
  close: number | null;
  findings: Array<{ recipient: string; alert: WatchlistAlert }>;
}

const NOTHING: WatchlistDecision = Object.freeze({ open: null, close: null, findings: [] });

/**
 * The file was refused and the daemon runs on the last good copy: an incident opens with one
 * alert, unless one is open already (a restart with the file still broken, another broken edit)
 * or nobody is to be told (`mail.admin` unset: `status` and `/readyz` still say it).
 */
export function decideWatchlistRefused(input: {
  admin: string;
  nowIso: string;
  open: OpenIncident | undefined;
  refusal: Omit<WatchlistInvalidAlert, "type" | "errors" | "errorCount"> & {
    errors: readonly string[];
  };
}): WatchlistDecision {
  const { admin, open, refusal } = input;
  if (open !== undefined || admin === "") return NOTHING;
  const alert: WatchlistInvalidAlert = {
    ...refusal,
    type: "watchlist_invalid",
    errors: refusal.errors.slice(0, ERRORS_TOLD),
    errorCount: Math.max(1, refusal.errors.length),
  };
  return {
    open: {
      kind: "watchlist_invalid",
      startedAt: refusal.since,
      openedAt: input.nowIso,
      recipient: admin,
      details: { file: refusal.file, errorCount: alert.errorCount, atStart: refusal.atStart },
    },
    close: null,
    findings: [{ recipient: admin, alert }],
  };
}

/** A valid file was accepted: an open incident is over, told to whoever heard of it. */
export function decideWatchlistAccepted(input: {
  admin: string;
  nowIso: string;
  open: OpenIncident | undefined;
  file: string;
}): WatchlistDecision {
  const { open } = input;
  if (open === undefined) return NOTHING;
  return {
    open: null,
    close: open.id,
    findings:
      input.admin === ""
        ? []
        : [
            {
              recipient: open.recipient,
              alert: {
                type: "watchlist_recovered",
                since: open.startedAt,
                recoveredAt: input.nowIso,
                file: input.file,
              },
            },
          ],
  };
}
