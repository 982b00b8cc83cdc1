import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { formatCnjNumber } from "../../src/datajud/cnj-number.js";
import type { FixtureDoc } from "./fixtures.js";

/** The hits recorded from DataJud's live API (test/fixtures/real-datajud/README.md). */
export type RealHits = Record<string, FixtureDoc[]>;

export function loadRealHits(): RealHits {
  const path = fileURLToPath(new URL("../fixtures/real-datajud/hits.json", import.meta.url));
  return JSON.parse(readFileSync(path, "utf8")) as RealHits;
}

/** A deep copy of one real hit, to change in a test without touching the others. */
export function realHit(hits: RealHits, alias: string, digits: string, grau: string): FixtureDoc {
  const hit = hits[alias]?.find(
    (h) => h._source.numeroProcesso === digits && h._source.grau === grau,
  );
  if (hit === undefined) throw new Error(`no real hit ${alias}/${digits}/${grau}`);
  return structuredClone(hit);
}

export const REAL = {
  tjdftLong: "00125906120158070018",
  tjrrRepeats: "08006242620208230090",
  tjtoMojibake: "00034953520178272716",
  tjspCompact: "00104905620258260309",
} as const;

export function formatted(digits: string): string {
  return formatCnjNumber(digits);
}

/** A raw DataJud movement, as a test adds it to a real record. */
export type RawMovement = Record<string, unknown> & { complementosTabelados?: unknown[] };

/** A hearing scheduled on top of the real tjto record: a realistic edit of it. */
export const SCHEDULED_HEARING: RawMovement = {
  codigo: 12740,
  nome: "de Conciliação",
  dataHora: "2026-11-20T14:10:00.000Z",
  complementosTabelados: [
    { codigo: 15, valor: 9, nome: "designada", descricao: "situacao_da_audiencia" },
    { codigo: 16, valor: 17, nome: "conciliação", descricao: "tipo_de_audiencia" },
    { codigo: 36, valor: 188, nome: "Conciliador(a)", descricao: "dirigida_por" },
  ],
};

/** The same hearing as the court records it once cancelled in place (same code and time). */
export function cancelledHearing(hearing: RawMovement): RawMovement {
  const copy = structuredClone(hearing);
  copy.complementosTabelados = [
    { codigo: 15, valor: 11, nome: "cancelada", descricao: "situacao_da_audiencia" },
    ...(hearing.complementosTabelados ?? []).slice(1),
  ];
  return copy;
}

/**
 * Marks records as DataJud marks a record the court updated: each call stamps `docs` with a
 * `dataHoraUltimaAtualizacao` one day later than the call before (the first on `firstDay`), so a
 * sweep's fingerprint sees them change.
 */
export function updateStamper(firstDay = "2026-11-11"): (docs: readonly FixtureDoc[]) => void {
  const first = Date.parse(`${firstDay}T10:00:00.000Z`);
  let calls = 0;
  return (docs) => {
    const at = new Date(first + calls * 86_400_000).toISOString();
    calls += 1;
    for (const doc of docs) doc._source.dataHoraUltimaAtualizacao = at;
  };
}
