import { toDataJudDate } from "./dates.js";
import { invalidInput } from "./errors.js";

/** `_source` of a fingerprint query: only what tells us a record moved. */
export const FINGERPRINT_FIELDS = [
  "numeroProcesso",
  "grau",
  "id",
  "dataHoraUltimaAtualizacao",
  "@timestamp",
] as const;

/** Upper bound on instance records per number we expect (G1, G2, JE, TR, superior...). */
const RECORDS_PER_NUMBER = 10;
const MAX_PAGE = 10_000;

/** The order search_after pages by (search_cases only; batches never page, they split). */
export const PAGE_SORT = [{ "@timestamp": { order: "asc" } }];

export type SearchBody = Record<string, unknown>;

export function caseQuery(digits: string): SearchBody {
  return { size: RECORDS_PER_NUMBER * 2, query: { match: { numeroProcesso: digits } } };
}

function batchSize(count: number): number {
  return Math.min(MAX_PAGE, Math.max(1, count) * RECORDS_PER_NUMBER);
}

/** Room for every instance record of every number; a fuller answer is split, never paged. */
export function batchCaseQuery(digits: readonly string[]): SearchBody {
  return {
    size: batchSize(digits.length),
    track_total_hits: true,
    query: { terms: { numeroProcesso: [...digits] } },
  };
}

export function fingerprintQuery(digits: readonly string[]): SearchBody {
  return { ...batchCaseQuery(digits), _source: [...FINGERPRINT_FIELDS] };
}

export interface CaseSearchFilters {
  classCode?: number;
  className?: string;
  subjectCodes?: number[];
  courtUnitCode?: number;
  /** ISO date, YYYY-MM-DD */
  filedFrom?: string;
  filedTo?: string;
}

export function searchCasesQuery(
  filters: CaseSearchFilters,
  size: number,
  cursor?: string,
): SearchBody {
  const filter: unknown[] = [];
  if (filters.classCode !== undefined)
    filter.push({ term: { "classe.codigo": filters.classCode } });
  if (filters.className !== undefined) filter.push({ match: { "classe.nome": filters.className } });
  if (filters.subjectCodes !== undefined && filters.subjectCodes.length > 0) {
    filter.push({ terms: { "assuntos.codigo": filters.subjectCodes } });
  }
  if (filters.courtUnitCode !== undefined) {
    filter.push({ term: { "orgaoJulgador.codigo": filters.courtUnitCode } });
  }
  if (filters.filedFrom !== undefined || filters.filedTo !== undefined) {
    // ISO dates match nothing: dataAjuizamento is stored as yyyyMMddHHmmss.
    const range: Record<string, string> = {};
    if (filters.filedFrom !== undefined) range.gte = toDataJudDate(filters.filedFrom, "start");
    if (filters.filedTo !== undefined) range.lte = toDataJudDate(filters.filedTo, "end");
    filter.push({ range: { dataAjuizamento: range } });
  }
  if (filter.length === 0) {
    throw invalidInput(
      "search_cases needs at least one filter (classCode, className, subjectCodes, courtUnitCode, filedFrom or filedTo)",
    );
  }
  return {
    size,
    query: { bool: { filter } },
    sort: PAGE_SORT,
    track_total_hits: true,
    ...(cursor === undefined ? {} : { search_after: decodeCursor(cursor) }),
  };
}

export function encodeCursor(sort: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(sort), "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): unknown[] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value)) return value;
  } catch {
    // fall through to the error below
  }
  throw invalidInput(
    "cursor is not one this server returned; pass the nextCursor of a previous search_cases call",
  );
}
