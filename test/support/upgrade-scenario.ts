import type { FixtureDoc } from "./fixtures.js";
import { loadRealHits } from "./real-datajud.js";

/**
 * The DataJud answers behind the schema-2 database fixture (test/fixtures/schema-2/README.md):
 * the real hits of test/fixtures/real-datajud, served in three states. The fixture was written by
 * the previous version sweeping states "baseline" and "moved"; the upgrade test serves "moved"
 * again (nothing new: nothing may be reported) and then "later" (exactly one new movement).
 */

export const UPGRADE_WATCHLIST = `defaults:
  notify: [escritorio@example.com]
cases:
  - number: "0800624-26.2020.8.23.0090"
    label: "tjrr: 195 movements, 50 repeats"
  - number: "0012590-61.2015.8.07.0018"
    label: "tjdft: 590 and 72 movements"
  - number: "0003495-35.2017.8.27.2716"
  - number: "0010490-56.2025.8.26.0309"
  - number: "1053565-57.2024.8.26.0053"
  - number: "0000832-35.2018.4.01.3202"
  - number: "0001663-20.2011.8.02.0049"
`;

export type UpgradeState = "baseline" | "moved" | "later";

/** A court's act the old version saw arrive (state "moved"): it has its change and its alert. */
export const MOVED_MOVEMENT = {
  codigo: 85,
  nome: "Petição",
  dataHora: "2024-08-28T10:41:07.000Z",
};

/** The one genuinely new movement after the upgrade (state "later"). */
export const LATER_PUBLICATION = {
  codigo: 92,
  nome: "Publicação",
  dataHora: "2025-11-04T00:15:00.000Z",
  complementosTabelados: [],
};

/**
 * Some courts nest a movement's code and name; the previous version read such a movement with
 * no code and no name. One is added to a real tjsp record so the upgrade meets one.
 */
const NESTED_MOVEMENT = {
  movimentoNacional: { codigoNacional: 132, descricao: "Recebimento" },
  dataHora: "2024-08-26T17:45:07.000Z",
};

function find(hits: Record<string, FixtureDoc[]>, alias: string, digits: string, grau: string) {
  const hit = hits[alias]?.find(
    (h) => h._source.numeroProcesso === digits && h._source.grau === grau,
  );
  if (hit === undefined) throw new Error(`no real hit ${alias}/${digits}/${grau}`);
  return hit;
}

function push(doc: FixtureDoc, movement: object, updatedAt: string): void {
  (doc._source.movimentos as unknown[]).push(movement);
  doc._source.dataHoraUltimaAtualizacao = updatedAt;
}

/** Every index the watchlist's cases live in, as DataJud answers in `state`. */
export function upgradeAnswers(state: UpgradeState): Record<string, FixtureDoc[]> {
  const hits: Record<string, FixtureDoc[]> = structuredClone(loadRealHits());
  push(
    find(hits, "tjsp", "10535655720248260053", "G1"),
    NESTED_MOVEMENT,
    "2024-08-26T20:45:07.608Z",
  );
  if (state !== "baseline") {
    push(
      find(hits, "tjrr", "08006242620208230090", "G1"),
      MOVED_MOVEMENT,
      "2024-08-28T11:00:00.000Z",
    );
  }
  if (state === "later") {
    push(
      find(hits, "tjdft", "00125906120158070018", "G1"),
      LATER_PUBLICATION,
      "2025-11-04T06:00:00.000Z",
    );
  }
  return hits;
}
