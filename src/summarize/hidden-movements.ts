import { formatWallClock } from "../datajud/dates.js";
import type { InstanceRecord, Movement } from "../datajud/instance-record.js";
import { formatBrazilian } from "../time/calendar-date.js";
import { dateInZone, SAO_PAULO_ZONE } from "../time/zoned-time.js";

/*
 * Movements a secrecy level hid are not undone: DataJud's public API stops listing an instance's
 * movements when its nivelSigilo rises, but the conviction it recorded still stands and its period
 * still runs. The case is read with them (its status, its last judgment), and the alert says how
 * many stopped being public and from when. Pure.
 */

export interface HiddenMovement {
  instance: string;
  movement: Movement;
  /** When DataJud stopped listing it (the monitor's clock, ISO). */
  disappearedAt: string;
}

/** The records with each instance's hidden movements put back, in date order, for the reading. */
export function withHiddenMovements(
  records: readonly InstanceRecord[],
  hidden: readonly HiddenMovement[],
): InstanceRecord[] {
  if (hidden.length === 0) return [...records];
  return records.map((r) => {
    const back = hidden.filter((h) => h.instance === r.instance).map((h) => h.movement);
    if (back.length === 0) return r;
    const listed = new Set(r.movements.map((m) => m.id));
    const movements = [...r.movements, ...back.filter((m) => !listed.has(m.id))].sort((a, b) =>
      (a.dateTime ?? "").localeCompare(b.dateTime ?? ""),
    );
    return { ...r, movements, latestMovement: movements.at(-1) ?? null };
  });
}

/** Movements hidden under a secrecy level that now covers their instance (levels above 0). */
export function hiddenBySecrecy(
  records: readonly InstanceRecord[],
  gone: readonly HiddenMovement[],
): HiddenMovement[] {
  const secret = new Set(records.filter((r) => (r.secrecyLevel ?? 0) > 0).map((r) => r.instance));
  return gone.filter((g) => secret.has(g.instance));
}

/**
 * "; 18 movimentações deixaram de ser públicas com o sigilo (registradas de 14/12/2017 a
 * 18/11/2026; ocultas desde 25/11/2026): a leitura do processo as mantém".
 */
export function hiddenText(hidden: readonly HiddenMovement[]): string {
  if (hidden.length === 0) return "";
  const sorted = [...hidden]
    .map((h) => h.movement.dateTime ?? "")
    .filter((d) => d !== "")
    .sort();
  const from = sorted[0] === undefined ? null : formatWallClock(sorted[0]).slice(0, 10);
  const to = sorted.at(-1) === undefined ? null : formatWallClock(sorted.at(-1) ?? "").slice(0, 10);
  const since = [...hidden].map((h) => h.disappearedAt).sort()[0] ?? "";
  const sinceAt = new Date(since);
  const sinceDay = Number.isNaN(sinceAt.getTime())
    ? null
    : formatBrazilian(dateInZone(sinceAt.getTime(), SAO_PAULO_ZONE));
  const what =
    hidden.length === 1
      ? "1 movimentação deixou de ser pública com o sigilo"
      : `${hidden.length} movimentações deixaram de ser públicas com o sigilo`;
  const span =
    from === null ? "" : from === to ? `registrada em ${from}` : `registradas de ${from} a ${to}`;
  const parts = [span, sinceDay === null ? "" : `ocultas desde ${sinceDay}`].filter(
    (p) => p !== "",
  );
  return `; ${what}${parts.length > 0 ? ` (${parts.join("; ")})` : ""}: a leitura do processo as mantém`;
}
