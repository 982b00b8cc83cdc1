import { stripAccents } from "../text.js";
import type { MovementHint } from "./instance-record.js";

/**
 * Plain-language meanings of common movement codes of CNJ's Tabela Processual Unificada (TPU),
 * and a coarse kind for the rules engine and alert filters. The table covers codes that show up
 * in DataJud records, not the whole TPU; unknown codes fall back to patterns over the name.
 */

export type MovementKind =
  | "filing"
  | "distribution"
  | "citation"
  | "intimation"
  | "hearing"
  | "decision"
  | "sentence"
  /** acórdão: a panel's judgment, usually on appeal */
  | "judgment"
  | "appeal"
  /** trânsito em julgado */
  | "final_judgment"
  | "execution"
  | "suspension"
  | "archiving"
  | "unarchiving"
  | "conclusion"
  | "routine"
  | "deadline"
  | "remittance"
  | "other";

export interface TpuEntry {
  code: number;
  /** The TPU name, as DataJud returns it in `movimentos[].nome`. */
  name: string;
  pt: string;
  en: string;
  kind: MovementKind;
}

export const TPU_ENTRIES: readonly TpuEntry[] = [
  // Magistrate: rulings and orders
  {
    code: 3,
    name: "Decisão",
    kind: "decision",
    pt: "Decisão do juiz no curso do processo; pode ser recorrida.",
    en: "A judge's ruling during the case; it can be appealed.",
  },
  {
    code: 11009,
    name: "Despacho",
    kind: "routine",
    pt: "Despacho: ordem do juiz que dá andamento ao processo sem decidir uma questão.",
    en: "A judge's order that moves the case along without deciding an issue.",
  },
  {
    code: 11010,
    name: "Mero expediente",
    kind: "routine",
    pt: "Despacho de mero expediente: ordem de rotina do juiz.",
    en: "A routine procedural order from the judge.",
  },
  {
    code: 12164,
    name: "Outras Decisões",
    kind: "decision",
    pt: "Decisão do juiz de tipo não especificado pela tabela.",
    en: "A judge's ruling of a type the table does not single out.",
  },
  {
    code: 12387,
    name: "Decisão de Saneamento e Organização",
    kind: "decision",
    pt: "Saneamento: o juiz organiza o processo, fixa os pontos em disputa e as provas a produzir.",
    en: "Case management ruling: the judge fixes the disputed points and the evidence to be taken.",
  },
  {
    code: 871,
    name: "Acolhimento em parte de Embargos de Declaração",
    kind: "decision",
    pt: "Embargos de declaração acolhidos em parte: a decisão foi esclarecida ou corrigida em parte.",
    en: "Motion for clarification partly granted: the ruling was clarified or corrected in part.",
  },
  // Magistrate: judgments
  {
    code: 193,
    name: "Julgamento",
    kind: "sentence",
    pt: "Julgamento do processo ou do recurso.",
    en: "The case or the appeal was decided.",
  },
  {
    code: 219,
    name: "Procedência",
    kind: "sentence",
    pt: "Sentença: pedido julgado procedente; o autor ganhou.",
    en: "Judgment: the claim was granted; the plaintiff won.",
  },
  {
    code: 220,
    name: "Improcedência",
    kind: "sentence",
    pt: "Sentença: pedido julgado improcedente; o autor perdeu.",
    en: "Judgment: the claim was rejected on the merits; the plaintiff lost.",
  },
  {
    code: 221,
    name: "Procedência em Parte",
    kind: "sentence",
    pt: "Sentença: pedido julgado procedente em parte.",
    en: "Judgment: the claim was partly granted.",
  },
  {
    code: 466,
    name: "Homologação de Transação",
    kind: "sentence",
    pt: "Sentença que homologa o acordo feito entre as partes.",
    en: "Judgment approving the settlement the parties reached.",
  },
  {
    code: 196,
    name: "Extinção da execução ou do cumprimento da sentença",
    kind: "sentence",
    pt: "Sentença que encerra a execução ou o cumprimento de sentença.",
    en: "Judgment closing the enforcement proceedings.",
  },
  {
    code: 237,
    name: "Provimento",
    kind: "judgment",
    pt: "Recurso provido: o tribunal deu razão a quem recorreu.",
    en: "Appeal allowed: the court sided with the appellant.",
  },
  {
    code: 238,
    name: "Provimento em Parte",
    kind: "judgment",
    pt: "Recurso provido em parte.",
    en: "Appeal partly allowed.",
  },
  {
    code: 239,
    name: "Não-Provimento",
    kind: "judgment",
    pt: "Recurso não provido: a decisão recorrida foi mantida.",
    en: "Appeal dismissed: the decision under appeal stands.",
  },
  {
    code: 235,
    name: "Não Conhecimento de recurso",
    kind: "judgment",
    pt: "Recurso não conhecido: faltou um requisito e o tribunal não examinou o mérito.",
    en: "Appeal not heard: a formal requirement was missing, so the merits were not examined.",
  },
  {
    code: 848,
    name: "Trânsito em julgado",
    kind: "final_judgment",
    pt: "Trânsito em julgado: a decisão ficou definitiva e não cabe mais recurso.",
    en: "Final: the decision can no longer be appealed.",
  },
  // Clerk's office: the case's path through the court
  {
    code: 26,
    name: "Distribuição",
    kind: "distribution",
    pt: "Processo distribuído a uma vara, juízo ou relator.",
    en: "The case was assigned to a court or reporting judge.",
  },
  {
    code: 36,
    name: "Redistribuição",
    kind: "distribution",
    pt: "Processo redistribuído a outro juízo ou relator.",
    en: "The case was reassigned to another court or judge.",
  },
  {
    code: 51,
    name: "Conclusão",
    kind: "conclusion",
    pt: "Autos conclusos: o processo foi ao juiz para despacho, decisão ou sentença.",
    en: "Sent to the judge for an order, ruling or judgment.",
  },
  {
    code: 12215,
    name: "Processo devolvido à Secretaria",
    kind: "routine",
    pt: "O processo voltou do gabinete do juiz para a secretaria.",
    en: "The case went back from the judge's chambers to the clerk's office.",
  },
  {
    code: 60,
    name: "Expedição de documento",
    kind: "routine",
    pt: "A secretaria expediu um documento (certidão, ofício, mandado, carta...).",
    en: "The clerk's office issued a document (certificate, letter, writ...).",
  },
  {
    code: 11383,
    name: "Ato ordinatório",
    kind: "routine",
    pt: "Ato ordinatório: providência de rotina tomada pela secretaria, sem o juiz.",
    en: "A routine step taken by the clerk's office without the judge.",
  },
  {
    code: 85,
    name: "Petição",
    kind: "routine",
    pt: "Uma petição de parte foi juntada aos autos.",
    en: "A party's filing was added to the record.",
  },
  {
    code: 118,
    name: "Protocolo de Petição",
    kind: "routine",
    pt: "Uma petição foi protocolada.",
    en: "A filing was lodged with the court.",
  },
  {
    code: 581,
    name: "Documento",
    kind: "routine",
    pt: "Um documento foi juntado aos autos.",
    en: "A document was added to the record.",
  },
  {
    code: 106,
    name: "Mandado",
    kind: "routine",
    pt: "Mandado devolvido pelo oficial de justiça e juntado aos autos.",
    en: "A writ came back from the court officer and was added to the record.",
  },
  {
    code: 493,
    name: "Entrega em carga/vista",
    kind: "routine",
    pt: "Autos entregues em carga ou vista (a advogado, Ministério Público, perito...).",
    en: "The record was handed over for review (to a lawyer, the prosecutor, an expert...).",
  },
  {
    code: 14732,
    name: "Conversão de Autos Físicos em Eletrônicos",
    kind: "routine",
    pt: "O processo em papel foi convertido em processo eletrônico.",
    en: "The paper record was converted into an electronic one.",
  },
  {
    code: 10966,
    name: "Mudança de Classe Processual",
    kind: "other",
    pt: "A classe do processo mudou (por exemplo, para cumprimento de sentença).",
    en: "The case's procedural class changed (for example, to enforcement).",
  },
  // Notices and deadlines
  {
    code: 92,
    name: "Publicação",
    kind: "intimation",
    pt: "Ato publicado no Diário da Justiça; para os advogados costuma valer como intimação e abrir prazo.",
    en: "Published in the court gazette; for the lawyers this usually counts as notice and starts a deadline.",
  },
  {
    code: 1061,
    name: "Disponibilização no Diário da Justiça Eletrônico",
    kind: "intimation",
    pt: "Ato disponibilizado no Diário da Justiça Eletrônico; considera-se publicado no dia útil seguinte.",
    en: "Made available in the electronic court gazette; it counts as published on the next business day.",
  },
  {
    code: 12265,
    name: "Expedida/certificada",
    kind: "intimation",
    pt: "Intimação eletrônica expedida para uma das partes.",
    en: "An electronic notice was sent to a party.",
  },
  {
    code: 12266,
    name: "Confirmada",
    kind: "intimation",
    pt: "Intimação eletrônica confirmada: a parte tomou ciência, o que pode abrir prazo.",
    en: "Electronic notice confirmed as received, which can start a deadline.",
  },
  {
    code: 1051,
    name: "Decurso de Prazo",
    kind: "deadline",
    pt: "Um prazo terminou.",
    en: "A deadline ran out.",
  },
  // Hearings and sessions
  {
    code: 970,
    name: "Audiência",
    kind: "hearing",
    pt: "Audiência (designada, realizada, cancelada...; o complemento diz qual).",
    en: "Hearing (scheduled, held, cancelled...; the complement says which).",
  },
  {
    code: 12104,
    name: "Inclusão em pauta",
    kind: "hearing",
    pt: "Processo incluído na pauta de uma sessão de julgamento.",
    en: "The case was put on a judgment session's agenda.",
  },
  {
    code: 12105,
    name: "Inclusão em Pauta de Sessão Virtual",
    kind: "hearing",
    pt: "Processo incluído na pauta de uma sessão virtual de julgamento.",
    en: "The case was put on a virtual judgment session's agenda.",
  },
  {
    code: 12203,
    name: "Adiado",
    kind: "hearing",
    pt: "Julgamento adiado para outra sessão.",
    en: "The judgment was postponed to another session.",
  },
  // Moving between units and instances
  {
    code: 123,
    name: "Remessa",
    kind: "remittance",
    pt: "Autos remetidos a outro setor, órgão ou instância.",
    en: "The record was sent to another unit, court or instance.",
  },
  {
    code: 982,
    name: "Remessa",
    kind: "remittance",
    pt: "Autos remetidos a outro setor, órgão ou instância.",
    en: "The record was sent to another unit, court or instance.",
  },
  {
    code: 132,
    name: "Recebimento",
    kind: "remittance",
    pt: "Autos recebidos de outro setor, órgão ou instância.",
    en: "The record was received from another unit, court or instance.",
  },
  {
    code: 981,
    name: "Recebimento",
    kind: "remittance",
    pt: "Autos recebidos de outro setor, órgão ou instância.",
    en: "The record was received from another unit, court or instance.",
  },
  {
    code: 12315,
    name: "Devolvidos os autos",
    kind: "remittance",
    pt: "Os autos foram devolvidos por quem estava com eles.",
    en: "The record was returned by whoever had it.",
  },
  {
    code: 22,
    name: "Baixa Definitiva",
    kind: "remittance",
    pt: "Baixa definitiva: o processo saiu desta instância (voltou à origem ou terminou aqui).",
    en: "Closed in this court: the case left this instance (back to the lower court, or finished here).",
  },
  // Enforcement
  {
    code: 11382,
    name: "Bloqueio/penhora on line",
    kind: "execution",
    pt: "Bloqueio ou penhora eletrônica de dinheiro em conta (Sisbajud).",
    en: "Funds in a bank account were frozen or attached electronically (Sisbajud).",
  },
  // Stays
  {
    code: 25,
    name: "Suspensão ou Sobrestamento",
    kind: "suspension",
    pt: "Processo suspenso ou sobrestado.",
    en: "The proceedings were stayed.",
  },
  {
    code: 898,
    name: "Por decisão judicial",
    kind: "suspension",
    pt: "Processo suspenso por decisão do juiz.",
    en: "The proceedings were stayed by court order.",
  },
  {
    code: 263,
    name: "Réu revel citado por edital",
    kind: "suspension",
    pt: "Processo suspenso porque o réu, citado por edital, não apareceu nem constituiu advogado.",
    en: "Stayed because the defendant, served by public notice, neither appeared nor hired counsel.",
  },
  {
    code: 12065,
    name: "Cumprimento de Suspensão ou Sobrestamento",
    kind: "suspension",
    pt: "A secretaria registrou a suspensão determinada.",
    en: "The clerk's office recorded the ordered stay.",
  },
  // Archive
  {
    code: 861,
    name: "Arquivamento",
    kind: "archiving",
    pt: "Processo arquivado.",
    en: "The case was archived.",
  },
  {
    code: 246,
    name: "Definitivo",
    kind: "archiving",
    pt: "Arquivamento definitivo: o processo terminou e foi para o arquivo.",
    en: "Archived for good: the case is over.",
  },
  {
    code: 245,
    name: "Provisório",
    kind: "archiving",
    pt: "Arquivamento provisório: o processo está parado no arquivo e pode voltar a andar.",
    en: "Archived provisionally: the case is parked and can resume.",
  },
  {
    code: 893,
    name: "Desarquivamento",
    kind: "unarchiving",
    pt: "Processo desarquivado; voltou a tramitar.",
    en: "The case came back from the archive and is active again.",
  },
  {
    code: 849,
    name: "Reativação",
    kind: "unarchiving",
    pt: "Processo reativado.",
    en: "The case was reactivated.",
  },
];

const ENTRY_BY_CODE: ReadonlyMap<number, TpuEntry> = new Map(TPU_ENTRIES.map((e) => [e.code, e]));

export function movementHint(code: number | null): MovementHint | null {
  if (code === null) return null;
  const entry = ENTRY_BY_CODE.get(code);
  return entry ? { pt: entry.pt, en: entry.en } : null;
}

/**
 * First match wins, so the order settles overlaps: "conclusos para sentença" is a conclusion,
 * "extinção da execução" a sentence, "recurso provido" a judgment, "decorrido prazo de recurso"
 * a deadline. Patterns run over the name lower-cased and without accents.
 */
const NAME_PATTERNS: readonly (readonly [RegExp, MovementKind])[] = [
  [/transitad\w* em julgado|transito em julgado/, "final_judgment"],
  [/desarquiv|reativ/, "unarchiving"],
  [/arquiv/, "archiving"],
  [/suspens|sobrest/, "suspension"],
  [/conclus/, "conclusion"],
  [/audiencia|sessao de julgamento|\bpauta\b/, "hearing"],
  [/\bextin/, "sentence"],
  [/cumprimento de sentenc|\bexecuc|penhora|bloqueio|sisbajud|bacenjud/, "execution"],
  [/acordao|\bprovimento\b|\bprovid[oa]s?\b|conhecimento d\w* recurso|nao conhecid/, "judgment"],
  [/\bsentenc|procedencia|homologa|julgamento|\bjulgad/, "sentence"],
  [/\bdecis|\bdecid|liminar|tutela|\bdefer|\bindefer/, "decision"],
  [/\bcita|\bcite/, "citation"],
  [/\bintima|\bpublica|disponibiliza|diario da justica|\bnotifica|\bcomunica/, "intimation"],
  [/decurso|decorrid/, "deadline"],
  [/\brecurso|\brecorr|apelac|agravo|embargos/, "appeal"],
  [/\bprazo/, "deadline"],
  [/distribu/, "distribution"],
  [/peticao inicial|\bajuiza|\bautua/, "filing"],
  [/remessa|remetid|recebiment|recebid|devolvid|devoluc|\bbaixa/, "remittance"],
  [
    /juntad|expedi|despacho|expediente|ordinatorio|certid|peticao|documento|mandado|oficio|\bcarga\b|\bvista\b|conversao/,
    "routine",
  ],
];

function fold(text: string): string {
  return stripAccents(text).toLowerCase();
}

/** The code decides when the table knows it; otherwise the name does; otherwise "other". */
export function movementKind(code: number | null, name?: string): MovementKind {
  const entry = code === null ? undefined : ENTRY_BY_CODE.get(code);
  if (entry) return entry.kind;
  if (name === undefined) return "other";
  const folded = fold(name);
  for (const [pattern, kind] of NAME_PATTERNS) {
    if (pattern.test(folded)) return kind;
  }
  return "other";
}
