import type { TableItem } from "./schema.js";
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

/** Where the movement table came from (publisher, URL, copy, dates). */
export function movementsSource() {
  return tables().movementsSource;
}
