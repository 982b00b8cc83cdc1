import type { Movement } from "../datajud/instance-record.js";
import type { CaseSummary } from "../summarize/case-summary.js";
import { endOfLocalDate } from "../time/zoned-time.js";
import { type CaseAlertPolicy, foldText, type MovementRule } from "./alert-rules.js";

/*
 * The alert policy: whether a detected change is worth an e-mail, given the case's ignore and
 * urgent rules and whether it is muted. Pure; the caller records every change either way.
 */

type RuleTarget = Pick<Movement, "code" | "name">;

export function matchesRule(movement: RuleTarget, rule: MovementRule): boolean {
  if (rule.kind === "code") return movement.code === rule.code;
  // An empty name would match every movement: as an ignore rule it would silence the case.
  return rule.folded !== "" && foldText(movement.name).includes(rule.folded);
}

export function matchesAny(movement: RuleTarget, rules: readonly MovementRule[]): boolean {
  return rules.some((rule) => matchesRule(movement, rule));
}

export type Disposition = "alert" | "ignored" | "muted";

export interface AlertDecision {
  disposition: Disposition;
  /** New movements matching an urgent rule. */
  urgent: Movement[];
  /** New movements matching an ignore rule and no urgent rule. */
  ignored: Movement[];
  /** The new movements worth showing: all but the ignored ones, in input order. */
  shown: Movement[];
  /** Corrected movements (their form now) matching an urgent rule. */
  urgentCorrections: Movement[];
  /** Corrected movements worth showing: those no ignore rule silences (urgent wins), in order. */
  shownCorrections: Movement[];
}

/** `muted: true`, or `now` is on or before the local day `mutedUntil` in `timezone`. */
export function isMuted(policy: CaseAlertPolicy, now: Date, timezone: string): boolean {
  if (policy.muted) return true;
  if (policy.mutedUntil === null) return false;
  return now.getTime() < endOfLocalDate(policy.mutedUntil, timezone).getTime();
}

/** How a case is muted now: false, true (until the line goes), or the last muted day. */
export function muteState(policy: CaseAlertPolicy, now: Date, timezone: string): boolean | string {
  if (!isMuted(policy, now, timezone)) return false;
  return policy.muted ? true : (policy.mutedUntil ?? true);
}

export interface AlertInput {
  /** e.g. ["new_movements"], ["new_movements", "class_changed"], ["baseline"] */
  changeKinds: readonly string[];
  /** The change's new movements. */
  movements: readonly Movement[];
  /** The change's corrected movements, as they read now: the same rules apply to them. */
  corrected?: readonly Movement[];
  policy: CaseAlertPolicy;
  now: Date;
  timezone: string;
}

export function decideAlert(input: AlertInput): AlertDecision {
  const { policy } = input;
  const urgent: Movement[] = [];
  const ignored: Movement[] = [];
  const shown: Movement[] = [];
  for (const movement of input.movements) {
    if (matchesAny(movement, policy.urgent)) {
      urgent.push(movement);
      shown.push(movement);
    } else if (matchesAny(movement, policy.ignore)) {
      ignored.push(movement);
    } else {
      shown.push(movement);
    }
  }
  const corrected = input.corrected ?? [];
  const urgentCorrections = corrected.filter((m) => matchesAny(m, policy.urgent));
  const shownCorrections = corrected.filter(
    (m) => matchesAny(m, policy.urgent) || !matchesAny(m, policy.ignore),
  );
  const quiet = shown.length === 0 && shownCorrections.length === 0;
  return {
    disposition: disposition(input, quiet),
    urgent,
    ignored,
    shown,
    urgentCorrections,
    shownCorrections,
  };
}

/** Ignore rules speak about movements only: a new class, instance or first look always alerts. */
const MOVEMENT_KINDS: ReadonlySet<string> = new Set([
  "new_movements",
  "late_movements",
  "corrected_movements",
]);

function disposition(input: AlertInput, onlyIgnored: boolean): Disposition {
  if (isMuted(input.policy, input.now, input.timezone)) return "muted";
  if (input.changeKinds.some((kind) => !MOVEMENT_KINDS.has(kind))) return "alert";
  const any = input.movements.length + (input.corrected?.length ?? 0) > 0;
  return any && onlyIgnored ? "ignored" : "alert";
}

export const URGENT_REASON = "Movimentação marcada como urgente no watchlist";

/**
 * The summary with the urgent movements among its attention reasons: whoever wrote it (model or
 * rules), a movement the lawyer flagged as urgent always asks for their attention.
 */
export function withUrgentAttention(
  summary: CaseSummary,
  urgent: readonly Movement[],
): CaseSummary {
  if (urgent.length === 0) return summary;
  const cited = new Set(
    summary.attentionReasons.flatMap((r) => r.movements.map((m) => m.movementId)),
  );
  const uncited = urgent.filter((m) => !cited.has(m.id));
  const reasons =
    uncited.length === 0
      ? summary.attentionReasons
      : [
          ...summary.attentionReasons,
          {
            reason: URGENT_REASON,
            movements: uncited.map((m) => ({
              movementId: m.id,
              dateTime: m.dateTime,
              code: m.code,
              name: m.name,
            })),
          },
        ];
  return { ...summary, needsLawyerAttention: true, attentionReasons: reasons };
}
