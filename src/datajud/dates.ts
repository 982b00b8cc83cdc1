import { invalidInput } from "./errors.js";

/**
 * DataJud dates. `dataAjuizamento` is stored as `yyyyMMddHHmmss` (an ISO range query on it
 * silently matches nothing); other fields arrive as ISO 8601 with or without zone and fraction,
 * sometimes as `yyyyMMdd`, sometimes as epoch milliseconds. Values without a zone are court local
 * time: America/Sao_Paulo, a fixed UTC-03:00 since Brazil dropped daylight saving in 2019.
 */

const LOCAL_OFFSET_MINUTES = -180;
const MINUTE_MS = 60_000;
const MIN_YEAR = 1900;
const MAX_YEAR = 2999;

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const COMPACT = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?)?$/;

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** Minutes east of UTC; null when the text named no zone. */
  offsetMinutes: number | null;
  hasTime: boolean;
  hasSeconds: boolean;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isValid(t: WallTime): boolean {
  return (
    t.year >= MIN_YEAR &&
    t.year <= MAX_YEAR &&
    t.month >= 1 &&
    t.month <= 12 &&
    t.day >= 1 &&
    t.day <= daysInMonth(t.year, t.month) &&
    t.hour <= 23 &&
    t.minute <= 59 &&
    t.second <= 59
  );
}

function parseOffset(zone: string | undefined): number | null {
  if (zone === undefined) return null;
  if (zone.toUpperCase() === "Z") return 0;
  const sign = zone.startsWith("-") ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 14 || minutes > 59) return Number.NaN;
  return sign * (hours * 60 + minutes);
}

function num(part: string | undefined): number {
  return part === undefined ? 0 : Number(part);
}

function parseIso(text: string): WallTime | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, fraction, zone] = m;
  const offsetMinutes = parseOffset(zone);
  if (Number.isNaN(offsetMinutes)) return null;
  return {
    year: num(y),
    month: num(mo),
    day: num(d),
    hour: num(h),
    minute: num(mi),
    second: num(s),
    // Elasticsearch's @timestamp carries nanoseconds; milliseconds are all a Date holds.
    millisecond: fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, "0")),
    offsetMinutes,
    hasTime: h !== undefined,
    hasSeconds: s !== undefined,
  };
}

function parseCompact(text: string): WallTime | null {
  const m = COMPACT.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m;
  return {
    year: num(y),
    month: num(mo),
    day: num(d),
    hour: num(h),
    minute: num(mi),
    second: num(s),
    millisecond: 0,
    offsetMinutes: null,
    hasTime: h !== undefined,
    hasSeconds: s !== undefined,
  };
}

function toEpochMs(t: WallTime): number {
  const offset = t.offsetMinutes ?? LOCAL_OFFSET_MINUTES;
  const wall = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, t.millisecond);
  return wall - offset * MINUTE_MS;
}

function isoFromEpoch(ms: number): string | null {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return null;
  const year = date.getUTCFullYear();
  if (year < MIN_YEAR || year > MAX_YEAR) return null;
  return date.toISOString();
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

/** Court local wall clock of an instant, as DataJud's compact form. */
function compactLocal(ms: number): string {
  const local = new Date(ms + LOCAL_OFFSET_MINUTES * MINUTE_MS);
  return [
    pad(local.getUTCFullYear(), 4),
    pad(local.getUTCMonth() + 1),
    pad(local.getUTCDate()),
    pad(local.getUTCHours()),
    pad(local.getUTCMinutes()),
    pad(local.getUTCSeconds()),
  ].join("");
}

/**
 * An ISO date for a DataJud range query on `dataAjuizamento`: "2023-01-01" -> "20230101000000",
 * or "20230101235959" with edge "end". Date-times are converted to court local time.
 */
export function toDataJudDate(isoDate: string, edge: "start" | "end" = "start"): string {
  const text = isoDate.trim();
  const parsed = parseIso(text);
  if (parsed === null || !isValid(parsed)) {
    throw invalidInput(
      `"${isoDate}" is not a valid date; use YYYY-MM-DD (or an ISO 8601 date-time such as 2023-01-01T10:00:00-03:00)`,
    );
  }
  const end = edge === "end";
  if (!parsed.hasTime) {
    return `${pad(parsed.year, 4)}${pad(parsed.month)}${pad(parsed.day)}${end ? "235959" : "000000"}`;
  }
  // A date-time given to the minute covers that whole minute at the upper edge.
  const second = parsed.hasSeconds ? parsed.second : end ? 59 : 0;
  return compactLocal(toEpochMs({ ...parsed, second, millisecond: 0 }));
}

function normalizeNumber(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  if (Number.isInteger(value) && value > 0) {
    // A compact date that lost its quotes would otherwise read as a far-future epoch.
    const compact = parseCompact(String(value));
    if (compact !== null && String(value).length >= 8 && isValid(compact)) {
      return isoFromEpoch(toEpochMs(compact));
    }
  }
  return isoFromEpoch(value);
}

function normalizeString(value: string): string | null {
  const text = value.trim();
  if (text === "") return null;
  if (/^\d+$/.test(text)) {
    if (text.length === 8 || text.length === 12 || text.length === 14) {
      const compact = parseCompact(text);
      if (compact !== null && isValid(compact)) return isoFromEpoch(toEpochMs(compact));
    }
    return text.length >= 9 && text.length <= 13 ? isoFromEpoch(Number(text)) : null;
  }
  const iso = parseIso(text);
  if (iso === null || !isValid(iso)) return null;
  return isoFromEpoch(toEpochMs(iso));
}

/** Any of DataJud's date forms as an ISO 8601 UTC string; null when unusable. Never throws. */
export function normalizeDataJudDate(raw: unknown): string | null {
  try {
    if (typeof raw === "number") return normalizeNumber(raw);
    if (typeof raw === "string") return normalizeString(raw);
    if (raw instanceof Date) return isoFromEpoch(raw.getTime());
    return null;
  } catch {
    return null;
  }
}

const SAO_PAULO = new Intl.DateTimeFormat("pt-BR", {
  timeZone: "America/Sao_Paulo",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** "10/05/2023 14:22" in São Paulo time, for people; text that is not a date comes back as is. */
export function formatSaoPaulo(iso: string): string {
  const normalized = normalizeDataJudDate(iso);
  if (normalized === null) return iso;
  const parts = Object.fromEntries(
    SAO_PAULO.formatToParts(new Date(normalized)).map((p) => [p.type, p.value]),
  );
  return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}`;
}
