import { foldText } from "../text.js";
import { criminalClass } from "./criminal-class.js";
import type { Procedure } from "./regimes.js";
import { statedPeriods } from "./stated-period.js";

/*
 * What a communication is, for counting: decided from DJEN's type (tipoComunicacao), document
 * type, medium, text and addressees, and from the case's class and court. Where a fact that moves
 * the count cannot be read (custody in a criminal case, a class not given), the reading that gives
 * the earlier date is taken and the estimate says what would move it.
 */

/** What a communication reaching the monitor says about itself. */
export interface CommunicationFacts {
  /** DJEN's tipoComunicacao (Intimação, Citação, Edital, Pauta de julgamento...); null: not said. */
  kind: string | null;
  /** Sentença, Despacho, Decisão, Acórdão... */
  documentType: string | null;
  /** DJEN's nomeClasse or DataJud's class name. */
  className: string | null;
  /** The class's code in CNJ's table (TPU), when known. */
  classCode: number | null;
  /** DJEN's meio: D (diário), E (edital). */
  medium: string | null;
  /** The text, plain. */
  text: string;
  /** Whom it is addressed to (DJEN's destinatários). */
  recipients: ReadonlyArray<{ name: string; side: string | null }>;
  /** How many lawyers it is addressed to (DJEN's destinatarioadvogados). */
  lawyerCount: number;
  /** 20 digits; its J digit names the branch of the Judiciary. */
  caseNumber: string | null;
  /** DJEN's court acronym (TJSP, TRF3, TRT2, TRE-SP...) or DataJud's alias (tjsp). */
  court: string;
}

/**
 * - intimacao: an intimação through DJEN: counts from its publication (Lei 11.419/2006 art. 4).
 * - edital: counts after the dilação the judge set (CPC arts. 231 IV, 257 III).
 * - pauta: a session of judgment; its date and time matter, it opens no period.
 * - no-deadline: lista de distribuição, certidão, ata: nothing to count.
 * - personal: addressed only to the Fazenda Pública, the MP or the Defensoria, whose intimação is
 *   personal, through the Domicílio Judicial Eletrônico (CPC arts. 180, 183 §1, 186 §1; Res. CNJ
 *   455/2022 art. 18 as amended by Res. 569/2024): DJEN does not start their period.
 * - citacao: a citação counts from how it was made (CPC art. 231), not from DJEN.
 */
export type CommunicationKind =
  | "intimacao"
  | "edital"
  | "pauta"
  | "no-deadline"
  | "personal"
  | "citacao";

export type PublicEntity = "fazenda" | "mp" | "defensoria";

export interface CommunicationReading {
  kind: CommunicationKind;
  procedure: Procedure;
  /** A Juizado Especial: its own periods, no doubled periods for public entities. */
  juizado: boolean;
  /** The public entities among the addressees. */
  publicParties: PublicEntity[];
  /** Criminal only: a defendant in custody, as the text says; unknown when it says nothing. */
  custody: "yes" | "no" | "unknown";
  /** Criminal only: under the Lei Maria da Penha (CPP art. 798-A II). */
  mariaDaPenha: boolean;
  /** The class was not given: the procedure was taken from the court alone. */
  classUnknown: boolean;
  /**
   * Why an item DJEN sent as an intimação opens no period, when that is the reason its kind is
   * no-deadline: a certidão that asks nothing, a despacho that only orders the citação.
   */
  noPeriodBecause: NoPeriodReason | null;
}

/**
 * - certidao: a certidão sent as the document of an "Intimação": it certifies a fact and asks the
 *   party nothing (an ato ordinatório that does ask, CPC art. 203 §4, keeps its period).
 * - citation-order: a despacho that only says "Cite-se": irrecorrível (CPC art. 1.001), and it asks
 *   nothing of the lawyer intimated, so CPC art. 218 §3 gives no period; the defendant's period
 *   runs from the citação itself (CPC art. 231).
 */
export type NoPeriodReason = "certidao" | "citation-order";

const CIVIL_NAME = /\bcivel\b|\bcivil\b|trabalhist|fiscal|familia|alimentos/u;

/** The branch of the Judiciary from the CNJ number's J digit (Res. CNJ 65/2008). */
export function segmentOf(caseNumber: string | null): string | null {
  return caseNumber !== null && /^\d{20}$/u.test(caseNumber) ? (caseNumber[13] ?? null) : null;
}

/** The specialised branch of a court (alias or acronym) or of the number's J; null: the common one. */
export function courtKind(
  court: string,
  segment: string | null,
): "labour" | "electoral" | "military" | null {
  const c = court.toUpperCase().replace(/[^A-Z0-9]/gu, "");
  if (segment === "5" || /^TRT\d+$/u.test(c) || c === "TST") return "labour";
  if (segment === "6" || c.startsWith("TRE") || c === "TSE") return "electoral";
  if (segment === "7" || segment === "9" || c === "STM" || /^TJM/u.test(c)) return "military";
  return null;
}

function isCriminalClass(facts: CommunicationFacts): boolean | null {
  return criminalClass(facts.classCode, facts.className);
}

const FAZENDA =
  /^(?:a\s+)?(?:uniao\b|uniao federal|estado d[aeo]\b|estado do |municipio d[aeo]\b|prefeitura|distrito federal\b|fazenda (?:publica|nacional|do estado|estadual|municipal)|instituto nacional do seguro social|inss\b|procuradoria[- ]geral (?:do estado|do municipio|da fazenda|federal)|advocacia[- ]geral da uniao|agencia nacional|departamento (?:nacional|estadual|municipal)|detran|universidade federal|instituto federal|banco central do brasil|fundacao nacional|instituto nacional|instituto brasileiro do meio ambiente|ibama\b|incra\b|funai\b|dnit\b|autarquia)/u;
const MINISTERIO_PUBLICO =
  /^(?:o\s+)?(?:ministerio publico|mpf\b|mpe\b|mpt\b|mpdft\b|promotoria|procuradoria da republica|procuradoria regional (?:da republica|do trabalho|eleitoral)|procuradoria[- ]geral de justica|procuradoria[- ]geral (?:da republica|do trabalho|eleitoral))/u;
const DEFENSORIA = /^(?:a\s+)?(?:defensoria publica|dpu\b|dpe\b|defensor publico)/u;

export function publicEntityOf(name: string): PublicEntity | null {
  const folded = foldText(name);
  if (MINISTERIO_PUBLICO.test(folded)) return "mp";
  if (DEFENSORIA.test(folded)) return "defensoria";
  if (FAZENDA.test(folded)) return "fazenda";
  return null;
}

/** A certidão's text that asks the party something or names a period keeps the intimação's reading. */
const ASKS_SOMETHING =
  /\bintim\w*\b[^.]{0,80}\bpara\b|\b(?:manifest|recolh|comprov|apresent|providenci|junt|especifiqu|indiqu|regulariz)(?:e|em|ar|a|am|er)(?:-se)?\b|\bno prazo\b|\bprazo de\b/u;

/** A certidão that certifies and asks nothing: no period (the earlier reading keeps any that asks). */
function silentCertidao(doc: string, text: string, rawText: string): boolean {
  if (!/^certidao\b/u.test(doc)) return false;
  return !ASKS_SOMETHING.test(text) && statedPeriods(rawText).length === 0;
}

/** Orders to the clerk, none of which asks the intimated lawyer for anything. */
const CLERK_ORDER =
  /\b(?:cite|citem|intime|intimem|cumpra|publique|registre|expeca|expecam|aguarde|certifique|anote|remeta|remetam)-se\b[^.;]*[.;]?|\bint\.|\bcumpra-se\b/gu;

/**
 * A despacho (or an act named by nothing) whose decision is only "Cite-se": what follows its
 * "Vistos" or "Despacho" heading, without the lawyers' line ("ADV: ..."), holds no words once the
 * orders to the clerk are taken out, and its citação sentence asks nothing of the plaintiff.
 */
function onlyOrdersCitation(doc: string, text: string, rawText: string): boolean {
  if (doc !== "" && !/^despacho\b/u.test(doc)) return false;
  if (!/\bcite[m]?-se\b/u.test(text) || statedPeriods(rawText).length > 0) return false;
  const heading = /.*\b(?:vistos|despacho)\b[\s.:,-]*/su;
  const decision = text.replace(heading, "").replace(/\s-?\s*adv(?:s|ogados?)?:.*$/su, "");
  const citation = /\bcite[m]?-se\b[^.;]*/u.exec(decision)?.[0] ?? "";
  if (/\b(?:autor|autora|requerente|exequente|embargante|impetrante)\b/u.test(citation))
    return false;
  const rest = decision
    .replace(CLERK_ORDER, " ")
    .replace(/[^\p{L}]+/gu, " ")
    .trim();
  return rest === "";
}

function kindOf(facts: CommunicationFacts, folded: { kind: string; doc: string; text: string }) {
  const { kind, doc, text } = folded;
  if (/pauta/u.test(kind)) return "pauta" as const;
  if (/lista de distribuicao|distribuicao|certidao|\bata\b|resultado de julgamento/u.test(kind)) {
    return "no-deadline" as const;
  }
  if (/edital/u.test(kind) || facts.medium?.toUpperCase() === "E" || /^edital/u.test(doc)) {
    return "edital" as const;
  }
  if (/^\s*edital\b/u.test(text.slice(0, 200)) && !/intima/u.test(kind)) return "edital" as const;
  if (/citacao/u.test(kind)) return "citacao" as const;
  if (/pauta de julgamento|inclusao em pauta/u.test(doc)) return "pauta" as const;
  return null;
}

/** Why an item DJEN sends as an intimação opens no period, or null. */
function noPeriodReason(
  facts: CommunicationFacts,
  folded: { kind: string; doc: string; text: string },
): NoPeriodReason | null {
  if (folded.kind !== "" && !/intima/u.test(folded.kind)) return null;
  if (silentCertidao(folded.doc, folded.text, facts.text)) return "certidao";
  if (onlyOrdersCitation(folded.doc, folded.text, facts.text)) return "citation-order";
  return null;
}

function custodyOf(text: string): CommunicationReading["custody"] {
  if (
    /\b(?:reu|re|acusad[oa]|sentenciad[oa]|apenad[oa]|paciente|investigad[oa]|custodiad[oa])s?\s+(?:esta\s+|encontra-se\s+)?(?:pres[oa]s?|recolhid[oa])\b|\breu preso\b|\bpreso preventivamente\b/u.test(
      text,
    )
  ) {
    return "yes";
  }
  if (/\b(?:reu|re|acusad[oa])s?\s+(?:solt[oa]s?|em liberdade)\b/u.test(text)) return "no";
  return "unknown";
}

export function readCommunication(facts: CommunicationFacts): CommunicationReading {
  const folded = {
    kind: foldText(facts.kind ?? ""),
    doc: foldText(facts.documentType ?? ""),
    text: foldText(facts.text),
  };
  const className = foldText(facts.className ?? "");
  const branch = courtKind(facts.court, segmentOf(facts.caseNumber));
  const criminalClass = isCriminalClass(facts);
  let procedure: Procedure;
  if (branch === "labour") procedure = "labour";
  else if (branch === "electoral") procedure = criminalClass === true ? "criminal" : "electoral";
  else if (criminalClass === true) procedure = "criminal";
  // Military courts judge crimes above all; without a civil class, count as criminal (earlier).
  else if (branch === "military" && !CIVIL_NAME.test(className)) procedure = "criminal";
  else procedure = "civil";

  const publicParties = [...new Set(facts.recipients.flatMap((r) => publicEntityOf(r.name) ?? []))];
  const allPublic =
    facts.recipients.length > 0 && facts.recipients.every((r) => publicEntityOf(r.name) !== null);
  const named = kindOf(facts, folded);
  const noPeriodBecause = named === null ? noPeriodReason(facts, folded) : null;
  const kind =
    named ??
    (noPeriodBecause !== null
      ? "no-deadline"
      : allPublic && facts.lawyerCount === 0
        ? "personal"
        : "intimacao");
  return {
    kind,
    procedure,
    juizado: /juizado especial|juizados especiais/u.test(className),
    publicParties,
    custody: procedure === "criminal" ? custodyOf(folded.text) : "unknown",
    mariaDaPenha:
      procedure === "criminal" &&
      /maria da penha|11\.340|medidas? protetivas? de urgencia|violencia domestica/u.test(
        `${className} ${folded.text}`,
      ),
    classUnknown: criminalClass === null && branch === null,
    noPeriodBecause,
  };
}
