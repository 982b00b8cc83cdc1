import { parseCnjNumber } from "../datajud/cnj-number.js";
import { type IsoDate, parseIsoDate } from "../time/calendar-date.js";
import { djenInvalidInput } from "./errors.js";
import { formatOab, type OabRegistration, sameRegistration } from "./oab.js";
import type { Publication } from "./publication.js";

/** What to ask DJEN for: a case, or one `numeroOab` string of a registration, or both. */
export interface DjenQuery {
  /** 20 digits, check digits verified. */
  caseNumber?: string;
  /** `number` is what is sent (a suffix variant); `registration` is what items must name. */
  oab?: { number: string; registration: OabRegistration };
  /** DJEN's court acronym, upper case (TJSP). */
  court?: string;
  /**
   * A party's name (`nomeParte`). DJEN's match is loose and undocumented (by tokens, accents
   * ignored): what it returns is never taken as naming the party; the radar reads it again.
   */
  partyName?: string;
  /** Disponibilização dates, both included; give both or neither. */
  from?: IsoDate;
  to?: IsoDate;
}

export interface DjenQueryInput {
  caseNumber?: string;
  oab?: OabRegistration;
  /** Which `numeroOab` string to send; the registration's bare number when absent. */
  oabVariant?: string;
  court?: string;
  partyName?: string;
  from?: string;
  to?: string;
}

/** DJEN does not document a longer window; 10,000 items at most come back for any query. */
const MAX_WINDOW_DAYS = 366;

/** Checks and normalizes a query; errors say what to fix. */
export function djenQuery(input: DjenQueryInput): DjenQuery {
  const query: DjenQuery = {};
  if (input.caseNumber !== undefined) {
    const parsed = parseCnjNumber(input.caseNumber);
    if (!parsed.ok) throw djenInvalidInput(parsed.error);
    query.caseNumber = parsed.value.digits;
  }
  if (input.oab !== undefined) {
    const number = input.oabVariant ?? input.oab.number;
    if (!/^\d{1,7}(-[A-Z])?$/u.test(number)) {
      throw djenInvalidInput(`"${number}" is not an OAB number to send (digits, optional -X)`);
    }
    query.oab = { number, registration: input.oab };
  }
  if (input.partyName !== undefined) {
    const name = input.partyName.replace(/\s+/gu, " ").trim();
    if (name.length < 3 || name.length > 200) {
      throw djenInvalidInput(
        `a party's name to ask DJEN has 3 to 200 characters, got ${name.length}`,
      );
    }
    query.partyName = name;
  }
  if (query.caseNumber === undefined && query.oab === undefined && query.partyName === undefined) {
    throw djenInvalidInput(
      "a DJEN search needs a case number, an OAB registration or a party's name (a court alone is the whole day's feed)",
    );
  }
  if (input.court !== undefined) {
    const court = input.court.trim().toUpperCase();
    if (!/^[A-Z0-9]{2,12}$/u.test(court)) {
      throw djenInvalidInput(`"${input.court}" is not a court acronym like TJSP, TRF1 or TRT2`);
    }
    query.court = court;
  }
  if ((input.from === undefined) !== (input.to === undefined)) {
    throw djenInvalidInput("give both dates of the window (from and to) or neither");
  }
  if (input.from !== undefined && input.to !== undefined) {
    const from = parseIsoDate(input.from);
    const to = parseIsoDate(input.to);
    if (from === null || to === null) {
      throw djenInvalidInput(
        `the window ${input.from} to ${input.to} is not two dates written YYYY-MM-DD`,
      );
    }
    if (from > to) throw djenInvalidInput(`the window starts (${from}) after it ends (${to})`);
    const days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
    if (days > MAX_WINDOW_DAYS) {
      throw djenInvalidInput(
        `the window ${from} to ${to} spans ${days} days; ask for at most ${MAX_WINDOW_DAYS}`,
      );
    }
    query.from = from;
    query.to = to;
  }
  return query;
}

/** The query string of one page (`pagina` from 1). */
export function queryParams(query: DjenQuery, page: number, pageSize: number): URLSearchParams {
  const params = new URLSearchParams();
  if (query.caseNumber !== undefined) params.set("numeroProcesso", query.caseNumber);
  if (query.oab !== undefined) {
    params.set("numeroOab", query.oab.number);
    params.set("ufOab", query.oab.registration.uf);
  }
  if (query.court !== undefined) params.set("siglaTribunal", query.court);
  if (query.partyName !== undefined) params.set("nomeParte", query.partyName);
  if (query.from !== undefined && query.to !== undefined) {
    params.set("dataDisponibilizacaoInicio", query.from);
    params.set("dataDisponibilizacaoFim", query.to);
  }
  params.set("pagina", String(page));
  params.set("itensPorPagina", String(pageSize));
  return params;
}

/** "case 0000000-00..., OAB 123456-O (123456/SP), TJSP, 2025-09-29 to 2025-09-30" */
export function describeQuery(query: DjenQuery): string {
  const parts: string[] = [];
  if (query.caseNumber !== undefined) parts.push(`case ${query.caseNumber}`);
  if (query.oab !== undefined) {
    parts.push(`OAB ${query.oab.number} (${formatOab(query.oab.registration)})`);
  }
  if (query.partyName !== undefined) parts.push(`party "${query.partyName}"`);
  if (query.court !== undefined) parts.push(query.court);
  if (query.from !== undefined) parts.push(`${query.from} to ${query.to}`);
  return parts.join(", ");
}

/**
 * Why a returned publication is not an answer to the query, or null when it is. DJEN silently
 * ignores a parameter it does not know and returns the whole day's feed; an item that names
 * another case, no lawyer of the registration, another court or another date shows it did.
 */
export function mismatch(query: DjenQuery, publication: Publication): string | null {
  const item = `item ${publication.id}`;
  if (query.caseNumber !== undefined && publication.caseNumber !== query.caseNumber) {
    return `${item} is for case ${publication.caseNumber ?? "(none)"}, not ${query.caseNumber}`;
  }
  const registration = query.oab?.registration;
  if (
    registration !== undefined &&
    !publication.lawyers.some((lawyer) => sameRegistration(registration, lawyer))
  ) {
    const named = publication.lawyers.map((l) => `${l.oabNumber ?? "?"}/${l.uf ?? "?"}`);
    return `${item} names no lawyer ${formatOab(registration)} (it names ${named.length === 0 ? "none" : named.join(", ")})`;
  }
  if (query.court !== undefined && publication.court !== query.court) {
    return `${item} is from ${publication.court}, not ${query.court}`;
  }
  if (
    query.from !== undefined &&
    query.to !== undefined &&
    (publication.availableOn < query.from || publication.availableOn > query.to)
  ) {
    return `${item} was made available on ${publication.availableOn}, outside ${query.from} to ${query.to}`;
  }
  return null;
}
