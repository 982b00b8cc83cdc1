import { formatCnjNumber } from "./cnj-number.js";
import { DataJudError } from "./errors.js";
import type { InstanceFingerprint, InstanceRecord, Provenance } from "./instance-record.js";
import {
  caseFingerprint,
  type DriftCounter,
  normalizeFingerprint,
  normalizeInstanceRecord,
} from "./normalize.js";
import {
  batchCaseQuery,
  type CaseSearchFilters,
  caseQuery,
  encodeCursor,
  fingerprintQuery,
  type SearchBody,
  searchCasesQuery,
} from "./queries.js";

/** The one thing the reader needs from the HTTP client (http-client.ts implements it). */
export interface DataJudSearcher {
  search(
    alias: string,
    body: Record<string, unknown>,
    options?: { signal?: AbortSignal },
  ): Promise<{
    index: string;
    url: string;
    fetchedAt: string;
    total: number;
    hits: Array<{ _id: string; _source: unknown; sort?: unknown[] }>;
  }>;
}

export interface CaseLookup {
  court: string;
  cnjNumber: string;
  found: boolean;
  records: InstanceRecord[];
  provenance: Provenance;
  /** Set when this case alone could not be read (its record is too large); `found` is then false. */
  error: { kind: string; message: string } | null;
}

export interface CaseFingerprints {
  cnjNumber: string;
  found: boolean;
  /** Null when not found. */
  fingerprint: string | null;
  instances: InstanceFingerprint[];
  provenance: Provenance;
}

export interface SearchPage {
  court: string;
  total: number;
  results: InstanceRecord[];
  nextCursor: string | null;
  provenance: Provenance;
}

export interface CaseReaderOptions {
  /** Numbers per `terms` query; DataJud answers 100 comfortably. */
  batchSize?: number;
}

type Hit = { _id: string; _source: unknown; sort?: unknown[] };

/**
 * Most movements read from one instance record: a bound against a broken or hostile answer, not
 * against real cases. It was 10,000, and a case past it (long executions, mass-claim cases) failed
 * every sweep forever; DataJud serves a record whole (`movimentos` is a plain array in `_source`,
 * not pageable), so the bound is raised, not paged around. Real movements are about 500 bytes, so
 * the answer's byte cap (datajud.maxResponseMb, 8 MiB) refuses a real record long before this
 * count; the count only stops an answer of near-empty movements that would fit in the byte cap.
 */
export const MOVEMENTS_MAX = 50_000;

function movementsOf(hit: Hit): number {
  const source = hit._source;
  if (source === null || typeof source !== "object") return 0;
  const list = (source as { movimentos?: unknown }).movimentos;
  return Array.isArray(list) ? list.length : 0;
}

/** The error for a case whose record lists more movements than are read; null when none does. */
function crowdedRecord(hits: readonly Hit[], court: string): DataJudError | null {
  const most = Math.max(0, ...hits.map(movementsOf));
  if (most <= MOVEMENTS_MAX) return null;
  return new DataJudError(
    "too_large",
    `DataJud lists ${most.toLocaleString("en")} movements in one record of this case; at most ${MOVEMENTS_MAX.toLocaleString("en")} are read, so it was not read`,
    { retryable: false, index: `api_publica_${court}` },
  );
}

interface Answer {
  provenance: Provenance;
  hits: Hit[];
  total: number;
}

/** An answer with the numbers it was asked about, so a number with no hit still has provenance. */
interface Asked {
  asked: readonly string[];
  answer: Answer;
}

/** A number whose own answer could not be read: the rest of the batch still is. */
interface Unread {
  asked: readonly string[];
  error: DataJudError;
}

interface Collected {
  hits: Hit[];
  provenance: Provenance;
  error: DataJudError | null;
}

function digitsOfSource(source: unknown): string {
  if (source === null || typeof source !== "object") return "";
  const value = (source as { numeroProcesso?: unknown }).numeroProcesso;
  return typeof value === "string" || typeof value === "number"
    ? String(value).replace(/\D/g, "")
    : "";
}

function byOrder(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Reads cases from DataJud in as few requests as possible: one `terms` query per batch of numbers,
 * split when a batch holds more records than one page, and one query per number if DataJud ever
 * refuses `terms` (remembered for the life of the reader).
 */
export class CaseReader {
  readonly #searcher: DataJudSearcher;
  readonly #batchSize: number;
  readonly #drift: DriftCounter = new Map();
  #termsRefused = false;

  constructor(searcher: DataJudSearcher, options: CaseReaderOptions = {}) {
    this.#searcher = searcher;
    this.#batchSize = Math.max(1, Math.min(options.batchSize ?? 100, 1000));
  }

  /** Unknown `_source` fields seen so far, with how often: the live API drifting. */
  drift(): Record<string, number> {
    return Object.fromEntries(this.#drift);
  }

  get termsRefused(): boolean {
    return this.#termsRefused;
  }

  async getCase(digits: string, court: string, signal?: AbortSignal): Promise<CaseLookup> {
    const answer = await this.#search(court, caseQuery(digits), signal);
    const hits = answer.hits.filter((hit) => digitsOfSource(hit._source) === digits);
    const crowded = crowdedRecord(hits, court);
    if (crowded !== null) throw crowded;
    const records = hits
      .map((hit) => normalizeInstanceRecord(hit, court, this.#drift))
      .sort(byOrder);
    return {
      court,
      cnjNumber: formatCnjNumber(digits),
      found: records.length > 0,
      records,
      provenance: answer.provenance,
      error: null,
    };
  }

  /** Full records of many numbers of one court. */
  async readCases(
    court: string,
    digits: readonly string[],
    signal?: AbortSignal,
  ): Promise<CaseLookup[]> {
    const grouped = await this.#collect(court, digits, batchCaseQuery, signal);
    return unique(digits).map((d) => {
      const entry = grouped.get(d);
      const hits = entry?.hits ?? [];
      const error = entry?.error ?? crowdedRecord(hits, court);
      const records =
        error !== null
          ? []
          : hits.map((hit) => normalizeInstanceRecord(hit, court, this.#drift)).sort(byOrder);
      return {
        court,
        cnjNumber: formatCnjNumber(d),
        found: records.length > 0,
        records,
        provenance: provenanceOf(entry, court),
        error: error === null ? null : { kind: error.kind, message: error.message },
      };
    });
  }

  /** Per number, per instance record, the fields that move when DataJud touches a record. */
  async fingerprintCases(
    court: string,
    digits: readonly string[],
    signal?: AbortSignal,
  ): Promise<CaseFingerprints[]> {
    const grouped = await this.#collect(court, digits, fingerprintQuery, signal);
    // A fingerprint answer is a few fields per record: one too large to read is no answer at all.
    for (const entry of grouped.values()) if (entry.error !== null) throw entry.error;
    return unique(digits).map((d) => {
      const entry = grouped.get(d);
      const instances = (entry?.hits ?? [])
        .map((hit) => normalizeFingerprint(hit, this.#drift))
        .sort(byOrder);
      return {
        cnjNumber: formatCnjNumber(d),
        found: instances.length > 0,
        fingerprint: instances.length > 0 ? caseFingerprint(instances) : null,
        instances,
        provenance: provenanceOf(entry, court),
      };
    });
  }

  async searchCases(
    court: string,
    filters: CaseSearchFilters,
    size: number,
    cursor?: string,
    signal?: AbortSignal,
  ): Promise<SearchPage> {
    const body = searchCasesQuery(filters, size, cursor);
    const answer = await this.#search(court, body, signal);
    const results = answer.hits.map((hit) => normalizeInstanceRecord(hit, court, this.#drift));
    const last = answer.hits.at(-1);
    const more = answer.hits.length === size && last?.sort !== undefined;
    return {
      court,
      total: answer.total,
      results,
      nextCursor: more && last?.sort ? encodeCursor(last.sort) : null,
      provenance: answer.provenance,
    };
  }

  async #collect(
    court: string,
    digits: readonly string[],
    build: (digits: readonly string[]) => SearchBody,
    signal: AbortSignal | undefined,
  ): Promise<Map<string, Collected>> {
    const wanted = unique(digits);
    const grouped = new Map<string, Collected>();
    const keep = (result: Asked | Unread): void => {
      if ("error" in result) {
        const index = result.error.index ?? `api_publica_${court}`;
        const provenance = { index, url: "", fetchedAt: "" };
        for (const d of result.asked) grouped.set(d, { hits: [], provenance, error: result.error });
        return;
      }
      const { asked, answer } = result;
      for (const d of asked)
        grouped.set(d, { hits: [], provenance: answer.provenance, error: null });
      for (const hit of answer.hits) {
        const entry = grouped.get(digitsOfSource(hit._source));
        if (entry && !entry.hits.some((h) => h._id === hit._id)) entry.hits.push(hit);
      }
    };
    for (let i = 0; i < wanted.length; i += this.#batchSize) {
      const batch = wanted.slice(i, i + this.#batchSize);
      if (!this.#termsRefused) {
        try {
          for (const asked of await this.#batch(court, batch, build, signal)) keep(asked);
          continue;
        } catch (error) {
          if (!(error instanceof DataJudError) || error.kind !== "bad_request") throw error;
          // Some deployments refuse `terms`; one query per number is slower but always accepted.
          this.#termsRefused = true;
        }
      }
      for (const d of batch) {
        const body = { ...build([d]), query: caseQuery(d).query };
        try {
          keep({ asked: [d], answer: await this.#search(court, body, signal) });
        } catch (error) {
          if (!isTooLarge(error)) throw error;
          keep({ asked: [d], error });
        }
      }
    }
    return grouped;
  }

  async #batch(
    court: string,
    batch: readonly string[],
    build: (digits: readonly string[]) => SearchBody,
    signal: AbortSignal | undefined,
  ): Promise<Array<Asked | Unread>> {
    let answer: Answer;
    try {
      answer = await this.#search(court, build(batch), signal);
    } catch (error) {
      if (!isTooLarge(error)) throw error;
      // Halve until the one number whose record is too large is alone; only it goes unread.
      if (batch.length === 1) return [{ asked: batch, error }];
      const middle = Math.ceil(batch.length / 2);
      return [
        ...(await this.#batch(court, batch.slice(0, middle), build, signal)),
        ...(await this.#batch(court, batch.slice(middle), build, signal)),
      ];
    }
    if (answer.total <= answer.hits.length) return [{ asked: batch, answer }];
    if (batch.length === 1) {
      throw new DataJudError(
        "bad_response",
        `DataJud reports ${answer.total} records for one number in ${court} but returned ${answer.hits.length}`,
        { retryable: false, index: answer.provenance.index },
      );
    }
    // More records than one page holds: halve the batch rather than page, so nothing is skipped.
    const middle = Math.ceil(batch.length / 2);
    return [
      ...(await this.#batch(court, batch.slice(0, middle), build, signal)),
      ...(await this.#batch(court, batch.slice(middle), build, signal)),
    ];
  }

  async #search(court: string, body: SearchBody, signal: AbortSignal | undefined): Promise<Answer> {
    const result = await this.#searcher.search(court, body, signal ? { signal } : {});
    return {
      hits: result.hits,
      total: result.total,
      provenance: { index: result.index, url: result.url, fetchedAt: result.fetchedAt },
    };
  }
}

function isTooLarge(error: unknown): error is DataJudError {
  return error instanceof DataJudError && error.kind === "too_large";
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function provenanceOf(entry: { provenance: Provenance } | undefined, court: string): Provenance {
  // Every asked number gets an entry in #collect; this only guards the type.
  if (entry === undefined) throw new Error(`no DataJud answer recorded for a number of ${court}`);
  return entry.provenance;
}
