import { stripAccents } from "../text.js";
import type { MovementHint } from "./instance-record.js";

/**
 * Plain-language meanings of common movement codes of CNJ's Tabela Processual Unificada (TPU),
 * and a coarse kind for the rules engine and alert filters. The table covers codes that show up
 * in DataJud records, not the whole TPU; unknown codes fall back to patterns over the name.
 *
 * Wording: each `name` is the TPU's own movement name as DataJud returns it; `pt` restates what
 * that movement records in plain words (CNJ's TPU and its glossary; the CPC where a rule is cited),
 * never legal advice. The table holds at least the 40 codes most frequent in the real records of
 * ../shared/real-datajud/hits.json (1,036 movements, 57 codes), counted with
 *   node -e 'const c=new Map();for(const hs of Object.values(require("./hits.json")))for(const h of hs)
 *     for(const m of h._source.movimentos??[]){const k=m.codigo??m.movimentoNacional?.codigo;
 *     c.set(k,(c.get(k)??0)+1)}console.log([...c].sort((a,b)=>b[1]-a[1]||a[0]-b[0]).slice(0,40))'
 * (ties broken by the lower code): 60, 85, 1051, 132, 11383, 51, 118, 1061, 92, 581, 12164, 123,
 * 493, 985, 12265, 26, 12266, 11010, 12444, 36, 12282, 106, 245, 272, 12099, 22, 135, 970, 12115,
 * 12205, 12614, 12740, 83, 219, 220, 239, 394, 848, 871, 941.
 */

export type MovementKind =
  | "filing"
  | "distribution"
  | "citation"
  | "intimation"
  /** Publicação / disponibilização no Diário: a publication, an intimação only when it says so. */
  | "publication"
  | "hearing"
  /** Inclusão em pauta: a judgment session listing (presencial or virtual), not a hearing. */
  | "session"
  /** Retirado de pauta, adiado: the listed session will not judge it. */
  | "session_change"
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
  /**
   * What a lawyer calls the movement where the TPU's leaf alone says nothing ("Confirmada",
   * "Definitivo", "de Conciliação"): its parent in the TPU's tree with the leaf (CNJ, Tabela
   * Processual Unificada de Movimentos: 245/246 under Arquivamento, 12265/12266 under Intimação
   * eletrônica, 12282 under Comunicação eletrônica, 12740 under Audiência, 85/581 under Juntada,
   * 123/982 and 132/981 the record's Remessa and Recebimento), or the act the leaf records as PJe
   * words it (219/220/221 "Julgado procedente o pedido"). Absent: the name says it.
   */
  title?: string;
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
    title: "Despacho de mero expediente",
    kind: "routine",
    pt: "Despacho de mero expediente: ordem de rotina do juiz.",
    en: "A routine procedural order from the judge.",
  },
  {
    code: 12164,
    name: "Outras Decisões",
    title: "Decisão (outras decisões)",
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
    code: 12444,
    name: "deferimento",
    title: "Decisão: pedido deferido",
    kind: "decision",
    pt: "Decisão que defere (concede) um pedido de uma das partes; o pedido está nos autos.",
    en: "A ruling granting a party's request; the request is in the record.",
  },
  {
    code: 941,
    name: "Incompetência",
    title: "Decisão: incompetência declarada",
    kind: "decision",
    pt: "Decisão que declara a incompetência do juízo: o processo deve seguir para outro juízo ou tribunal.",
    en: "A ruling that this court lacks jurisdiction: the case is to go to another court.",
  },
  {
    code: 394,
    name: "Com efeito suspensivo",
    title: "Recurso recebido com efeito suspensivo",
    kind: "decision",
    pt: "Recurso recebido com efeito suspensivo: a decisão recorrida não produz efeitos até o julgamento do recurso.",
    en: "The appeal was admitted with suspensive effect: the decision under appeal has no effect until the appeal is decided.",
  },
  {
    code: 871,
    name: "Acolhimento em parte de Embargos de Declaração",
    kind: "decision",
    pt: "Embargos de declaração acolhidos em parte: a decisão foi esclarecida ou corrigida em parte.",
    en: "Motion for clarification partly granted: the ruling was clarified or corrected in part.",
  },
  {
    code: 12283,
    name: "Confirmada",
    title: "Comunicação eletrônica confirmada",
    kind: "intimation",
    pt: "Comunicação eletrônica (intimação ou citação) confirmada: o destinatário tomou ciência, o que pode abrir prazo.",
    en: "An electronic notice (of an act or of the claim) was confirmed as received, which can start a deadline.",
  },
  {
    code: 391,
    name: "Recebimento",
    title: "Denúncia recebida",
    kind: "decision",
    pt: "Decisão que recebe a denúncia (ou a queixa): a ação penal começa e o acusado será citado para responder (CPP, art. 396).",
    en: "The court accepted the criminal complaint: the prosecution begins and the accused is summoned to answer (CPP, art. 396).",
  },
  {
    code: 12116,
    name: "Para julgamento de mérito",
    title: "Inclusão em pauta para julgamento de mérito",
    kind: "session",
    pt: "Processo pautado para julgamento do mérito em sessão do colegiado: confira a data da sessão e o prazo para memoriais ou pedido de sustentação oral.",
    en: "Listed for judgment on the merits at a panel session: check the session date and the deadline for briefs or a request to argue orally.",
  },
  {
    code: 11385,
    name: "Execução/Cumprimento de Sentença Iniciada (o)",
    kind: "execution",
    pt: "Começou a fase de cumprimento de sentença (ou a execução): a parte vencedora pede que a decisão seja cumprida.",
    en: "The enforcement phase began: the winning party asks for the judgment to be carried out.",
  },
  {
    code: 12455,
    name: "Indeferimento",
    title: "Decisão: pedido indeferido",
    kind: "decision",
    pt: "Decisão que indefere (nega) um pedido de uma das partes; o pedido está nos autos.",
    en: "A ruling refusing a party's request; the request is in the record.",
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
    title: "Julgado procedente o pedido",
    kind: "sentence",
    pt: "Sentença: pedido julgado procedente; o autor ganhou.",
    en: "Judgment: the claim was granted; the plaintiff won.",
  },
  {
    code: 220,
    name: "Improcedência",
    title: "Julgado improcedente o pedido",
    kind: "sentence",
    pt: "Sentença: pedido julgado improcedente; o autor perdeu.",
    en: "Judgment: the claim was rejected on the merits; the plaintiff lost.",
  },
  {
    code: 221,
    name: "Procedência em Parte",
    title: "Julgado procedente em parte o pedido",
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
    title: "Recurso provido",
    kind: "judgment",
    pt: "Recurso provido: o tribunal deu razão a quem recorreu.",
    en: "Appeal allowed: the court sided with the appellant.",
  },
  {
    code: 238,
    name: "Provimento em Parte",
    title: "Recurso provido em parte",
    kind: "judgment",
    pt: "Recurso provido em parte.",
    en: "Appeal partly allowed.",
  },
  {
    code: 239,
    name: "Não-Provimento",
    title: "Recurso não provido",
    kind: "judgment",
    pt: "Recurso não provido: a decisão recorrida foi mantida.",
    en: "Appeal dismissed: the decision under appeal stands.",
  },
  {
    code: 235,
    name: "Não Conhecimento de recurso",
    title: "Recurso não conhecido",
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
    title: "Juntada de petição",
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
    title: "Juntada de documento",
    kind: "routine",
    pt: "Um documento foi juntado aos autos.",
    en: "A document was added to the record.",
  },
  {
    code: 985,
    name: "Mandado",
    title: "Mandado (andamento)",
    kind: "routine",
    pt: "Andamento de um mandado (ordem cumprida por oficial de justiça: citação, intimação, penhora...); os autos dizem qual.",
    en: "A step of a writ served by a court officer (service, notice, attachment...); the record says which.",
  },
  {
    code: 135,
    name: "Apensamento",
    kind: "routine",
    pt: "Os autos foram apensados a outro processo (ou outro a este), para tramitarem juntos.",
    en: "The record was joined to another case's (or another to this one), to proceed together.",
  },
  {
    code: 106,
    name: "Mandado",
    title: "Mandado devolvido",
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
    kind: "publication",
    pt: "Ato publicado no Diário da Justiça Eletrônico; confira no Diário ou nos autos qual ato foi publicado e se ele abre prazo.",
    en: "An act was published in the electronic court gazette; check which act and whether it starts a deadline.",
  },
  {
    code: 1061,
    name: "Disponibilização no Diário da Justiça Eletrônico",
    kind: "publication",
    pt: "Ato disponibilizado no Diário da Justiça Eletrônico; considera-se publicado no primeiro dia útil seguinte (Lei 11.419/2006, art. 4º, § 3º).",
    en: "Made available in the electronic court gazette; it counts as published on the next business day (Law 11,419/2006, art. 4, § 3).",
  },
  {
    code: 12265,
    name: "Expedida/certificada",
    title: "Intimação eletrônica expedida",
    kind: "intimation",
    pt: "Intimação eletrônica expedida para uma das partes.",
    en: "An electronic notice was sent to a party.",
  },
  {
    code: 12282,
    name: "Expedida/Certificada",
    title: "Comunicação eletrônica expedida",
    kind: "intimation",
    pt: "Comunicação eletrônica (intimação ou citação) expedida pelo sistema; os autos dizem a quem e qual prazo corre.",
    en: "An electronic notice (of an act or of the claim) was sent by the system; the record says to whom and which deadline runs.",
  },
  {
    code: 12266,
    name: "Confirmada",
    title: "Intimação eletrônica confirmada",
    kind: "intimation",
    pt: "Intimação eletrônica confirmada: a parte tomou ciência, o que pode abrir prazo.",
    en: "Electronic notice confirmed as received, which can start a deadline.",
  },
  {
    code: 1051,
    name: "Decurso de Prazo",
    kind: "deadline",
    pt: "Terminou um prazo (de uma parte, do perito, do Ministério Público...); os autos dizem de quem era e se houve manifestação. DataJud lista um decurso por parte.",
    en: "A time limit ran out (a party's, the expert's, the prosecutor's...); the record says whose, and whether they acted. DataJud lists one per party.",
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
    kind: "session",
    pt: "Processo incluído na pauta de uma sessão de julgamento do colegiado (não é audiência): importa a data da sessão e o prazo para memoriais ou pedido de sustentação oral.",
    en: "The case was listed for a panel's judgment session (not a hearing): what matters is the session date and the deadline for written briefs or a request to argue orally.",
  },
  {
    code: 12105,
    name: "Inclusão em Pauta de Sessão Virtual",
    kind: "session",
    pt: "Processo incluído na pauta de uma sessão virtual de julgamento (não é audiência): importa a data da sessão e o prazo, fixado pelo regimento do tribunal, para memoriais, sustentação oral ou pedido de julgamento presencial.",
    en: "The case was listed for a virtual judgment session (not a hearing): what matters is the session date and the deadline, set by the court's rules, for briefs, oral argument or a request for a live session.",
  },
  {
    code: 12115,
    name: "Para julgamento de mérito",
    title: "Inclusão em pauta para julgamento de mérito",
    kind: "session",
    pt: "Processo pautado para julgamento do mérito em sessão do colegiado: confira a data da sessão e o prazo para memoriais ou pedido de sustentação oral.",
    en: "Listed for judgment on the merits at a panel session: check the session date and the deadline for briefs or a request to argue orally.",
  },
  {
    code: 12203,
    name: "Adiado",
    title: "Julgamento adiado",
    kind: "session_change",
    pt: "Julgamento adiado para outra sessão; a nova data sai em nova pauta.",
    en: "The judgment was postponed to another session; the new date comes in a new listing.",
  },
  {
    code: 12205,
    name: "Retirado",
    title: "Processo retirado de pauta",
    kind: "session_change",
    pt: "Processo retirado da pauta: não será julgado na sessão para a qual estava pautado.",
    en: "The case was taken off the session's list: it will not be judged at that session.",
  },
  {
    code: 12740,
    name: "de Conciliação",
    title: "Audiência de conciliação",
    kind: "hearing",
    pt: "Audiência de conciliação (designada, realizada, cancelada...; o complemento diz qual).",
    en: "Conciliation hearing (scheduled, held, cancelled...; the complement says which).",
  },
  // Moving between units and instances
  {
    code: 123,
    name: "Remessa",
    title: "Remessa dos autos",
    kind: "remittance",
    pt: "Autos remetidos a outro setor, órgão ou instância.",
    en: "The record was sent to another unit, court or instance.",
  },
  {
    code: 982,
    name: "Remessa",
    title: "Remessa dos autos",
    kind: "remittance",
    pt: "Autos remetidos a outro setor, órgão ou instância.",
    en: "The record was sent to another unit, court or instance.",
  },
  {
    code: 132,
    name: "Recebimento",
    title: "Recebimento dos autos",
    kind: "remittance",
    pt: "Autos recebidos de outro setor, órgão ou instância.",
    en: "The record was received from another unit, court or instance.",
  },
  {
    code: 981,
    name: "Recebimento",
    title: "Recebimento dos autos",
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
    code: 12614,
    name: "Remessa para o CEJUSC ou Centros de Conciliação/Mediação",
    kind: "remittance",
    pt: "Autos enviados ao CEJUSC (centro judiciário de solução de conflitos) para conciliação ou mediação.",
    en: "The record was sent to the court's conciliation and mediation centre (CEJUSC).",
  },
  {
    code: 83,
    name: "Cancelamento da distribuição",
    kind: "other",
    pt: "A distribuição do processo foi cancelada (por exemplo, distribuído por engano ou em duplicidade).",
    en: "The case's assignment was cancelled (for example, assigned by mistake or twice).",
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
    title: "Suspensão por decisão judicial",
    kind: "suspension",
    pt: "Processo suspenso por decisão do juiz.",
    en: "The proceedings were stayed by court order.",
  },
  {
    code: 263,
    name: "Réu revel citado por edital",
    title: "Suspensão: réu revel citado por edital",
    kind: "suspension",
    pt: "Processo suspenso porque o réu, citado por edital, não apareceu nem constituiu advogado.",
    en: "Stayed because the defendant, served by public notice, neither appeared nor hired counsel.",
  },
  {
    code: 272,
    name: "A depender do julgamento de outra causa, de outro juízo ou declaração incidente",
    title: "Suspensão: a depender do julgamento de outra causa",
    kind: "suspension",
    pt: "Processo suspenso até o julgamento de outra causa ou questão de que depende (CPC, art. 313, V, a).",
    en: "Stayed until another case or issue it depends on is decided (CPC, art. 313, V, a).",
  },
  {
    code: 12099,
    name: "Por decisão do Presidente do STJ - SIRDR",
    title: "Suspensão por decisão do Presidente do STJ (SIRDR)",
    kind: "suspension",
    pt: "Processo suspenso por decisão do Presidente do STJ que suspendeu, em todo o país, os processos de um incidente de resolução de demandas repetitivas (SIRDR).",
    en: "Stayed by the STJ President's nationwide suspension of the cases of a repetitive-claims incident (SIRDR).",
  },
  {
    code: 12065,
    name: "Cumprimento de Suspensão ou Sobrestamento",
    title: "Suspensão cumprida pela secretaria",
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
    title: "Arquivamento definitivo",
    kind: "archiving",
    pt: "Arquivamento definitivo: o processo terminou e foi para o arquivo.",
    en: "Archived for good: the case is over.",
  },
  {
    code: 245,
    name: "Provisório",
    title: "Arquivamento provisório",
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

/** The TPU's entry for a code, when the table holds it. */
export function tpuEntry(code: number | null): TpuEntry | undefined {
  return code === null ? undefined : ENTRY_BY_CODE.get(code);
}

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
  [/retirad\w* de pauta|\badiad/, "session_change"],
  [/\bpauta\b|sessao de julgamento|sessao virtual|para julgamento de merito/, "session"],
  [/audiencia/, "hearing"],
  [/\bextin/, "sentence"],
  [/cumprimento de sentenc|\bexecuc|penhora|bloqueio|sisbajud|bacenjud/, "execution"],
  [/acordao|\bprovimento\b|\bprovid[oa]s?\b|conhecimento d\w* recurso|nao conhecid/, "judgment"],
  [/\bsentenc|procedencia|homologa|julgamento|\bjulgad/, "sentence"],
  [/\bdecis|\bdecid|liminar|tutela|\bdefer|\bindefer/, "decision"],
  [/\bcita|\bcite/, "citation"],
  [/\bintima|\bnotifica|\bcomunica/, "intimation"],
  [/\bpublica|disponibiliza|diario da justica/, "publication"],
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

/** Kinds a complement can make more precise: a document issued, a publication. */
const REFINABLE: ReadonlySet<MovementKind> = new Set(["routine", "publication", "other"]);

/**
 * The code decides when the table knows it; otherwise the name does; otherwise "other". A document
 * issued or a publication whose complements say it is an intimação is one: the movement says so.
 * Nothing else makes a publication an intimação.
 */
export function movementKind(
  code: number | null,
  name?: string,
  complements: readonly string[] = [],
): MovementKind {
  const entry = code === null ? undefined : ENTRY_BY_CODE.get(code);
  const kind = entry?.kind ?? (name === undefined ? "other" : kindOfName(fold(name)));
  if (!REFINABLE.has(kind)) return kind;
  const said = fold(complements.join(" "));
  return /\bintima/.test(said) ? "intimation" : kind;
}

function kindOfName(folded: string): MovementKind {
  for (const [pattern, kind] of NAME_PATTERNS) {
    if (pattern.test(folded)) return kind;
  }
  return "other";
}
