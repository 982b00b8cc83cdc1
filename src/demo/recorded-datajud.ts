/**
 * DataJud's `_search` answered from recorded documents, in memory: the subset of the
 * Elasticsearch 7 query DSL our query builders send (match, term, terms, range, exists, bool,
 * sort, search_after, `_source` filtering, size/from/track_total_hits), evaluated like ES does.
 * A query outside the subset is a 400, never a silent empty answer, so a builder that drifts
 * fails loudly. `monitor demo` reads the bundled recordings through it; the loopback fake
 * DataJud of the tests puts the same evaluation behind real HTTP.
 */

/** One hit as DataJud stores it: `_id` and the raw `_source`. */
export interface RecordedDocument {
  _id: string;
  _source: Record<string, unknown>;
}

/** ES's `index.max_result_window` default: `from + size` beyond it is refused. */
export const MAX_RESULT_WINDOW = 10_000;

/** A query ES would refuse with a 400; `type` is ES's error type (parsing_exception, ...). */
export class QueryError extends Error {
  readonly type: string;
  constructor(type: string, message: string) {
    super(message);
    this.type = type;
  }
}

/** A document and its insertion order (the `_doc` sort). */
export interface StoredDocument {
  seq: number;
  doc: RecordedDocument;
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** An ES 7 error body. */
export function esError(status: number, type: string, reason: string, extra: Json = {}): Json {
  const cause = { type, reason, ...extra };
  return { error: { root_cause: [cause], ...cause }, status };
}

/** Every value at a dotted path, through objects and (nested) arrays, like ES flattens them. */
export function valuesAt(source: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  const walk = (value: unknown, segments: readonly string[]): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, segments);
      return;
    }
    if (segments.length === 0) {
      if (value !== undefined && value !== null) out.push(value);
      return;
    }
    if (!isObject(value)) return;
    // A key may itself contain dots ({"a.b": 1}); ES treats it like {"a": {"b": 1}}.
    for (let take = segments.length; take >= 1; take--) {
      const key = segments.slice(0, take).join(".");
      if (Object.hasOwn(value, key)) walk(value[key], segments.slice(take));
    }
  };
  walk(source, path.split("."));
  if (out.length === 0 && path.endsWith(".keyword")) return valuesAt(source, path.slice(0, -8));
  return out;
}

function isScalar(value: unknown): value is string | number | boolean {
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
function compareScalars(a: unknown, b: unknown): number {
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

interface SortKey {
  field: string;
  order: "asc" | "desc";
}

function parseSort(sort: unknown): SortKey[] {
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

function sortValue(stored: StoredDocument, key: SortKey): unknown {
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

function compareTuples(
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

type Matcher = (path: string) => boolean;

function glob(pattern: string): Matcher {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  const re = new RegExp(`^${escaped}$`);
  return (path) => re.test(path);
}

const NONE = Symbol("none");

function project(
  value: unknown,
  path: string,
  includes: Matcher[],
  excludes: Matcher[],
  within: boolean,
): unknown {
  if (Array.isArray(value)) {
    const items = value
      .map((v) => project(v, path, includes, excludes, within))
      .filter((v) => v !== NONE);
    return items.length > 0 || within ? items : NONE;
  }
  if (isObject(value)) {
    const out: Json = {};
    for (const [key, v] of Object.entries(value)) {
      const p = path === "" ? key : `${path}.${key}`;
      if (excludes.some((m) => m(p))) continue;
      const result = project(v, p, includes, excludes, within || includes.some((m) => m(p)));
      if (result !== NONE) out[key] = result;
    }
    return Object.keys(out).length > 0 || within ? out : NONE;
  }
  return within ? value : NONE;
}

/** `_source` filtering: false, a path, a list of paths (dotted, `*` globs) or {includes, excludes}. */
export function filterSource(source: Json, spec: unknown): Json | undefined {
  if (spec === undefined || spec === true) return source;
  if (spec === false) return undefined;
  const paths = (value: unknown): Matcher[] =>
    asList(value)
      .filter((p): p is string => typeof p === "string")
      .map(glob);
  const includes = isObject(spec) ? paths(spec.includes ?? spec.include) : paths(spec);
  const excludes = isObject(spec) ? paths(spec.excludes ?? spec.exclude) : [];
  const result = project(source, "", includes, excludes, includes.length === 0);
  return isObject(result) ? result : {};
}

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

/** Court alias -> the documents of its index (`api_publica_<alias>`). */
export interface RecordedState {
  indices: Record<string, RecordedDocument[]>;
}

/** The indices, each keeping its documents in insertion order (ES's `_doc` order). */
export class DocumentIndices {
  readonly #indices = new Map<string, Map<string, StoredDocument>>();
  #seq = 0;

  /** Replaces that index (creating it). */
  setDocuments(alias: string, docs: readonly RecordedDocument[]): void {
    const index = new Map<string, StoredDocument>();
    for (const doc of docs) index.set(doc._id, { seq: this.#seq++, doc: structuredClone(doc) });
    this.#indices.set(alias, index);
  }

  /** A document with a known `_id` keeps its place, like an ES update. */
  upsert(alias: string, doc: RecordedDocument): void {
    const index = this.#indices.get(alias) ?? new Map<string, StoredDocument>();
    const existing = index.get(doc._id);
    index.set(doc._id, { seq: existing?.seq ?? this.#seq++, doc: structuredClone(doc) });
    this.#indices.set(alias, index);
  }

  remove(alias: string, id: string): void {
    this.#indices.get(alias)?.delete(id);
  }

  /** Every index becomes the one in `state`; indices it does not name are dropped. */
  load(state: RecordedState): void {
    const previous = new Map(this.#indices);
    this.#indices.clear();
    for (const [alias, docs] of Object.entries(state.indices)) {
      // Documents DataJud already had keep their order, as an ES re-index of the same ids would.
      const index = new Map<string, StoredDocument>();
      for (const doc of docs) {
        const seq = previous.get(alias)?.get(doc._id)?.seq ?? this.#seq++;
        index.set(doc._id, { seq, doc: structuredClone(doc) });
      }
      this.#indices.set(alias, index);
    }
  }

  /** undefined: no such index (ES answers 404). */
  documents(alias: string): StoredDocument[] | undefined {
    const index = this.#indices.get(alias);
    return index ? [...index.values()] : undefined;
  }
}

const SEARCH_PATH = /^\/api_publica_([^/]+)\/_search\/?$/;

export interface RecordedDataJud {
  /** A `fetch` that answers `POST <any origin>/api_publica_<alias>/_search`; nothing leaves the process. */
  fetch: typeof fetch;
  indices: DocumentIndices;
  /** `_search` requests answered so far. */
  readonly requests: number;
}

export interface RecordedDataJudOptions {
  /** When set, any other `Authorization: APIKey ...` is refused with a 401, as DataJud does. */
  apiKey?: string;
  state?: RecordedState;
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=UTF-8",
      "x-elastic-product": "Elasticsearch",
    },
  });
}

function parseBody(raw: string): { ok: true; body: unknown } | { ok: false } {
  if (raw.trim() === "") return { ok: true, body: {} };
  try {
    return { ok: true, body: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false };
  }
}

/** An in-memory DataJud over recorded documents, for `monitor demo` and offline runs. */
export function createRecordedDataJud(options: RecordedDataJudOptions = {}): RecordedDataJud {
  const indices = new DocumentIndices();
  if (options.state) indices.load(options.state);
  let requests = 0;

  const answer = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    request.signal.throwIfAborted();
    const path = new URL(request.url).pathname;
    const alias = SEARCH_PATH.exec(path)?.[1];
    if (alias === undefined) {
      return jsonResponse(400, {
        error: `no handler found for uri [${path}] and method [${request.method}]`,
        status: 400,
      });
    }
    if (request.method !== "POST" && request.method !== "GET") {
      return jsonResponse(405, {
        error: `Incorrect HTTP method for uri [${path}] and method [${request.method}], allowed: [POST, GET]`,
        status: 405,
      });
    }
    const raw = await request.text();
    requests++;
    if (
      options.apiKey !== undefined &&
      request.headers.get("authorization") !== `APIKey ${options.apiKey}`
    ) {
      return jsonResponse(401, esError(401, "security_exception", "missing or invalid API key"));
    }
    const stored = indices.documents(alias);
    if (!stored) {
      const name = `api_publica_${alias}`;
      return jsonResponse(
        404,
        esError(404, "index_not_found_exception", `no such index [${name}]`, {
          "resource.type": "index_or_alias",
          "resource.id": name,
          index: name,
        }),
      );
    }
    const parsed = parseBody(raw);
    if (!parsed.ok || !isObject(parsed.body)) {
      return jsonResponse(
        400,
        esError(400, "parsing_exception", "request body is not a JSON object"),
      );
    }
    try {
      return jsonResponse(200, searchDocuments(alias, stored, parsed.body));
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      return jsonResponse(400, esError(400, error.type, error.message));
    }
  };

  return {
    fetch: answer,
    indices,
    get requests() {
      return requests;
    },
  };
}
