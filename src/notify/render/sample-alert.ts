import { normalizeInstanceRecord } from "../../datajud/normalize.js";
import { rulesSummary } from "../../summarize/rules-summary.js";
import { type AlertContent, buildAlertContent } from "./alert-content.js";

/**
 * What `monitor test-email` sends: a recorded TJDFT record (public metadata only, as DataJud's
 * `_search` returns it) read twice, the second time with a sentence, and summarized by the rules
 * engine. It goes through the same normalization, summary and renderer as a real alert, so the
 * test shows what a real one looks like.
 */

const COURT = "tjdft";
const INDEX = "api_publica_tjdft";
const NUMBER = "0713383-43.2025.8.07.0006";
const LABEL = "Exemplo: Silva x Souza (despejo) · e-mail de teste";

const RECORDED_SOURCE = {
  numeroProcesso: "07133834320258070006",
  classe: { codigo: 92, nome: "Despejo por Falta de Pagamento" },
  sistema: { codigo: 1, nome: "Pje" },
  formato: { codigo: 1, nome: "Eletrônico" },
  tribunal: "TJDFT",
  grau: "G1",
  dataAjuizamento: "20250314101500",
  nivelSigilo: 0,
  orgaoJulgador: {
    codigoMunicipioIBGE: 5300108,
    codigo: 7028,
    nome: "2ª VARA CÍVEL DE SOBRADINHO",
  },
  assuntos: [{ codigo: 9608, nome: "Despejo para Uso Próprio" }],
} as const;

const EARLIER_MOVEMENTS = [
  {
    codigo: 26,
    nome: "Distribuição",
    dataHora: "2025-03-14T10:15:00.000Z",
    complementosTabelados: [
      { codigo: 2, valor: 1, nome: "sorteio", descricao: "tipo_de_distribuicao_redistribuicao" },
    ],
  },
  {
    codigo: 60,
    nome: "Expedição de documento",
    dataHora: "2025-03-19T09:30:00.000Z",
    complementosTabelados: [
      { codigo: 4, valor: 80, nome: "Carta", descricao: "tipo_de_documento" },
    ],
  },
  {
    codigo: 85,
    nome: "Petição",
    dataHora: "2025-06-02T18:22:10.000Z",
    complementosTabelados: [
      { codigo: 19, valor: 57, nome: "Contestação", descricao: "tipo_de_peticao" },
    ],
  },
];

const NEW_MOVEMENTS = [
  {
    codigo: 51,
    nome: "Conclusão",
    dataHora: "2025-09-22T16:40:00.000Z",
    complementosTabelados: [
      { codigo: 3, valor: 6, nome: "para sentença", descricao: "tipo_de_conclusao" },
    ],
  },
  { codigo: 219, nome: "Procedência", dataHora: "2025-10-02T13:30:00.000Z" },
];

function hit(
  movements: readonly unknown[],
  lastUpdatedAt: string,
): { _id: string; _source: unknown } {
  return {
    _id: "TJDFT_436_G1_7028_07133834320258070006",
    _source: {
      ...RECORDED_SOURCE,
      dataHoraUltimaAtualizacao: lastUpdatedAt,
      movimentos: movements,
    },
  };
}

/** The sample alert, as if `now` had found the change; a test label makes it obvious in an inbox. */
export function sampleAlertContent(now: Date): AlertContent {
  const before = normalizeInstanceRecord(hit(EARLIER_MOVEMENTS, "2025-06-02T19:01:00.000Z"), COURT);
  const after = normalizeInstanceRecord(
    hit([...EARLIER_MOVEMENTS, ...NEW_MOVEMENTS], "2025-10-02T14:11:20.512Z"),
    COURT,
  );
  const known = new Set(before.movements.map((m) => m.id));
  const fresh = after.movements.filter((m) => !known.has(m.id));
  const previous = rulesSummary({
    cnjNumber: NUMBER,
    court: COURT,
    records: [before],
    newMovements: before.movements.slice(-1),
    now: new Date("2025-06-03T09:00:00.000Z"),
  });
  const current = rulesSummary({
    cnjNumber: NUMBER,
    court: COURT,
    records: [after],
    newMovements: fresh,
    now,
  });
  return buildAlertContent({
    caseNumber: NUMBER,
    court: COURT,
    label: LABEL,
    previous,
    current,
    records: [after],
    newMovements: fresh.map((movement) => ({ instance: after.instance, movement })),
    provenance: {
      index: INDEX,
      url: `https://api-publica.datajud.cnj.jus.br/${INDEX}/_search`,
      fetchedAt: now.toISOString(),
    },
    changeKinds: ["new_movements"],
  });
}
