import type { TableItem } from "./schema.js";

/*
 * One of CNJ's tables as a tree: each code's entry, its ancestors up to the root, whether it
 * descends from another. Codes are the keys, never names: 198 and 15162 are both "Acolhimento de
 * Embargos de Declaração", under different parents. Pure.
 */

export interface TpuTree {
  /** The entry of a code the table holds; undefined for any other (null included). */
  entry(code: number | null): TableItem | undefined;
  /** Whether the table holds the code. */
  has(code: number | null): boolean;
  /** The code's parent, grandparent... up to its root, nearest first; [] for an unknown code. */
  ancestors(code: number | null): readonly number[];
  /** The code itself, then its ancestors: the path a reading walks up, nearest first. */
  lineage(code: number | null): readonly number[];
  /** Whether `code` is `ancestor` or lies under it. */
  isDescendantOf(code: number | null, ancestor: number): boolean;
  /** The codes directly under one. */
  children(code: number): readonly number[];
  /** Every code under one (not itself), in code order. */
  descendants(code: number): readonly number[];
  /** Every entry, in code order. */
  readonly items: readonly TableItem[];
}

/** Builds the tree; a parent missing from the items, or a cycle, is an error in the data. */
export function buildTree(items: readonly TableItem[]): TpuTree {
  const byCode = new Map<number, TableItem>();
  for (const item of items) {
    if (byCode.has(item.code)) throw new Error(`TPU: code ${item.code} is listed twice`);
    byCode.set(item.code, item);
  }
  const children = new Map<number, number[]>();
  for (const item of items) {
    if (item.parent === null) continue;
    if (!byCode.has(item.parent)) {
      throw new Error(`TPU: the parent ${item.parent} of code ${item.code} is not in the table`);
    }
    const list = children.get(item.parent) ?? [];
    list.push(item.code);
    children.set(item.parent, list);
  }
  const lineages = new Map<number, readonly number[]>();
  for (const item of items) {
    const path = [item.code];
    let parent = item.parent;
    while (parent !== null) {
      if (path.includes(parent)) throw new Error(`TPU: code ${item.code} is its own ancestor`);
      path.push(parent);
      parent = byCode.get(parent)?.parent ?? null;
    }
    lineages.set(item.code, path);
  }
  const sorted = [...byCode.values()].sort((a, b) => a.code - b.code);
  const lineage = (code: number | null): readonly number[] =>
    code === null ? [] : (lineages.get(code) ?? []);
  const descendants = (code: number): number[] =>
    (children.get(code) ?? []).flatMap((c) => [c, ...descendants(c)]);
  return {
    entry: (code) => (code === null ? undefined : byCode.get(code)),
    has: (code) => code !== null && byCode.has(code),
    lineage,
    ancestors: (code) => lineage(code).slice(1),
    isDescendantOf: (code, ancestor) => lineage(code).includes(ancestor),
    children: (code) => [...(children.get(code) ?? [])].sort((a, b) => a - b),
    descendants: (code) => descendants(code).sort((a, b) => a - b),
    items: sorted,
  };
}
