import type { Gloss, TableItem } from "./schema.js";
import { type MovementKind, tables } from "./tables.js";

/*
 * CNJ's movement table (TPU de Movimentos) read by a code's place in the tree: the kind of the
 * nearest ancestor the rules name (src/tpu/data/movement-kinds.json), so every descendant of 970
 * Audiência is a hearing and every one of 25 Suspensão ou Sobrestamento a suspension, whether or
 * not the monitor ever saw its code. Pure.
 */

/** Audiência: every code under it is a hearing. */
export const HEARING = 970;

/** The table's entry of a movement code (its name, parent, whether active); undefined if absent. */
export function movementEntry(code: number | null): TableItem | undefined {
  return tables().movements.entry(code);
}

/** Whether CNJ's movement table holds the code. */
export function isKnownMovement(code: number | null): boolean {
  return tables().movements.has(code);
}

/** The code's parent, grandparent... up to 1 Magistrado or 14 Serventuário, nearest first. */
export function ancestors(code: number | null): readonly number[] {
  return tables().movements.ancestors(code);
}

/** Whether a movement code is `ancestor` or lies under it (970: any hearing). */
export function isDescendantOf(code: number | null, ancestor: number): boolean {
  return tables().movements.isDescendantOf(code, ancestor);
}

/** Every code under one (not itself), in code order. */
export function descendantsOf(code: number): readonly number[] {
  return tables().movements.descendants(code);
}

/**
 * The kind of a code CNJ's table holds, decided by the nearest of its lineage a rule names
 * (every root is named, so every code of the table has one); null for a code not in the table.
 */
export function kindOf(code: number | null): MovementKind | null {
  const { movements, kindRules } = tables();
  for (const c of movements.lineage(code)) {
    const kind = kindRules.get(c);
    if (kind !== undefined) return kind;
  }
  return null;
}

/** A hearing by its code: 970 Audiência or any code under it, or one the rules make a hearing. */
export function isHearingCode(code: number | null): boolean {
  return kindOf(code) === "hearing";
}

/**
 * "Intimação › Eletrônica › Confirmada": the code's names from below its root down to it, the
 * words a bare leaf needs ("Confirmada" alone says nothing).
 */
export function movementPath(code: number | null): readonly string[] {
  const { movements } = tables();
  return movements
    .lineage(code)
    .slice(0, -1)
    .reverse()
    .map((c) => movements.entry(c)?.name ?? String(c));
}

/** The monitor's own words for a code (title, plain meaning), where it has them. */
export function movementGloss(code: number | null): Gloss | undefined {
  return code === null ? undefined : tables().glosses.get(code);
}

/** Words of a TPU leaf as they read inside a phrase: "de Instrução e Julgamento" -> "de instrução e julgamento". */
function inPhrase(leaf: string): string {
  return leaf
    .trim()
    .split(/\s+/)
    .map((w) =>
      /^(Lei|CPC|CPP|CLT|[A-ZÀ-Ý]{2,}\b.*)$/u.test(w) ? w : w.toLocaleLowerCase("pt-BR"),
    )
    .join(" ");
}

/**
 * What a lawyer calls a code where its name alone does not say it: the monitor's own title where
 * it has one; a hearing by its type ("Audiência de instrução" for 12749 "de Instrução",
 * "Audiência preliminar" for 12753); a leaf that is only the end of a phrase ("de Conciliação")
 * with its parent. Undefined when the name says it, or the table lacks the code.
 */
export function readableTitle(code: number | null): string | undefined {
  const gloss = movementGloss(code);
  if (gloss?.title !== undefined) return gloss.title;
  const entry = movementEntry(code);
  if (entry === undefined) return undefined;
  const leaf = entry.name.trim();
  if (entry.code !== HEARING && isDescendantOf(entry.code, HEARING)) {
    return /^audi[eê]ncia\b/iu.test(leaf) ? leaf : `Audiência ${inPhrase(leaf)}`;
  }
  const parent = movementEntry(entry.parent);
  if (parent !== undefined && /^\p{Ll}/u.test(leaf))
    return `${parent.name.trim()} ${inPhrase(leaf)}`;
  return undefined;
}

/** What a lawyer calls a code of the table: its readable title, else its name in the table. */
export function movementTitleOf(code: number | null): string | undefined {
  return readableTitle(code) ?? movementEntry(code)?.name.trim();
}

/** What a movement records, in plain words, Portuguese and English. */
export interface MovementMeaning {
  pt: string;
  en: string;
}

/**
 * What a code records: the monitor's own words where it has them; a hearing's type and that its
 * complement says what happened; otherwise where CNJ's table puts it ("Julgamento › Com Resolução
 * do Mérito › Acolhimento de Embargos de Declaração"); for a code the table lacks, that it is not
 * in CNJ's tables, never a guess.
 */
export function movementMeaningOf(code: number): MovementMeaning {
  const gloss = movementGloss(code);
  if (gloss !== undefined) return { pt: gloss.pt, en: gloss.en };
  if (!isKnownMovement(code)) {
    return {
      pt: `Movimento de código ${code}, não encontrado nas tabelas do CNJ: confira nos autos o que foi registrado.`,
      en: `Movement code ${code} is not in CNJ's tables: check the record for what it records.`,
    };
  }
  if (isDescendantOf(code, HEARING)) {
    const title = movementTitleOf(code) ?? "Audiência";
    return {
      pt: `${title} (designada, realizada, redesignada, cancelada...; o complemento diz qual).`,
      en: `A hearing, ${movementEntry(code)?.name.trim() ?? ""} (scheduled, held, moved, cancelled...; the complement says which).`,
    };
  }
  // Under 14 Serventuário the first step is the office (Escrivão, Distribuidor...): not the act.
  const clerks = ancestors(code).at(-1) === 14;
  const path = movementPath(code).filter((_, i, all) => !clerks || i > 0 || all.length === 1);
  return {
    pt: `Movimento da tabela do CNJ: ${path.join(" › ")}.`,
    en: `A movement of CNJ's table: ${path.join(" › ")}.`,
  };
}

/** Where the movement table came from (publisher, URL, copy, dates). */
export function movementsSource() {
  return tables().movementsSource;
}
