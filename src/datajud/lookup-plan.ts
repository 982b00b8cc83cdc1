/**
 * Lookups that walk their candidate indices in order (a TRF1 number: TRF1, then TRF6), batched so
 * that each request asks one index for every number waiting for it. An item moves to its next index
 * only when the caller says DataJud answered cleanly without it there; a failed answer ends the
 * lookup where it is, so a failure is never mistaken for an absence.
 *
 * Used one step at a time (`next`) or with several indices asked at once (`take`, then `settle`
 * or `notFound` for each item as its answer arrives).
 */
export class LookupPlan<T> {
  readonly #waiting = new Map<string, T[]>();
  readonly #route = new Map<T, { indices: readonly string[]; at: number }>();
  /** Taken by `take` and not yet answered: the indices they may still fall back to wait for them. */
  readonly #inFlight = new Set<T>();

  /** `indices` in the order to ask them; an item is added once. */
  add(item: T, indices: readonly string[]): void {
    const first = indices[0];
    if (first === undefined) throw new RangeError("a lookup needs at least one index");
    if (this.#route.has(item)) throw new RangeError("this lookup is already planned");
    this.#route.set(item, { indices, at: 0 });
    this.#queue(first, item);
  }

  /**
   * One step at a time: the next index to ask and every item waiting for it, removed from the
   * plan; undefined when nothing waits. Every item of the steps before counts as answered.
   */
  next(): { index: string; items: T[] } | undefined {
    this.#inFlight.clear();
    return this.take();
  }

  /**
   * Several steps at once: the next index that is ready, with every item waiting for it, or
   * undefined when none is ready now. An index that an item waiting elsewhere, or still in flight,
   * may fall back to goes after it, so the items that fall back to it join its one request
   * instead of costing a second one (a cycle of fallbacks is broken in insertion order).
   */
  take(): { index: string; items: T[] } | undefined {
    const indices = [...this.#waiting.keys()];
    if (indices.length === 0) return undefined;
    const afterWaiting = this.#laterIndices([...this.#waiting.values()].flat());
    const afterInFlight = this.#laterIndices(this.#inFlight);
    const ready = indices.filter((i) => !afterInFlight.has(i));
    const index = ready.find((i) => !afterWaiting.has(i)) ?? ready[0];
    if (index === undefined) return undefined;
    const items = this.#waiting.get(index) ?? [];
    this.#waiting.delete(index);
    for (const item of items) this.#inFlight.add(item);
    return { index, items };
  }

  /** The item's lookup ends where it was asked: found there, or its answer failed. */
  settle(item: T): void {
    this.#inFlight.delete(item);
  }

  /**
   * DataJud answered `index` cleanly without the item: queues it at its next index and returns
   * that index, or returns null when every candidate was asked (a clean not-found everywhere).
   */
  notFound(item: T): string | null {
    const route = this.#route.get(item);
    if (route === undefined) throw new RangeError("this lookup was never planned");
    this.#inFlight.delete(item);
    const index = route.indices[route.at + 1];
    if (index === undefined) return null;
    route.at += 1;
    this.#queue(index, item);
    return index;
  }

  /** Items taken and not yet settled or moved on. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Nothing waits and nothing is in flight. */
  get done(): boolean {
    return this.#waiting.size === 0 && this.#inFlight.size === 0;
  }

  #laterIndices(items: Iterable<T>): Set<string> {
    const later = new Set<string>();
    for (const item of items) {
      const route = this.#route.get(item);
      for (const index of route?.indices.slice(route.at + 1) ?? []) later.add(index);
    }
    return later;
  }

  #queue(index: string, item: T): void {
    const items = this.#waiting.get(index);
    if (items === undefined) this.#waiting.set(index, [item]);
    else items.push(item);
  }
}
