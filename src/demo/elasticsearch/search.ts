import { type Json, MAX_RESULT_WINDOW, QueryError, type StoredDocument } from "./documents.js";
import { matchesQuery } from "./query.js";
import { compareTuples, parseSort, sortValue } from "./sort.js";
import { filterSource } from "./source-filter.js";

function intParam(body: Json, name: string, fallback: number): number {
  const value = body[name];
  if (value === undefined) return fallback;
  const n = typeof value === "string" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0) {
    throw new QueryError(
      "illegal_argument_exception",
      `[${name}] parameter cannot be negative or non-integer, found [${String(value)}]`,
    );
  }
  return n;
}

export interface EsHit {
  _index: string;
  _type: "_doc";
  _id: string;
  _score: number | null;
  _source?: Json;
  sort?: unknown[];
}

export interface EsSearchResponse {
  took: number;
  timed_out: boolean;
  _shards: Json;
  hits: {
    total?: { value: number; relation: "eq" | "gte" };
    max_score: number | null;
    hits: EsHit[];
  };
}

/** Evaluates one `_search` body against an index, answering like ES 7; throws QueryError for a 400. */
export function searchDocuments(
  alias: string,
  stored: readonly StoredDocument[],
  body: Json,
): EsSearchResponse {
  const size = intParam(body, "size", 10);
  const from = intParam(body, "from", 0);
  if (from + size > MAX_RESULT_WINDOW) {
    throw new QueryError(
      "illegal_argument_exception",
      `Result window is too large, from + size must be less than or equal to: [${MAX_RESULT_WINDOW}] but was [${from + size}].`,
    );
  }
  const query = body.query ?? { match_all: {} };
  const matched = stored.filter((s) => matchesQuery(s.doc._source, query));
  const keys = body.sort === undefined ? [] : parseSort(body.sort);
  const withSort = matched.map((s) => ({ stored: s, sort: keys.map((k) => sortValue(s, k)) }));
  if (keys.length > 0) withSort.sort((a, b) => compareTuples(a.sort, b.sort, keys));

  let page = withSort;
  if (body.search_after !== undefined) {
    const after = body.search_after;
    if (!Array.isArray(after) || keys.length === 0 || after.length !== keys.length) {
      throw new QueryError(
        "illegal_argument_exception",
        "search_after has to be an array with as many values as the sort has fields",
      );
    }
    if (from > 0)
      throw new QueryError(
        "illegal_argument_exception",
        "[from] parameter must be set to 0 when [search_after] is used",
      );
    page = page.filter((entry) => compareTuples(entry.sort, after, keys) > 0);
  }

  const index = `api_publica_${alias}`;
  const scored = keys.length === 0;
  const hits = page.slice(from, from + size).map(({ stored: s, sort }): EsHit => {
    const source = filterSource(s.doc._source, body._source);
    return {
      _index: index,
      _type: "_doc",
      _id: s.doc._id,
      _score: scored ? 1 : null,
      ...(source === undefined ? {} : { _source: source }),
      ...(keys.length > 0 ? { sort } : {}),
    };
  });

  const count = matched.length;
  const track = body.track_total_hits;
  const cap =
    track === true
      ? Number.POSITIVE_INFINITY
      : typeof track === "number"
        ? track
        : MAX_RESULT_WINDOW;
  const total =
    count > cap
      ? { value: cap, relation: "gte" as const }
      : { value: count, relation: "eq" as const };
  return {
    took: 1,
    timed_out: false,
    _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    hits: {
      ...(track === false ? {} : { total }),
      max_score: scored && hits.length > 0 ? 1 : null,
      hits,
    },
  };
}
