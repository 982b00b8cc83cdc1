import { poloText } from "../datajud/glossary.js";
import { stripAccents } from "../text.js";
import { nameKey, nameTokens, plainName } from "./party-name.js";
import { findTaxIds, formatTaxId, type TaxId } from "./tax-id.js";

/*
 * How sure the radar is that a DJEN item names a watched party, and why, in the words the alert
 * gives (Portuguese). DJEN's `nomeParte` search is loose (tokens, accents ignored), so everything
 * it returns is read again here; what matches nothing is dropped. Pure.
 *
 * - confirmado: the party's CPF/CNPJ is written in the item (its text or a destinatário);
 * - provável: a destinatário's name equals a watched name or alias once accents, case,
 *   punctuation and the legal form (LTDA, S.A., ME...) are set aside;
 * - possível homônimo: the name is only in the text, only part of it matches a destinatário, or
 *   the name matches but another CPF/CNPJ of the same kind is written right after it.
 */

export type MatchConfidence = "confirmado" | "provavel" | "homonimo";

/** Best first: the order a case's hits are ranked in when one is told (report-party-hits.ts). */
export const CONFIDENCE_RANK: Record<MatchConfidence, number> = {
  confirmado: 0,
  provavel: 1,
  homonimo: 2,
};

/** A watched party as the matcher needs it. */
export interface RadarParty {
  /** The name the watchlist gives first. */
  name: string;
  /** The name and every alias. */
  names: readonly string[];
  document: TaxId | null;
}

/** What of a DJEN item the matcher reads. */
export interface RadarItem {
  /** The item's plain text (sanitized). */
  text: string;
  recipients: ReadonlyArray<{ name: string; side: string | null }>;
}

export interface PartyMatch {
  confidence: MatchConfidence;
  /** Why, one sentence in Portuguese ("o CNPJ 11.222.333/0001-81 consta do texto"). */
  reason: string;
  /** The destinatário that matched, as DJEN wrote it; null when none did (text only). */
  recipient: string | null;
  /** Its polo as DJEN sent it (A, P...); null when none. */
  side: string | null;
}

function documentWord(id: TaxId): string {
  return id.kind === "cpf" ? "CPF" : "CNPJ";
}

function recipientText(r: { name: string; side: string | null }): string {
  const polo = poloText(r.side);
  return `"${r.name.trim().slice(0, 120)}"${polo === null ? "" : ` (${polo})`}`;
}

/** Whether `needle`'s tokens appear in `hay`'s in order, each once (not necessarily together). */
function inOrder(needle: readonly string[], hay: readonly string[]): boolean {
  let at = 0;
  for (const token of hay) {
    if (token === needle[at]) at += 1;
    if (at === needle.length) return true;
  }
  return needle.length === 0;
}

/** Where `key`'s words stand as whole words in `plainText` (plainName of the text), or -1. */
function wordIndex(plainText: string, key: string): number {
  if (key === "") return -1;
  const padded = ` ${plainText} `;
  const at = padded.indexOf(` ${key} `);
  return at < 0 ? -1 : at;
}

/** How far after a name a CPF/CNPJ is read as that person's ("FULANO, CPF 123..."). */
const NEAR_CHARS = 160;

/**
 * Another CPF/CNPJ of the party's kind written right after the name in the text: the name
 * belongs to someone else. Null when none is, or when the party has no document to compare.
 */
function otherDocumentNear(
  item: RadarItem,
  party: RadarParty,
  names: readonly string[],
): TaxId | null {
  const own = party.document;
  if (own === null) return null;
  // Positions in one folded copy of the text: folding changes lengths.
  const folded = stripAccents(item.text).toUpperCase();
  const ids = findTaxIds(folded).filter((id) => id.kind === own.kind && id.digits !== own.digits);
  if (ids.length === 0) return null;
  for (const name of names) {
    const first = nameTokens(name)[0];
    if (first === undefined) continue;
    // Its first word is [0-9A-Z]+: safe inside a pattern.
    for (const m of folded.matchAll(new RegExp(`(?<![0-9A-Z])${first}(?![0-9A-Z])`, "gu"))) {
      const near = ids.find((id) => id.index > m.index && id.index - m.index <= NEAR_CHARS);
      if (near !== undefined) return near;
    }
  }
  return null;
}

/** How `item` names `party`, or null when it does not (DJEN's search was loose: dropped). */
export function classifyItem(item: RadarItem, party: RadarParty): PartyMatch | null {
  const keys = [...new Set(party.names.map(nameKey).filter((k) => k !== ""))];
  const exact = item.recipients.find((r) => keys.includes(nameKey(r.name)));
  if (party.document !== null) {
    const own = party.document;
    const word = documentWord(own);
    const inRecipient = item.recipients.find((r) =>
      findTaxIds(r.name).some((id) => id.kind === own.kind && id.digits === own.digits),
    );
    if (inRecipient !== undefined) {
      return {
        confidence: "confirmado",
        reason: `o ${word} ${formatTaxId(own)} consta do destinatário ${recipientText(inRecipient)}`,
        recipient: inRecipient.name,
        side: inRecipient.side,
      };
    }
    if (findTaxIds(item.text).some((id) => id.kind === own.kind && id.digits === own.digits)) {
      const who = exact ?? null;
      return {
        confidence: "confirmado",
        reason: `o ${word} ${formatTaxId(own)} consta do texto`,
        recipient: who?.name ?? null,
        side: who?.side ?? null,
      };
    }
  }
  if (exact !== undefined) {
    const other = otherDocumentNear(item, party, party.names);
    if (other !== null) {
      return {
        confidence: "homonimo",
        reason: `o nome do destinatário ${recipientText(exact)} confere, mas o texto traz junto dele outro ${documentWord(other)} (${formatTaxId(other)}), não o do cliente`,
        recipient: exact.name,
        side: exact.side,
      };
    }
    return {
      confidence: "provavel",
      reason: `o destinatário ${recipientText(exact)} tem o nome do cliente${party.document === null ? "" : `, mas o ${documentWord(party.document)} não consta da publicação`}`,
      recipient: exact.name,
      side: exact.side,
    };
  }
  const watchedTokens = party.names.map(nameTokens).filter((t) => t.length > 0);
  const partial = item.recipients.find((r) => {
    const tokens = nameTokens(r.name);
    return watchedTokens.some(
      (w) => inOrder(w, tokens) || (tokens.length >= 2 && inOrder(tokens, w)),
    );
  });
  if (partial !== undefined) {
    return {
      confidence: "homonimo",
      reason: `só parte do nome confere: o destinatário é ${recipientText(partial)}`,
      recipient: partial.name,
      side: partial.side,
    };
  }
  const plainText = plainName(item.text);
  if (keys.some((key) => wordIndex(plainText, key) >= 0)) {
    return {
      confidence: "homonimo",
      reason: "o nome aparece só no texto, não entre os destinatários",
      recipient: null,
      side: null,
    };
  }
  return null;
}
