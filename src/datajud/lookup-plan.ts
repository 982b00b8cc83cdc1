/**
 * Lookups that walk their candidate indices in order (a TRF1 number: TRF1, then TRF6), batched so
 * that each request asks one index for every number waiting for it. An item moves to its next index
 * only when the caller says DataJud answered cleanly without it there; a failed answer ends the
 * lookup where it is, so a failure is never mistaken for an absence.
 */
export class LookupPlan<T> {
  readonly #waiting = new Map<string, T[]>();
  readonly #route = new Map<T, { indices: readonly string[]; at: number }>();

  /** `indices` in the order to ask them; an item is added once. */
  add(item: T, indices: readonly string[]): void {
    const first = indices[0];
    if (first === undefined) throw new RangeError("a lookup needs at least one index");
    if (this.#route.has(item)) throw new RangeError("this lookup is already planned");
    this.#route.set(item, { indices, at: 0 });
    this.#queue(first, item);
  }

  /**
   * The next index to ask and every item waiting for it, removed from the plan; undefined when
   * nothing waits. An index no waiting item can still fall back to goes first, so the items that
   * fall back to it join its one request instead of costing a second one.
   */
  next(): { index: string; items: T[] } | undefined {
    const indices = [...this.#waiting.keys()];
    if (indices.length === 0) return undefined;
    const later = new Set<string>();
    for (const items of this.#waiting.values()) {
      for (const item of items) {
        const route = this.#route.get(item);
        for (const index of route?.indices.slice(route.at + 1) ?? []) later.add(index);
      }
    }
    const index = indices.find((i) => !later.has(i)) ?? (indices[0] as string);
    const items = this.#waiting.get(index) ?? [];
    this.#waiting.delete(index);
    return { index, items };
  }

  /**
   * DataJud answered `index` cleanly without the item: queues it at its next index and returns
   * that index, or returns null when every candidate was asked (a clean not-found everywhere).
   */
  notFound(item: T): string | null {
    const route = this.#route.get(item);
    if (route === undefined) throw new RangeError("this lookup was never planned");
    const index = route.indices[route.at + 1];
    if (index === undefined) return null;
    route.at += 1;
    this.#queue(index, item);
    return index;
  }

  #queue(index: string, item: T): void {
    const items = this.#waiting.get(index);
    if (items === undefined) this.#waiting.set(index, [item]);
    else items.push(item);
  }
}
