import { type CaseAlertPolicy, foldText, type MovementRule } from "./alert-rules.js";
import { isMuted } from "./movement-rules.js";

/*
 * The alert policy for DJEN publications: the watchlist's ignore and urgent rules read a
 * publication's kind (Intimação, Citação, Edital...) and document type (Despacho, Sentença...) as
 * they read a movement's name; a code rule never matches a publication. An intimação or citação
 * is urgent unless a rule says otherwise: it may start a deadline. Pure.
 */

/** What a publication is, as far as the rules read it. */
export interface PublicationFacts {
  kind: string | null;
  documentType: string | null;
}

export type PublicationUrgency =
  /** An `urgent:` rule matched the kind or document type. */
  | "rule"
  /** An intimação or citação: urgent by default. */
  | "starts_deadline"
  | null;

export interface PublicationDecision {
  disposition: "alert" | "ignored" | "muted";
  urgency: PublicationUrgency;
}

const DEADLINE_KINDS = ["intimacao", "citacao"];

/**
 * Kinds (tipoComunicacao) and document types (tipoDocumento) DJEN is known to send (the recorded
 * TJRJ answer in test/fixtures/djen/, the public clients it lists), for telling whether a name rule
 * can match a publication at all.
 */
export const KNOWN_PUBLICATION_NAMES: readonly string[] = [
  "Intimação",
  "Citação",
  "Edital",
  "Pauta de julgamento",
  "Lista de distribuição",
  "Despacho",
  "Decisão",
  "Sentença",
  "Acórdão",
  "Ato ordinatório",
  "Certidão",
  "Apelação",
];

function nameMatches(facts: PublicationFacts, rules: readonly MovementRule[]): boolean {
  const names = [facts.kind, facts.documentType].flatMap((n) => (n === null ? [] : [foldText(n)]));
  return rules.some(
    (rule) =>
      rule.kind === "name" && rule.folded !== "" && names.some((n) => n.includes(rule.folded)),
  );
}

/** An intimação or citação: the communications DJEN carries that start a lawyer's deadline. */
export function startsDeadline(facts: PublicationFacts): boolean {
  const kind = facts.kind === null ? "" : foldText(facts.kind);
  return DEADLINE_KINDS.some((k) => kind.includes(k));
}

/**
 * Muted cases send nothing; an urgent rule, then the default urgency of intimações and citações,
 * win over ignore rules (an `ignore: [despacho]` written for DataJud's movements must not silence
 * the intimação of a despacho); an ignore rule silences the rest (editais, pautas, listas).
 */
export function decidePublication(input: {
  facts: PublicationFacts;
  policy: CaseAlertPolicy;
  now: Date;
  timezone: string;
}): PublicationDecision {
  const { facts, policy } = input;
  const urgency: PublicationUrgency = nameMatches(facts, policy.urgent)
    ? "rule"
    : startsDeadline(facts)
      ? "starts_deadline"
      : null;
  if (isMuted(policy, input.now, input.timezone)) return { disposition: "muted", urgency };
  if (urgency === null && nameMatches(facts, policy.ignore)) {
    return { disposition: "ignored", urgency };
  }
  return { disposition: "alert", urgency };
}
