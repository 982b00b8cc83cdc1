import { asList, isObject, QueryError, type StoredDocument, valuesAt } from "./documents.js";
import { compareScalars, isScalar } from "./query.js";

/** `sort` as ES applies it: fields with order and missing values, `_doc`, `_score`. */

interface SortKey {
  field: string;
  order: "asc" | "desc";
}

export function parseSort(sort: unknown): SortKey[] {
  return asList(sort).map((entry): SortKey => {
    if (typeof entry === "string")
      return { field: entry, order: entry === "_score" ? "desc" : "asc" };
    if (isObject(entry)) {
      const [field, spec] = Object.entries(entry)[0] ?? [];
      const order = isObject(spec) ? spec.order : spec;
      if (field !== undefined && (order === undefined || order === "asc" || order === "desc")) {
        return { field, order: order ?? (field === "_score" ? "desc" : "asc") };
      }
    }
    throw new QueryError("parsing_exception", `malformed sort entry ${JSON.stringify(entry)}`);
  });
}

export function sortValue(stored: StoredDocument, key: SortKey): unknown {
  if (key.field === "_doc") return stored.seq;
  if (key.field === "_score") return 1;
  if (key.field === "_id") return stored.doc._id;
  const values = valuesAt(stored.doc._source, key.field).filter(isScalar);
  if (values.length === 0) return null;
  // Like ES on multi-valued fields: the smallest value sorts ascending, the largest descending.
  return values.reduce((best, v) => {
    const c = compareScalars(v, best);
    return (key.order === "asc" ? c < 0 : c > 0) ? v : best;
  });
}

export function compareTuples(
  a: readonly unknown[],
  b: readonly unknown[],
  keys: readonly SortKey[],
): number {
  for (const [i, key] of keys.entries()) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === null && y === null) continue;
    // Missing values sort last in either order (ES's default `_last`).
    if (x === null) return 1;
    if (y === null) return -1;
    const c = compareScalars(x, y);
    if (c !== 0) return key.order === "asc" ? c : -c;
  }
  return 0;
}
