import { TPU_ENTRIES } from "./tpu-hints.js";

/** A TPU movement as DataJud names it: its code and the name it sends in `movimentos[].nome`. */
export interface KnownMovement {
  code: number;
  name: string;
}

/**
 * Movements the real DataJud records of test/fixtures/real-datajud/hits.json carry (code and name as
 * sent) that the hint table does not explain yet. Listed so that a rule naming them is known to
 * match something; their alerts still classify them by name.
 */
const SEEN_IN_REAL_RECORDS: readonly KnownMovement[] = [
  { code: 980, name: "Remessa" },
  { code: 11385, name: "Execução/Cumprimento de Sentença Iniciada (o)" },
  { code: 12066, name: "Cumprimento de Levantamento da Suspensão" },
  { code: 12116, name: "Para julgamento de mérito" },
  { code: 12200, name: "Mérito" },
  { code: 12255, name: "Redistribuição por prevenção" },
  { code: 12455, name: "Indeferimento" },
  {
    code: 14978,
    name: "Suspensão/Sobrestamento Determinada por Decisão do Presidente do STJ - SIRDR",
  },
  { code: 15085, name: "Emenda à Inicial" },
  { code: 15162, name: "Acolhimento de Embargos de Declaração" },
];

/**
 * Every movement this monitor knows DataJud sends: the hint table's and those seen in real
 * records. Not the whole TPU (about a thousand codes): a rule that matches none of these may still
 * match a rarer movement, so it is a warning, never an error.
 */
export const KNOWN_MOVEMENTS: readonly KnownMovement[] = [
  ...TPU_ENTRIES.map(({ code, name }) => ({ code, name })),
  ...SEEN_IN_REAL_RECORDS,
];
