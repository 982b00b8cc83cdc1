import { DjenError, djenUnreachableReason } from "./errors.js";
import { DJEN_COUNT_CAP, type DjenClient } from "./http-client.js";
import { type OabRegistration, oabQueryVariants } from "./oab.js";
import type { Publication } from "./publication.js";
import { type DjenQuery, describeQuery, djenQuery } from "./query.js";

/** Everything DJEN holds for one query, read page by page. */
export interface DjenSearchResult {
  query: DjenQuery;
  /** Distinct by id, in DJEN's order. */
  publications: Publication[];
  /** DJEN's last `count`. */
  count: number;
  pages: number;
  /** HTTP attempts, retries included. */
  requests: number;
  /** The first page's URL and arrival time: where the answer came from. */
  url: string;
  fetchedAt: string;
}

/** 10,000 items at 50 a page, and a few pages of slack for items arriving while we read. */
const MAX_PAGES = DJEN_COUNT_CAP / 50 + 5;

function addDistinct(seen: Map<string, Publication>, publications: Publication[]): void {
  for (const publication of publications) {
    if (!seen.has(publication.id)) seen.set(publication.id, publication);
  }
}

/**
 * Every page of `query`, until as many distinct items as DJEN counts were read. A query whose
 * count is at DJEN's cap fails (`too_many`) before paging: its real total is unknown, so what it
 * returned could never be called complete.
 */
export async function readAllPages(
  client: DjenClient,
  query: DjenQuery,
  signal?: AbortSignal,
): Promise<DjenSearchResult> {
  const seen = new Map<string, Publication>();
  const first = await client.page(query, 1, { readSoFar: 0, ...(signal ? { signal } : {}) });
  if (first.count >= DJEN_COUNT_CAP) {
    throw new DjenError(
      "too_many",
      `DJEN counts ${first.count} or more communications for ${describeQuery(query)}, its cap: the real total is unknown; narrow the window or add a court`,
      { retryable: false },
    );
  }
  addDistinct(seen, first.publications);
  let count = first.count;
  let requests = first.attempts;
  let pages = 1;
  while (seen.size < count) {
    if (pages >= MAX_PAGES) {
      throw new DjenError(
        "incomplete",
        `DJEN kept answering ${describeQuery(query)} past page ${pages} without reaching its count of ${count}`,
      );
    }
    pages += 1;
    const next = await client.page(query, pages, {
      readSoFar: seen.size,
      ...(signal ? { signal } : {}),
    });
    requests += next.attempts;
    count = next.count;
    addDistinct(seen, next.publications);
  }
  return {
    query,
    publications: [...seen.values()],
    count,
    pages,
    requests,
    url: first.url,
    fetchedAt: first.fetchedAt,
  };
}

export interface OabVariantOutcome {
  /** The `numeroOab` string sent. */
  number: string;
  /** Items DJEN counted for it, null when it failed. */
  count: number | null;
  error: DjenError | null;
}

export interface OabSearchResult {
  registration: OabRegistration;
  /** Distinct by id across every variant. */
  publications: Publication[];
  variants: OabVariantOutcome[];
  /** True only when every variant was read whole: otherwise the check failed, whatever it found. */
  complete: boolean;
  requests: number;
}

/**
 * Failures that every other variant would meet too: stop at the first. DJEN not reachable at all
 * (refused, DNS, TLS, no answer in time, retries spent) is one.
 */
const STOPS_ALL = new Set(["geo_blocked", "bad_request", "cancelled", "invalid_input"]);

function stopsAll(error: DjenError): boolean {
  return STOPS_ALL.has(error.kind) || djenUnreachableReason(error) !== null;
}

/**
 * Every communication addressed to a registration in a window: each suffix variant read in full,
 * merged by id. One variant failing leaves the rest read (they are kept) but the result
 * incomplete; a failure no variant can escape (403 abroad, a refused query) is thrown.
 */
export async function searchOab(
  client: DjenClient,
  registration: OabRegistration,
  filters: { court?: string; from: string; to: string },
  signal?: AbortSignal,
): Promise<OabSearchResult> {
  const seen = new Map<string, Publication>();
  const variants: OabVariantOutcome[] = [];
  const before = client.requestCount;
  for (const number of oabQueryVariants(registration)) {
    const query = djenQuery({ oab: registration, oabVariant: number, ...filters });
    try {
      const result = await readAllPages(client, query, signal);
      addDistinct(seen, result.publications);
      variants.push({ number, count: result.count, error: null });
    } catch (error) {
      if (!(error instanceof DjenError) || stopsAll(error)) throw error;
      variants.push({ number, count: null, error });
    }
  }
  return {
    registration,
    publications: [...seen.values()],
    variants,
    complete: variants.every((v) => v.error === null),
    requests: client.requestCount - before,
  };
}

export interface DjenSearchInput {
  caseNumber?: string;
  oab?: OabRegistration;
  court?: string;
  from?: string;
  to?: string;
}

/** One page of a search: for a registration, that page of every suffix variant, merged. */
export interface DjenSearchPage {
  page: number;
  pageSize: number;
  /** DJEN's counts added up over the variants (an item under two variants counts twice). */
  total: number;
  /** A count reached DJEN's cap: the real total is larger and unknown. */
  totalCapped: boolean;
  hasMore: boolean;
  /** Distinct by id. */
  publications: Publication[];
  urls: string[];
  fetchedAt: string;
}

/** Page `page` of a search, for a person or an agent browsing (the monitor reads everything). */
export async function searchPage(
  client: DjenClient,
  input: DjenSearchInput,
  page: number,
  signal?: AbortSignal,
): Promise<DjenSearchPage> {
  const { oab, ...rest } = input;
  const queries =
    oab === undefined
      ? [djenQuery(rest)]
      : oabQueryVariants(oab).map((oabVariant) => djenQuery({ ...rest, oab, oabVariant }));
  const seen = new Map<string, Publication>();
  const urls: string[] = [];
  let total = 0;
  let totalCapped = false;
  let hasMore = false;
  let fetchedAt = "";
  for (const query of queries) {
    const result = await client.page(query, page, signal ? { signal } : {});
    addDistinct(seen, result.publications);
    urls.push(result.url);
    fetchedAt ||= result.fetchedAt;
    total += result.count;
    totalCapped ||= result.count >= DJEN_COUNT_CAP;
    hasMore ||= page * result.pageSize < result.count;
  }
  return {
    page,
    pageSize: client.pageSize,
    total,
    totalCapped,
    hasMore,
    publications: [...seen.values()],
    urls,
    fetchedAt,
  };
}
