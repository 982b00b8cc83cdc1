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
    const records = answer.hits
      .filter((hit) => digitsOfSource(hit._source) === digits)
      .map((hit) => normalizeInstanceRecord(hit, court, this.#drift))
      .sort(byOrder);
    return {
      court,
      cnjNumber: formatCnjNumber(digits),
      found: records.length > 0,
      records,
      provenance: answer.provenance,
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
      const records = (entry?.hits ?? [])
        .map((hit) => normalizeInstanceRecord(hit, court, this.#drift))
        .sort(byOrder);
      return {
        court,
        cnjNumber: formatCnjNumber(d),
        found: records.length > 0,
        records,
        provenance: provenanceOf(entry, court),
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
  ): Promise<Map<string, { hits: Hit[]; provenance: Provenance }>> {
    const wanted = unique(digits);
    const grouped = new Map<string, { hits: Hit[]; provenance: Provenance }>();
    const keep = ({ asked, answer }: Asked): void => {
      for (const d of asked) grouped.set(d, { hits: [], provenance: answer.provenance });
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
        keep({ asked: [d], answer: await this.#search(court, body, signal) });
      }
    }
    return grouped;
  }

  async #batch(
    court: string,
    batch: readonly string[],
    build: (digits: readonly string[]) => SearchBody,
    signal: AbortSignal | undefined,
  ): Promise<Asked[]> {
    const answer = await this.#search(court, build(batch), signal);
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

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function provenanceOf(entry: { provenance: Provenance } | undefined, court: string): Provenance {
  // Every asked number gets an entry in #collect; this only guards the type.
  if (entry === undefined) throw new Error(`no DataJud answer recorded for a number of ${court}`);
  return entry.provenance;
}
