import { countText } from "../datajud/glossary.js";
import { type DjenCheck, djenCheckOf } from "../policy/case-status.js";
import type { PlanSettings } from "../policy/djen-plan.js";
import { formatTaxId } from "../radar/tax-id.js";
import type { Db } from "../store/database.js";
import type { DjenSourceRow } from "../store/djen-sources.js";
import { countPartyHits } from "../store/party-hits.js";
import { terminalText } from "../text.js";
import type { WatchedParty } from "../watchlist/parse-watchlist.js";

/*
 * The party radar in `monitor status` (and `status --json`): per watched party, how its names
 * fared on DJEN (the least recent check, any failing) and what the radar has found for it.
 */

export interface PartyStatus {
  key: string;
  name: string;
  /** "CNPJ 11.222.333/0001-81"; null when the watchlist gives none. */
  document: string | null;
  /** Its names and aliases, each asked of DJEN. */
  names: number;
  /** The least recently checked of its names; null when one was never asked. */
  djen: DjenCheck | null;
  /** Of its names, how many failed their last check. */
  failingNames: number;
  /** New lawsuits told (or recorded at the first look), one per case. */
  newCases: number;
  confirmado: number;
  provavel: number;
  homonimo: number;
  /** Later items of those cases (not new lawsuits). */
  laterItems: number;
}

export function partyStatuses(
  db: Db,
  parties: readonly WatchedParty[],
  sources: ReadonlyMap<string, DjenSourceRow>,
  plan: PlanSettings | null,
): PartyStatus[] {
  const counts = countPartyHits(db);
  return parties.map((party) => {
    const rows = party.queries.map((q) => sources.get(`party:${q}`));
    const asked = rows.filter((r): r is DjenSourceRow => r !== undefined);
    const oldest =
      asked.length < rows.length
        ? null
        : ([...asked].sort((a, b) =>
            (a.lastCheckedAt ?? "").localeCompare(b.lastCheckedAt ?? ""),
          )[0] ?? null);
    const status: PartyStatus = {
      key: party.key,
      name: party.name,
      document:
        party.document === null
          ? null
          : `${party.document.kind.toUpperCase()} ${formatTaxId(party.document)}`,
      names: party.queries.length,
      djen: oldest === null ? null : djenCheckOf(oldest, plan),
      failingNames: asked.filter((r) => r.lastOutcome === "failed").length,
      newCases: 0,
      confirmado: 0,
      provavel: 0,
      homonimo: 0,
      laterItems: 0,
    };
    for (const row of counts.filter((c) => c.partyKey === party.key)) {
      if (row.disposition === "alert" || row.disposition === "baseline") {
        status.newCases += row.n;
        status[row.confidence] += row.n;
      } else if (row.disposition === "later" || row.disposition === "publication") {
        status.laterItems += row.n;
      }
    }
    return status;
  });
}

/** One line per party for `monitor status`; `when` formats an instant in the schedule's zone. */
export function partyLine(p: PartyStatus, when: (iso: string | null) => string): string {
  const who = `${terminalText(p.name)}${p.document === null ? "" : ` (${p.document})`}`;
  const checked =
    p.djen === null
      ? "not every name asked yet"
      : `DJEN last checked ${when(p.djen.lastCheckedAt)}`;
  const failing =
    p.failingNames > 0 ? `, ${countText(p.failingNames, "name", "names")} failing` : "";
  const found =
    p.newCases === 0
      ? "no new lawsuit found"
      : `${countText(p.newCases, "new lawsuit", "new lawsuits")} (${p.confirmado} confirmado, ${p.provavel} provável, ${p.homonimo} possível homônimo)`;
  const later = p.laterItems > 0 ? `, ${countText(p.laterItems, "later item", "later items")}` : "";
  return `party ${who}: ${countText(p.names, "name", "names")} asked, ${checked}${failing}; ${found}${later}`;
}
