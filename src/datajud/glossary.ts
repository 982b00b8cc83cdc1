import { findCourt } from "./courts.js";

/**
 * DataJud's codes in the plain Portuguese a lawyer reads: the instance (`grau`) a record belongs
 * to, the index a record came from, and counts with their plurals written out. Every e-mail,
 * `monitor history` and the rules engine say them the same way.
 */

/** DataJud's `grau` values (CNJ's DataJud glossary), by what a lawyer calls them. */
const INSTANCE_NAMES: Readonly<Record<string, string>> = {
  G1: "1º grau",
  G2: "2º grau",
  SUP: "Tribunal Superior",
  JE: "Juizado Especial",
  TR: "Turma Recursal",
  TRU: "Turma Regional de Uniformização",
  TNU: "Turma Nacional de Uniformização",
};

/** "1º grau" for G1; null for a value DataJud's glossary does not list. */
export function instanceName(grau: string): string | null {
  return INSTANCE_NAMES[grau.trim().toUpperCase()] ?? null;
}

/** "2º grau (G2)": the plain name with DataJud's code; an unknown code as it is. */
export function instanceText(grau: string): string {
  const code = grau.trim();
  if (code === "" || code === "unknown") return "instância não informada";
  const name = instanceName(code);
  return name === null ? code : `${name} (${code})`;
}

/** "índice do TJDFT no DataJud (api_publica_tjdft)"; a name that is no court's index as it is. */
export function indexText(index: string): string {
  const court = findCourt(index);
  if (court === undefined) return index;
  return `índice do ${court.alias.toUpperCase()} no DataJud (${index.trim()})`;
}

/** "1 movimentação nova", "3 movimentações novas": the count with the right form. */
export function countText(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The count of new movements, as subjects, summaries and digests say it. */
export function newMovementsText(n: number): string {
  return n === 0
    ? "nenhuma movimentação nova"
    : countText(n, "movimentação nova", "movimentações novas");
}

/**
 * A party's side as DJEN (`destinatarios[].polo`: "A", "P") or the MNI
 * (intercomunicacao-2.2.2.xsd, modalidadePoloProcessual: AT, PA, TC, FL, TJ, AD, VI) writes it.
 */
const POLOS: Readonly<Record<string, string>> = {
  A: "polo ativo",
  AT: "polo ativo",
  P: "polo passivo",
  PA: "polo passivo",
  T: "terceiro interessado",
  TC: "terceiro interessado",
  FL: "fiscal da lei",
  TJ: "testemunha do juízo",
  AD: "assistente",
  VI: "vítima",
};

/** "polo ativo" for DJEN's "A"; a side no table names, as "polo X". Null: no side. */
export function poloText(side: string | null): string | null {
  const code = side?.trim() ?? "";
  if (code === "") return null;
  return POLOS[code.toUpperCase()] ?? `polo ${code}`;
}
