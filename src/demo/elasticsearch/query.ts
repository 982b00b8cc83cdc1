import { asList, isObject, type Json, QueryError, valuesAt } from "./documents.js";

/** Whether a document matches a query: match, term, terms, range, exists and bool, as ES reads them. */

export function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

function looseEqual(a: unknown, b: unknown): boolean {
  return isScalar(a) && isScalar(b) && String(a) === String(b);
}

function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function textMatches(value: unknown, query: unknown): boolean {
  if (!isScalar(value) || !isScalar(query)) return false;
  if (typeof value !== "string") return looseEqual(value, query);
  const q = String(query);
  if (value.toLowerCase() === q.toLowerCase()) return true;
  const have = new Set(tokens(value));
  const want = tokens(q);
  return want.length > 0 && want.every((t) => have.has(t));
}

function numeric(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** Numbers numerically, everything else as strings (compact dates sort right that way). */
export function compareScalars(a: unknown, b: unknown): number {
  if (typeof a === "number" || typeof b === "number") {
    const x = numeric(a);
    const y = numeric(b);
    if (x !== undefined && y !== undefined) return x - y;
  }
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function rangeHolds(value: unknown, spec: Json): boolean {
  if (!isScalar(value)) return false;
  const checks: Array<[string, (c: number) => boolean]> = [
    ["gte", (c) => c >= 0],
    ["gt", (c) => c > 0],
    ["lte", (c) => c <= 0],
    ["lt", (c) => c < 0],
  ];
  for (const [op, holds] of checks) {
    const bound = spec[op];
    if (bound === undefined || bound === null) continue;
    if (typeof bound === "number") {
      const n = numeric(value);
      if (n === undefined || !holds(n - bound)) return false;
    } else if (!holds(compareScalars(String(value), String(bound)))) {
      return false;
    }
  }
  return true;
}

/** The one field a leaf query names, ignoring ES's decorations. */
function fieldOf(kind: string, clause: unknown): [string, unknown] {
  if (!isObject(clause))
    throw new QueryError(
      "parsing_exception",
      `[${kind}] query malformed, no start_object after query name`,
    );
  const fields = Object.entries(clause).filter(([key]) => key !== "boost" && key !== "_name");
  const first = fields[0];
  if (fields.length !== 1 || first === undefined) {
    throw new QueryError("parsing_exception", `[${kind}] query doesn't support multiple fields`);
  }
  return first;
}

function minimumShouldMatch(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number.parseInt(String(value), 10);
  return Number.isFinite(n) ? n : fallback;
}

export function matchesQuery(source: unknown, query: unknown): boolean {
  if (!isObject(query))
    throw new QueryError("parsing_exception", "query malformed, must start with start_object");
  const entries = Object.entries(query);
  const only = entries[0];
  if (entries.length !== 1 || only === undefined) {
    throw new QueryError(
      "parsing_exception",
      "[query] malformed query, expected exactly one clause",
    );
  }
  const [kind, clause] = only;
  switch (kind) {
    case "match_all":
      return true;
    case "match": {
      const [field, spec] = fieldOf(kind, clause);
      const wanted = isObject(spec) ? spec.query : spec;
      return valuesAt(source, field).some((v) => textMatches(v, wanted));
    }
    case "term": {
      const [field, spec] = fieldOf(kind, clause);
      const wanted = isObject(spec) ? spec.value : spec;
      return valuesAt(source, field).some((v) => looseEqual(v, wanted));
    }
    case "terms": {
      const [field, spec] = fieldOf(kind, clause);
      if (!Array.isArray(spec))
        throw new QueryError("parsing_exception", "[terms] query does not support lookups here");
      const values = valuesAt(source, field);
      return spec.some((wanted) => values.some((v) => looseEqual(v, wanted)));
    }
    case "range": {
      const [field, spec] = fieldOf(kind, clause);
      if (!isObject(spec))
        throw new QueryError(
          "parsing_exception",
          "[range] query malformed, no start_object after field",
        );
      return valuesAt(source, field).some((v) => rangeHolds(v, spec));
    }
    case "exists": {
      const field = isObject(clause) ? clause.field : undefined;
      if (typeof field !== "string")
        throw new QueryError("parsing_exception", "[exists] must be provided with a [field]");
      return valuesAt(source, field).length > 0;
    }
    case "bool": {
      if (!isObject(clause)) throw new QueryError("parsing_exception", "[bool] malformed query");
      const must = [...asList(clause.must), ...asList(clause.filter)];
      const should = asList(clause.should);
      const mustNot = asList(clause.must_not);
      if (!must.every((q) => matchesQuery(source, q))) return false;
      if (mustNot.some((q) => matchesQuery(source, q))) return false;
      if (should.length === 0) return true;
      const needed = minimumShouldMatch(clause.minimum_should_match, must.length === 0 ? 1 : 0);
      return should.filter((q) => matchesQuery(source, q)).length >= needed;
    }
    default:
      throw new QueryError("parsing_exception", `unknown query [${kind}]`);
  }
}

/** Whether a query uses a `terms` clause anywhere. */
export function mentionsTerms(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(mentionsTerms);
  if (!isObject(value)) return false;
  return Object.entries(value).some(([key, v]) => key === "terms" || mentionsTerms(v));
}
