import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import type { Socket } from "node:net";
import {
  DocumentIndices,
  esError,
  isObject,
  QueryError,
  type RecordedDocument,
} from "../../src/demo/elasticsearch/documents.js";
import { mentionsTerms } from "../../src/demo/elasticsearch/query.js";
import { type EsSearchResponse, searchDocuments } from "../../src/demo/elasticsearch/search.js";
import { readBody } from "./read-body.js";

/**
 * A loopback stand-in for DataJud's Elasticsearch 7 `_search` endpoint: real HTTP on 127.0.0.1,
 * the subset of the query DSL our query builders send (evaluated by src/demo/recorded-datajud.ts,
 * which the offline demo uses too), and the failures the live API shows (gateway errors,
 * rejections, partial shards, garbage, hangs). A query it cannot evaluate is a 400, never a
 * silent empty answer, so a builder that drifts out of the subset fails loudly.
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

export type FakeDocument = RecordedDocument;

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
  /** Requests received and not yet answered nor dropped by the client. */
  readonly inFlight: number;
  /** The most requests in flight at once so far (set it to 0 to count from now). */
  maxInFlight: number;
  /** Requests whose client hung up before their answer (aborted, timed out). */
  readonly abandoned: number;
  /**
   * Answers nothing (of that index, given an alias) until `release`: requests pile up in flight,
   * a slow DataJud without a clock. A fault taken meanwhile is answered on release.
   */
  hold(alias?: string): void;
  release(): void;
  close(): Promise<void>;
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

class FakeDataJudServer implements FakeDataJud {
  url = "";
  readonly apiKey: string;
  readonly requests: RecordedRequest[] = [];
  rejectTermsQueries = false;
  latencyMs: number;
  readonly server: Server;
  readonly #indices = new DocumentIndices();
  readonly #queue: FakeFault[] = [];
  #always: FakeFault | null = null;
  readonly #sockets = new Set<Socket>();
  readonly #timers = new Set<{ timer: NodeJS.Timeout; done: () => void }>();
  #closed = false;
  inFlight = 0;
  maxInFlight = 0;
  abandoned = 0;
  #held: { promise: Promise<void>; release: () => void; alias: string | undefined } | null = null;

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
    this.#indices.setDocuments(alias, docs);
  }

  upsert(alias: string, doc: FakeDocument): void {
    this.#indices.upsert(alias, doc);
  }

  remove(alias: string, id: string): void {
    this.#indices.remove(alias, id);
  }

  failNext(...faults: FakeFault[]): void {
    this.#queue.push(...faults);
  }

  failAlways(fault: FakeFault | null): void {
    this.#always = fault;
  }

  hold(alias?: string): void {
    this.release();
    let release = (): void => undefined;
    const promise = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#held = { promise, release, alias };
  }

  release(): void {
    this.#held?.release();
    this.#held = null;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.release();
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
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    res.once("close", () => {
      this.inFlight--;
      if (!res.writableFinished) this.abandoned++;
    });

    // Faults come before the key check: gateway errors in front of DataJud do not look at the key.
    const fault = this.#takeFault(alias);
    await this.#wait(this.latencyMs + (fault?.delayMs ?? 0));
    const held = this.#held;
    if (held !== null && (held.alias === undefined || held.alias === alias)) await held.promise;
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
    const index = this.#indices.documents(alias);
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
      answer = searchDocuments(alias, index, body);
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      this.#send(res, 400, esError(400, error.kind, error.message), headers);
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
