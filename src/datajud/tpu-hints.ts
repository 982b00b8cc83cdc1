import { stripAccents } from "../text.js";
import { isKnownMovement, kindOf, movementMeaningOf } from "../tpu/movements.js";
import type { MovementKind } from "../tpu/tables.js";
import type { MovementHint } from "./instance-record.js";

/*
 * A DataJud movement read by CNJ's Tabela Processual Unificada (src/tpu/): its kind from the
 * code's place in the tree, its title and meaning from the monitor's glosses or the tree. A code
 * the tables lack is said to be unknown; only a movement DataJud sent without a code is read by
 * its name.
 */

export type { MovementKind } from "../tpu/tables.js";

/** What the movement records, in plain words; null only when DataJud sent no code. */
export function movementHint(code: number | null): MovementHint | null {
  return code === null ? null : movementMeaningOf(code);
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
  [/levantad\w* (a|da) suspens|levantamento da suspens|dessobrest/, "resumption"],
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
const REFINABLE: ReadonlySet<MovementKind> = new Set([
  "routine",
  "publication",
  "other",
  "unknown",
]);

/** DataJud's complement of a hearing's situation (designada, redesignada, cancelada...). */
const HEARING_SITUATION = /situacao[_ ]da[_ ]audiencia/;

/**
 * A code CNJ's table holds reads by its place in the tree (src/tpu/data/movement-kinds.json);
 * any movement whose complement states a hearing's situation is a hearing, whatever its code. A
 * movement without a code reads by its name ("other" when the name says nothing); a code the
 * tables lack is "unknown" unless its name says what it is. A document issued or a publication
 * whose complements say it is an intimação is one: the movement says so. Nothing else makes a
 * publication an intimação.
 */
export function movementKind(
  code: number | null,
  name?: string,
  complements: readonly string[] = [],
): MovementKind {
  const said = fold(complements.join(" "));
  if (HEARING_SITUATION.test(said)) return "hearing";
  const byName = name === undefined ? "other" : kindOfName(fold(name));
  const unread = code !== null && !isKnownMovement(code) && byName === "other";
  const kind = kindOf(code) ?? (unread ? "unknown" : byName);
  if (!REFINABLE.has(kind)) return kind;
  return /\bintima/.test(said) ? "intimation" : kind;
}

function kindOfName(folded: string): MovementKind {
  for (const [pattern, kind] of NAME_PATTERNS) {
    if (pattern.test(folded)) return kind;
  }
  return "other";
}
