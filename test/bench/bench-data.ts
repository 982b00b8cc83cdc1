/** The bench's synthetic watchlist and DataJud documents, shared by every bench process. */
import { computeCheckDigits, formatCnjNumber } from "../../src/datajud/cnj-number.js";
import { NO_ALERT_POLICY } from "../../src/policy/alert-rules.js";
import type { WatchedCase } from "../../src/watchlist/parse-watchlist.js";
import type { FakeDocument } from "../fakes/fake-datajud.js";

export const COURTS = [
  { alias: "tjsp", segment: "8", tribunal: "26" },
  { alias: "tjrj", segment: "8", tribunal: "19" },
  { alias: "tjmg", segment: "8", tribunal: "13" },
  { alias: "trf1", segment: "4", tribunal: "01" },
  { alias: "trt2", segment: "5", tribunal: "02" },
] as const;

/** Movements every synthetic case starts with. */
export const INITIAL_MOVEMENTS = 25;

export type Court = (typeof COURTS)[number];

export function courtOf(i: number): Court {
  return COURTS[i % COURTS.length] ?? COURTS[0];
}

export function caseNumber(i: number): { digits: string; formatted: string; court: Court } {
  const court = courtOf(i);
  const sequence = String(1_000_000 + i).padStart(7, "0");
  const year = "2024";
  const origin = "0001";
  const check = computeCheckDigits(sequence, year, court.segment, court.tribunal, origin);
  const digits = `${sequence}${check}${year}${court.segment}${court.tribunal}${origin}`;
  return { digits, formatted: formatCnjNumber(digits), court };
}

export function watchlistOf(cases: number): WatchedCase[] {
  return Array.from({ length: cases }, (_, i) => {
    const { digits, formatted, court } = caseNumber(i);
    return {
      number: formatted,
      digits,
      court: court.alias,
      label: null,
      notify: [],
      channels: [],
      policy: NO_ALERT_POLICY,
      line: i + 1,
    };
  });
}

function movement(m: number): Record<string, unknown> {
  const base = Date.UTC(2024, 0, 1, 12);
  return {
    codigo: m % 2 === 0 ? 51 : 85,
    nome: m % 2 === 0 ? "Conclusão" : "Petição",
    // One movement per day from 2024-01-01: distinct dates give distinct movement ids.
    dataHora: new Date(base + m * 86_400_000).toISOString(),
    complementosTabelados: [
      { codigo: 3, valor: 5, nome: "para despacho", descricao: "tipo_de_conclusao" },
    ],
  };
}

/**
 * Case `i` as DataJud holds it after `extra` movements beyond the initial ones; each extra
 * movement also moves `dataHoraUltimaAtualizacao`, as DataJud does when it touches a record.
 */
export function documentFor(i: number, extra = 0): FakeDocument {
  const { digits, court } = caseNumber(i);
  const id = `${court.alias}_G1_${digits}`;
  const updated = new Date(Date.UTC(2025, 0, 1) + extra * 3_600_000).toISOString();
  return {
    _id: id,
    _source: {
      numeroProcesso: digits,
      grau: "G1",
      id,
      tribunal: court.alias.toUpperCase(),
      classe: { codigo: 7, nome: "Procedimento Comum Cível" },
      assuntos: [{ codigo: 7691, nome: "Cobrança" }],
      orgaoJulgador: { codigo: 100 + (i % 50), nome: "Vara Cível", codigoMunicipioIBGE: 3550308 },
      nivelSigilo: 0,
      dataAjuizamento: "20240101000000",
      dataHoraUltimaAtualizacao: updated,
      "@timestamp": updated,
      movimentos: Array.from({ length: INITIAL_MOVEMENTS + extra }, (_, m) => movement(m)),
    },
  } satisfies FakeDocument;
}

/** The cases a `share` of changes touches: every (1/share)-th one, at least one. */
export function changedIndices(cases: number, share: number): number[] {
  if (share <= 0) return [];
  const step = Math.max(1, Math.round(1 / share));
  const out: number[] = [];
  for (let i = 0; i < cases; i += step) out.push(i);
  return out;
}

/** mulberry32: a seeded generator, so two bench runs simulate the same latencies and history. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Case `i` as a hostile DataJud could send it: `movements` movements, the first one with a name
 * of `nameBytes` characters (the figures: 100,000 movements, a 10 MB name).
 */
export function hostileDocumentFor(i: number, movements: number, nameBytes: number): FakeDocument {
  const doc = documentFor(i);
  const list = Array.from({ length: movements }, (_, m) => movement(m));
  const first = list[0];
  if (first !== undefined)
    first.nome = "Petição ".repeat(Math.ceil(nameBytes / 8)).slice(0, nameBytes);
  return { ...doc, _source: { ...doc._source, movimentos: list } } satisfies FakeDocument;
}
