/**
 * DataJud's `_search` answered from recorded documents, in memory: the subset of the
 * Elasticsearch 7 query DSL our query builders send (match, term, terms, range, exists, bool,
 * sort, search_after, `_source` filtering, size/from/track_total_hits), evaluated like ES does.
 * A query outside the subset is a 400, never a silent empty answer, so a builder that drifts
 * fails loudly. `monitor demo` reads the bundled recordings through it; the loopback fake
 * DataJud of the tests puts the same evaluation behind real HTTP.
 */

import {
  DocumentIndices,
  esError,
  isObject,
  QueryError,
  type RecordedState,
} from "./elasticsearch/documents.js";
import { searchDocuments } from "./elasticsearch/search.js";

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
      return jsonResponse(400, esError(400, error.kind, error.message));
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
