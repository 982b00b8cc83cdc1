import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import type { Socket } from "node:net";

/**
 * A loopback stand-in for DataJud's Elasticsearch 7 `_search` endpoint: real HTTP on 127.0.0.1,
 * the subset of the query DSL our query builders send, and the failures the live API shows
 * (gateway errors, rejections, partial shards, garbage, hangs). A query it cannot evaluate is a
 * 400, never a silent empty answer, so a builder that drifts out of the subset fails loudly.
 */

export interface FakeFault {
  status?: number;
  /** An object is sent as JSON; a raw string is sent as is (garbage). */
  body?: unknown | string;
  headers?: Record<string, string>;
  /** Never answer (until close). */
  hang?: boolean;
  /** Answer 200 with `_shards.failed: 1` and only part of the hits. */
  partialShards?: boolean;
  /** Answer 200 with `timed_out: true` and only part of the hits. */
  timedOut?: boolean;
  delayMs?: number;
  /** Only for this index (court alias); other indices neither see nor consume it. */
  alias?: string;
}

export interface RecordedRequest {
  alias: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary parts of the query they sent.
  body: any;
  authorization: string | undefined;
  at: number;
}

export interface FakeDocument {
  _id: string;
  _source: Record<string, unknown>;
}

export interface FakeDataJud {
  url: string;
  apiKey: string;
  requests: RecordedRequest[];
  /** Replaces that index (creating it). */
  setDocuments(alias: string, docs: FakeDocument[]): void;
  upsert(alias: string, doc: FakeDocument): void;
  remove(alias: string, id: string): void;
  /** Queued, consumed one per request. */
  failNext(...faults: FakeFault[]): void;
  /** Until cleared with null. */
  failAlways(fault: FakeFault | null): void;
  /** When true, a `terms` query answers 400 like ES's parsing_exception (to test a fallback). */
  rejectTermsQueries: boolean;
  /** Added to every answer. */
  latencyMs: number;
  close(): Promise<void>;
}

const MAX_RESULT_WINDOW = 10_000;

class QueryError extends Error {
  readonly type: string;
  constructor(type: string, message: string) {
    super(message);
    this.type = type;
  }
}

interface Stored {
  seq: number;
  doc: FakeDocument;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function esError(status: number, type: string, reason: string, extra: Json = {}): Json {
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

function mentionsTerms(value: unknown): boolean {
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

function sortValue(stored: Stored, key: SortKey): unknown {
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

interface EsHit {
  _index: string;
  _type: "_doc";
  _id: string;
  _score: number | null;
  _source?: Json;
  sort?: unknown[];
}

interface EsSearchResponse {
  took: number;
  timed_out: boolean;
  _shards: Json;
  hits: {
    total?: { value: number; relation: "eq" | "gte" };
    max_score: number | null;
    hits: EsHit[];
  };
}

/** Evaluates one `_search` body against an index, answering like ES 7. */
function search(alias: string, stored: Stored[], body: Json): EsSearchResponse {
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

/** Partial answers keep only the first half of the hits, as if the rest sat on a lost shard. */
function degrade(response: EsSearchResponse, fault: FakeFault): EsSearchResponse {
  const all = response.hits.hits;
  const kept = all.slice(0, Math.floor(all.length / 2));
  const total = response.hits.total;
  const shards = {
    total: 2,
    successful: 1,
    skipped: 0,
    failed: 1,
    failures: [
      {
        shard: 1,
        index: all[0]?._index ?? "api_publica",
        node: "fake-node-2",
        reason: {
          type: "node_not_connected_exception",
          reason: "[fake-node-2] Node not connected",
        },
      },
    ],
  };
  return {
    ...response,
    timed_out: fault.timedOut === true,
    ...(fault.partialShards ? { _shards: shards } : {}),
    hits: {
      ...response.hits,
      ...(total ? { total: { ...total, value: total.value - (all.length - kept.length) } } : {}),
      hits: kept,
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

class FakeDataJudServer implements FakeDataJud {
  url = "";
  readonly apiKey: string;
  readonly requests: RecordedRequest[] = [];
  rejectTermsQueries = false;
  latencyMs: number;
  readonly server: Server;
  readonly #indices = new Map<string, Map<string, Stored>>();
  readonly #queue: FakeFault[] = [];
  #always: FakeFault | null = null;
  #seq = 0;
  readonly #sockets = new Set<Socket>();
  readonly #timers = new Set<{ timer: NodeJS.Timeout; done: () => void }>();
  #closed = false;

  constructor(apiKey: string, latencyMs: number) {
    this.apiKey = apiKey;
    this.latencyMs = latencyMs;
    this.server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        this.#send(res, 500, esError(500, "fake_internal_error", String(error)));
      });
    });
    this.server.on("connection", (socket) => {
      this.#sockets.add(socket);
      socket.on("close", () => this.#sockets.delete(socket));
    });
  }

  setDocuments(alias: string, docs: FakeDocument[]): void {
    const index = new Map<string, Stored>();
    for (const doc of docs) index.set(doc._id, { seq: this.#seq++, doc: structuredClone(doc) });
    this.#indices.set(alias, index);
  }

  upsert(alias: string, doc: FakeDocument): void {
    const index = this.#indices.get(alias) ?? new Map<string, Stored>();
    const existing = index.get(doc._id);
    index.set(doc._id, { seq: existing?.seq ?? this.#seq++, doc: structuredClone(doc) });
    this.#indices.set(alias, index);
  }

  remove(alias: string, id: string): void {
    this.#indices.get(alias)?.delete(id);
  }

  failNext(...faults: FakeFault[]): void {
    this.#queue.push(...faults);
  }

  failAlways(fault: FakeFault | null): void {
    this.#always = fault;
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const entry of this.#timers) {
      clearTimeout(entry.timer);
      entry.done();
    }
    this.#timers.clear();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // Hung and keep-alive connections would hold close() open forever.
    for (const socket of this.#sockets) socket.destroy();
    this.server.closeAllConnections();
    await closed;
  }

  #takeFault(alias: string): FakeFault | undefined {
    const at = this.#queue.findIndex((f) => f.alias === undefined || f.alias === alias);
    if (at !== -1) return this.#queue.splice(at, 1)[0];
    const always = this.#always;
    return always && (always.alias === undefined || always.alias === alias) ? always : undefined;
  }

  #wait(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.#timers.delete(entry);
          resolve();
        }, ms),
        done: resolve,
      };
      this.#timers.add(entry);
    });
  }

  #send(
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    if (this.#closed || res.destroyed || res.headersSent) return;
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, {
      "content-type": "application/json; charset=UTF-8",
      "content-length": String(Buffer.byteLength(text)),
      "x-elastic-product": "Elasticsearch",
      ...headers,
    });
    res.end(text);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const route = /^\/api_publica_([^/]+)\/_search\/?$/.exec(path);
    const alias = route?.[1];
    if (alias === undefined) {
      this.#send(res, 400, {
        error: `no handler found for uri [${path}] and method [${req.method}]`,
        status: 400,
      });
      return;
    }
    if (req.method !== "POST" && req.method !== "GET") {
      this.#send(res, 405, {
        error: `Incorrect HTTP method for uri [${path}] and method [${req.method}], allowed: [POST, GET]`,
        status: 405,
      });
      return;
    }
    let body: unknown = {};
    let parsed = true;
    if (raw.trim() !== "") {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
        parsed = false;
      }
    }
    this.requests.push({ alias, body, authorization: req.headers.authorization, at: Date.now() });

    // Faults come before the key check: gateway errors in front of DataJud do not look at the key.
    const fault = this.#takeFault(alias);
    await this.#wait(this.latencyMs + (fault?.delayMs ?? 0));
    if (this.#closed) return;
    if (fault?.hang) return; // never answered; close() destroys the socket
    const headers = fault?.headers ?? {};
    if (fault && (fault.status !== undefined || fault.body !== undefined)) {
      const status = fault.status ?? 200;
      const faultBody = fault.body ?? { error: STATUS_CODES[status] ?? "error", status };
      this.#send(res, status, faultBody, headers);
      return;
    }

    if (req.headers.authorization !== `APIKey ${this.apiKey}`) {
      this.#send(
        res,
        401,
        esError(401, "security_exception", "missing or invalid API key"),
        headers,
      );
      return;
    }
    const index = this.#indices.get(alias);
    if (!index) {
      const name = `api_publica_${alias}`;
      this.#send(
        res,
        404,
        esError(404, "index_not_found_exception", `no such index [${name}]`, {
          "resource.type": "index_or_alias",
          "resource.id": name,
          index: name,
        }),
        headers,
      );
      return;
    }
    if (!parsed || !isObject(body)) {
      this.#send(
        res,
        400,
        esError(400, "parsing_exception", "request body is not a JSON object"),
        headers,
      );
      return;
    }
    if (this.rejectTermsQueries && mentionsTerms(body.query)) {
      this.#send(
        res,
        400,
        esError(
          400,
          "parsing_exception",
          "[terms] query malformed, no start_object after query name",
          { line: 1, col: 30 },
        ),
        headers,
      );
      return;
    }
    let answer: EsSearchResponse;
    try {
      answer = search(alias, [...index.values()], body);
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      this.#send(res, 400, esError(400, error.type, error.message), headers);
      return;
    }
    const response = fault?.partialShards || fault?.timedOut ? degrade(answer, fault) : answer;
    this.#send(res, 200, response, headers);
  }
}

export async function startFakeDataJud(
  options: { apiKey?: string; latencyMs?: number } = {},
): Promise<FakeDataJud> {
  const fake = new FakeDataJudServer(
    options.apiKey ?? "fake-datajud-public-key",
    options.latencyMs ?? 0,
  );
  await new Promise<void>((resolve, reject) => {
    fake.server.once("error", reject);
    fake.server.listen(0, "127.0.0.1", () => {
      fake.server.off("error", reject);
      resolve();
    });
  });
  const address = fake.server.address();
  if (address === null || typeof address === "string")
    throw new Error("the fake DataJud has no TCP port");
  fake.url = `http://127.0.0.1:${address.port}`;
  return fake;
}
