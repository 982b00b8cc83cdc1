import type { TableItem } from "./schema.js";
import { type ClassBranch, tables } from "./tables.js";

/*
 * CNJ's class table (TPU de Classes) read by a class's place in the tree: its branch of justice
 * (criminal, civil, labour, juizado...) is that of the nearest ancestor the rules name
 * (src/tpu/data/class-branches.json). Pure.
 */

/** The table's entry of a class code; undefined if absent. */
export function classEntry(code: number | null): TableItem | undefined {
  return tables().classes.entry(code);
}

/** The class's name in CNJ's table; undefined for a code it does not hold. */
export function className(code: number | null): string | undefined {
  return classEntry(code)?.name;
}

/** The class's parent, grandparent... up to its root, nearest first. */
export function classAncestors(code: number | null): readonly number[] {
  return tables().classes.ancestors(code);
}

/** Whether a class code is `ancestor` or lies under it. */
export function isClassDescendantOf(code: number | null, ancestor: number): boolean {
  return tables().classes.isDescendantOf(code, ancestor);
}

/** The branch of justice of a class CNJ's table holds; null for a code it does not hold. */
export function branchOf(code: number | null): ClassBranch | null {
  const { classes, branchRules } = tables();
  for (const c of classes.lineage(code)) {
    const branch = branchRules.get(c);
    if (branch !== undefined) return branch;
  }
  return null;
}

/** Where the class table came from (publisher, URL, copy, dates). */
export function classesSource() {
  return tables().classesSource;
}
