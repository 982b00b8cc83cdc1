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

/** The `urgent:` rule that made a publication urgent, and what of it it matched. */
export interface UrgentRuleMatch {
  /** The rule as the watchlist wrote it. */
  rule: string;
  field: "kind" | "documentType";
  /** DJEN's kind or document type, as DJEN wrote it. */
  value: string;
}

export interface PublicationDecision {
  disposition: "alert" | "ignored" | "muted";
  urgency: PublicationUrgency;
  /** Set when urgency is "rule": which rule, so the alert can name it. */
  urgentRule: UrgentRuleMatch | null;
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

/** The first name rule matching the kind, else the document type; null when none does. */
function firstMatch(
  facts: PublicationFacts,
  rules: readonly MovementRule[],
): UrgentRuleMatch | null {
  for (const rule of rules) {
    if (rule.kind !== "name" || rule.folded === "") continue;
    for (const field of ["kind", "documentType"] as const) {
      const value = facts[field];
      if (value !== null && foldText(value).includes(rule.folded)) {
        return { rule: rule.text, field, value };
      }
    }
  }
  return null;
}

function nameMatches(facts: PublicationFacts, rules: readonly MovementRule[]): boolean {
  return firstMatch(facts, rules) !== null;
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
  const urgentRule = firstMatch(facts, policy.urgent);
  const urgency: PublicationUrgency =
    urgentRule !== null ? "rule" : startsDeadline(facts) ? "starts_deadline" : null;
  if (isMuted(policy, input.now, input.timezone)) {
    return { disposition: "muted", urgency, urgentRule };
  }
  if (urgency === null && nameMatches(facts, policy.ignore)) {
    return { disposition: "ignored", urgency, urgentRule };
  }
  return { disposition: "alert", urgency, urgentRule };
}
