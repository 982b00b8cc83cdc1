import { z } from "zod";
import { parseRetryAfter } from "../pacing/backoff.js";
import { clipText as clip, parseJsonBody as parseJson } from "../pacing/upstream.js";
import type { DataJudErrorKind, DataJudErrorOptions } from "./errors.js";

/*
 * What one HTTP answer of DataJud's `_search` means, decided from the answer alone: the hits of a
 * complete answer, or the error to report (with its kind, so the client knows whether to retry).
 * No I/O: the HTTP client (http-client.ts) sends, waits and retries.
 */

export interface RawSearchHit {
  _id: string;
  _index: string;
  _source: unknown;
  sort?: unknown[];
}

export interface SearchResult {
  index: string;
  url: string;
  /** ISO time the answer arrived, from the clock. */
  fetchedAt: string;
  total: number;
  hits: RawSearchHit[];
  attempts: number;
  tookMs: number | null;
}

const KEY_REFUSED =
  "DataJud refused the key (HTTP 401): it is mistyped or CNJ rotated it; compare DATAJUD_API_KEY with the current public key on the DataJud wiki (https://datajud-wiki.cnj.jus.br/api-publica/acesso)";

const EsHit = z.looseObject({
  _id: z.union([z.string(), z.number()]).transform(String),
  _index: z.string().optional().catch(undefined),
  _source: z.unknown().optional(),
  sort: z.array(z.unknown()).optional().catch(undefined),
});

/**
 * The parts of an Elasticsearch 7 search answer we rely on. Lenient about everything else;
 * strict about what decides whether the hits are complete (`_shards`, `timed_out`).
 */
export const SearchEnvelope = z.looseObject({
  took: z.number().optional().catch(undefined),
  timed_out: z.boolean().optional(),
  _shards: z
    .looseObject({
      total: z.number().optional().catch(undefined),
      successful: z.number().optional().catch(undefined),
      failed: z.number().optional(),
    })
    .optional(),
  hits: z.looseObject({
    total: z
      .union([z.number(), z.looseObject({ value: z.number(), relation: z.string().optional() })])
      .optional(),
    hits: z.array(EsHit),
  }),
});
export type SearchEnvelope = z.infer<typeof SearchEnvelope>;

const EsCause = z.looseObject({
  type: z.string().optional().catch(undefined),
  reason: z.string().optional().catch(undefined),
});

const EsErrorBody = z.looseObject({
  error: z.union([
    z.string(),
    z.looseObject({
      type: z.string().optional().catch(undefined),
      reason: z.string().optional().catch(undefined),
      root_cause: z.array(EsCause).optional().catch(undefined),
      caused_by: EsCause.optional().catch(undefined),
    }),
  ]),
});

/** Elasticsearch refusing work because it is overloaded, whatever HTTP status carries it. */
const REJECTION = /rejected_execution|circuit_breaking/;

interface EsErrorSummary {
  type: string | undefined;
  reason: string | undefined;
}

function esError(json: unknown): EsErrorSummary | undefined {
  const parsed = EsErrorBody.safeParse(json);
  if (!parsed.success) return undefined;
  const error = parsed.data.error;
  if (typeof error === "string") return { type: undefined, reason: error };
  // root_cause names what is actually wrong; the top level is often a generic phase failure.
  const root = error.root_cause?.[0];
  const types = [error.type, root?.type, error.caused_by?.type].filter((t) => t !== undefined);
  return {
    type: types.find((t) => REJECTION.test(t)) ?? root?.type ?? error.type,
    reason: root?.reason ?? error.reason ?? error.caused_by?.reason,
  };
}

function describeEs(es: EsErrorSummary | undefined): string {
  if (!es) return "";
  const parts = [es.type, es.reason].filter((p) => p !== undefined && p !== "");
  return parts.length > 0 ? `: ${clip(parts.join(": "))}` : "";
}

/**
 * Why a 200 cannot be taken as the whole answer, or null when it can: every shard accounted for
 * as successful (ES counts skipped shards among them), none failed, not timed out. An answer that
 * does not say (no `_shards`) is not complete either: read as complete, a lost shard would turn
 * its cases into "not found" and, sweeps later, into "gone".
 */
function incompleteness(
  envelope: SearchEnvelope,
): { kind: "partial_shards" | "bad_response"; what: string } | null {
  const shards = envelope._shards;
  const failed = shards?.failed ?? 0;
  if (failed > 0) {
    const of = shards?.total === undefined ? "" : ` of ${shards.total}`;
    return { kind: "partial_shards", what: `${failed}${of} shards failed` };
  }
  if (envelope.timed_out === true) {
    return { kind: "partial_shards", what: "a search that timed out inside (timed_out: true)" };
  }
  if (shards?.total === undefined || shards.successful === undefined) {
    return { kind: "bad_response", what: "no shard count (_shards.total and .successful)" };
  }
  if (shards.successful < shards.total) {
    return {
      kind: "partial_shards",
      what: `only ${shards.successful} of ${shards.total} shards answered`,
    };
  }
  return null;
}

/** Not a count-only query (`size: 0`) and not a later page (`from`, `search_after`). */
export function asksForFirstPage(body: Record<string, unknown>): boolean {
  const size = body.size === undefined ? 10 : Number(body.size);
  const from = body.from === undefined ? 0 : Number(body.from);
  return size > 0 && from === 0 && body.search_after === undefined;
}

/** One HTTP answer, as the client received it. */
export interface SearchAnswer {
  index: string;
  url: string;
  /** The query asked for the first page of hits, so a positive total must come with some. */
  expectsHits: boolean;
  /** 1-based attempt number, for the result. */
  attempt: number;
  status: number;
  /** The Retry-After header, when there was one. */
  retryAfter: string | null;
  text: string;
  /** When the answer arrived (ms): its fetchedAt, and what Retry-After dates are measured from. */
  now: number;
}

export type ReadAnswer =
  | { ok: true; result: SearchResult }
  | {
      ok: false;
      kind: DataJudErrorKind;
      message: string;
      options: DataJudErrorOptions;
      retryAfterMs?: number;
    };

/** The hits of a complete answer, or why it is not one (every HTTP status DataJud may send). */
export function readSearchAnswer(answer: SearchAnswer): ReadAnswer {
  const { index, status } = answer;
  const json = parseJson(answer.text);
  if (status >= 200 && status < 300) return readSuccess(answer, json);

  const retryAfterMs = parseRetryAfter(answer.retryAfter, answer.now);
  const retryAfter = retryAfterMs === undefined ? {} : { retryAfterMs };
  const waitHint =
    retryAfterMs === undefined ? {} : { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) };
  const es = esError(json);
  const detail = describeEs(es);
  const fail = (
    kind: DataJudErrorKind,
    message: string,
    extra: DataJudErrorOptions = {},
  ): ReadAnswer => ({
    ok: false,
    kind,
    message,
    options: { status, index, ...waitHint, ...extra },
    ...retryAfter,
  });

  if (es?.type !== undefined && REJECTION.test(es.type)) {
    return fail(
      "rejected",
      `DataJud's cluster rejected the search on ${index} (HTTP ${status})${detail}`,
    );
  }
  if (status === 400) {
    return fail("bad_request", `DataJud refused the query to ${index} (HTTP 400)${detail}`);
  }
  if (status === 401) return fail("auth", KEY_REFUSED);
  if (status === 403) {
    return fail(
      "forbidden",
      `DataJud refused access to ${index} (HTTP 403): the API key is valid but may not read this index${detail}`,
    );
  }
  if (status === 404) {
    const alias = index.slice("api_publica_".length);
    return fail(
      "unknown_index",
      `DataJud has no index ${index} (HTTP 404): "${alias}" is not a DataJud court alias; check \`court\``,
    );
  }
  if (status === 408) {
    return fail("timeout", `DataJud gave up waiting for our request to ${index} (HTTP 408)`);
  }
  if (status === 429) {
    return fail(
      "rate_limited",
      `DataJud is rate limiting requests (HTTP 429) to ${index}${detail}`,
    );
  }
  if (status >= 500) return fail("server", `DataJud answered HTTP ${status} for ${index}${detail}`);
  if (status >= 400) {
    return fail("bad_request", `DataJud refused the request to ${index} (HTTP ${status})${detail}`);
  }
  return fail("bad_response", `DataJud answered ${index} with an unexpected HTTP ${status}`);
}

function readSuccess(answer: SearchAnswer, json: unknown): ReadAnswer {
  const { index } = answer;
  const bad = (message: string): ReadAnswer => ({
    ok: false,
    kind: "bad_response",
    message,
    options: { index, status: 200 },
  });
  if (json === undefined)
    return bad(`DataJud answered ${index} with HTTP 200 but a body that is not JSON`);
  const parsed = SearchEnvelope.safeParse(json);
  if (!parsed.success) {
    const es = esError(json);
    if (es?.type !== undefined && REJECTION.test(es.type)) {
      return {
        ok: false,
        kind: "rejected",
        message: `DataJud's cluster rejected the search on ${index}${describeEs(es)}`,
        options: { index, status: 200 },
      };
    }
    const where = parsed.error.issues[0]?.path.join(".") ?? "";
    return bad(
      `DataJud answered ${index} with HTTP 200 but not a search response${where ? ` (at ${where})` : ""}`,
    );
  }
  const envelope = parsed.data;
  const incomplete = incompleteness(envelope);
  if (incomplete !== null) {
    return {
      ok: false,
      kind: incomplete.kind,
      message: `DataJud answered ${index} with ${incomplete.what}; the hits may be incomplete, so they are not used`,
      options: { index, status: 200 },
    };
  }
  const hits = envelope.hits.hits.map(
    (hit): RawSearchHit => ({
      _id: hit._id,
      _index: hit._index ?? index,
      _source: hit._source,
      ...(hit.sort === undefined ? {} : { sort: hit.sort }),
    }),
  );
  const rawTotal = envelope.hits.total;
  const total =
    rawTotal === undefined ? hits.length : typeof rawTotal === "number" ? rawTotal : rawTotal.value;
  if (answer.expectsHits && total > 0 && hits.length === 0) {
    // Seen live: a total without its hits. Read as "no such case" it would count towards
    // declaring a watched case gone; it is a broken answer, worth another attempt.
    return bad(
      `DataJud answered ${index} with ${total} matching record(s) but no hits; the answer is incomplete, so it is not used`,
    );
  }
  return {
    ok: true,
    result: {
      index,
      url: answer.url,
      fetchedAt: new Date(answer.now).toISOString(),
      total,
      hits,
      attempts: answer.attempt,
      tookMs: envelope.took ?? null,
    },
  };
}
