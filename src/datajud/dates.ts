import { daysInMonth } from "../time/calendar-date.js";
import { SAO_PAULO_ZONE, wallClockInZone, zoneOffsetMs } from "../time/zoned-time.js";
import { invalidInput, quoteInput } from "./errors.js";

/**
 * Two kinds of time meet in this project, and they are never mixed:
 *
 * - DataJud's dates (a movement's `dataHora`, `dataAjuizamento`, `dataHoraUltimaAtualizacao`) are
 *   the court's wall clock. Most arrive as ISO text ending in `Z`, but the `Z` is a label, not
 *   UTC: tacit-notice movements are stamped 23:59:59Z, batch jobs cluster at 00:00Z, office hours
 *   peak at 09-11Z (docs/alerts.md, "How DataJud dates are read"). They are read into a zone-less
 *   `WallClock` (`2025-11-04T00:15:00`, or `2025-11-04` for a day without a time) and shown as
 *   written, never shifted. Only 13-digit epoch milliseconds are real instants: those become São
 *   Paulo wall clock.
 * - Our own instants (checked, fetched, detected, sent at) are `Date#toISOString` text, shown in
 *   the schedule's time zone.
 */

/** `YYYY-MM-DDTHH:mm:ss`, or `YYYY-MM-DD` when DataJud gave a day only. Never has a zone. */
export type WallClock = string;

/** Courts' time zone: where an epoch instant from DataJud is turned into a wall clock. */
export const COURT_TIME_ZONE = SAO_PAULO_ZONE;

const LEGACY_OFFSET_MINUTES = -180;
const MINUTE_MS = 60_000;
const MIN_YEAR = 1900;
const MAX_YEAR = 2999;

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const COMPACT = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?)?$/;
/** `dd/MM/yyyy`, optionally with `HH:mm` or `HH:mm:ss`: what some courts' exports send. */
const BRAZILIAN = /^(\d{2})\/(\d{2})\/(\d{4})(?:[T ]+(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?$/;
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?$/;

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

function fractionMs(fraction: string | undefined): number {
  // Elasticsearch's @timestamp carries nanoseconds; milliseconds are all a Date holds.
  return fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, "0"));
}

function wallTime(
  parts: Array<string | undefined>,
  fraction: string | undefined,
  offsetMinutes: number | null,
): WallTime {
  const [y, mo, d, h, mi, s] = parts;
  return {
    year: num(y),
    month: num(mo),
    day: num(d),
    hour: num(h),
    minute: num(mi),
    second: num(s),
    millisecond: fractionMs(fraction),
    offsetMinutes,
    hasTime: h !== undefined,
    hasSeconds: s !== undefined,
  };
}

function parseIso(text: string): WallTime | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, fraction, zone] = m;
  const offsetMinutes = parseOffset(zone);
  if (Number.isNaN(offsetMinutes)) return null;
  return wallTime([y, mo, d, h, mi, s], fraction, offsetMinutes);
}

function parseCompact(text: string): WallTime | null {
  const m = COMPACT.exec(text);
  return m ? wallTime(m.slice(1, 7), undefined, null) : null;
}

function parseBrazilian(text: string): WallTime | null {
  const m = BRAZILIAN.exec(text);
  if (!m) return null;
  const [, d, mo, y, h, mi, s, fraction] = m;
  return wallTime([y, mo, d, h, mi, s], fraction, null);
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

function wallClockOf(t: WallTime): WallClock {
  const day = `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;
  return t.hasTime ? `${day}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}` : day;
}

/** A real instant as the courts' wall clock (São Paulo, with the daylight saving it had then). */
function courtWallClockOfInstant(ms: number): WallClock | null {
  if (!Number.isFinite(ms)) return null;
  const year = new Date(ms).getUTCFullYear();
  if (year < MIN_YEAR || year > MAX_YEAR) return null;
  return wallClockInZone(ms, COURT_TIME_ZONE);
}

/** Digits only: compact `yyyyMMdd[HHmm[ss]]`, or 13-digit epoch milliseconds. */
function wallClockOfDigits(text: string): WallClock | null {
  if (text.length === 8 || text.length === 12 || text.length === 14) {
    const compact = parseCompact(text);
    if (compact !== null && isValid(compact)) return wallClockOf(compact);
  }
  // Twelve digits that are no compact date are epoch milliseconds before 2001.
  return text.length === 12 || text.length === 13 ? courtWallClockOfInstant(Number(text)) : null;
}

function wallClockOfText(value: string): WallClock | null {
  const text = value.trim();
  if (text === "") return null;
  if (/^\d+$/.test(text)) return wallClockOfDigits(text);
  const parsed = parseIso(text) ?? parseBrazilian(text);
  // The zone DataJud wrote is dropped, not applied: its `Z` labels the court's own clock.
  return parsed !== null && isValid(parsed) ? wallClockOf(parsed) : null;
}

/**
 * Any form DataJud is known to send, as the court's wall clock: ISO with `Z`, an offset or no
 * zone, with or without a fraction; compact `yyyyMMdd[HHmm[ss]]` (also as a JSON number); a bare
 * day; `dd/MM/yyyy[ HH:mm[:ss]]`; 13-digit epoch milliseconds (the one real instant: converted to
 * São Paulo). Null when unusable. Never throws, never shifts a written time.
 */
export function parseDataJudDate(raw: unknown): WallClock | null {
  try {
    if (typeof raw === "number") {
      return Number.isInteger(raw) && raw > 0 ? wallClockOfDigits(String(raw)) : null;
    }
    if (typeof raw === "string") return wallClockOfText(raw);
    return null;
  } catch {
    return null;
  }
}

/** What DataJud sent for a date, kept beside our reading of it. */
export function rawDate(raw: unknown): string | number | null {
  return typeof raw === "string" || (typeof raw === "number" && Number.isFinite(raw)) ? raw : null;
}

function splitWallClock(value: string): { date: string; time: string | null } | null {
  const m = WALL_CLOCK.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi] = m;
  return { date: `${d}/${mo}/${y}`, time: h === undefined ? null : `${h}:${mi}` };
}

/**
 * A DataJud date for people, exactly as the court recorded it: "04/11/2025 00:15", or
 * "04/11/2025" for a day without a time. Any stored form is accepted (values written before
 * wall clocks were kept end in `Z`: their digits are the court's). Text that is not a date comes
 * back as is.
 */
export function formatWallClock(value: string): string {
  const parts = splitWallClock(parseDataJudDate(value) ?? "");
  if (parts === null) return value;
  return parts.time === null ? parts.date : `${parts.date} ${parts.time}`;
}

/** The day of a DataJud date, `YYYY-MM-DD`, for comparisons with a calendar day. */
export function wallClockDay(value: string): string | null {
  return parseDataJudDate(value)?.slice(0, 10) ?? null;
}

/**
 * One of our own instants (checked, fetched, detected, sent at) for people, in `timeZone` (the
 * schedule's): "04/11/2025 09:30". Text that is not an instant comes back as is.
 */
export function formatInstant(iso: string, timeZone: string = COURT_TIME_ZONE): string {
  const wallClock = instantWallClock(iso, timeZone);
  return wallClock === null ? iso : formatWallClock(wallClock);
}

/**
 * An instant another service wrote, as `Date#toISOString` text. DJEN writes its own times
 * (`data_cancelamento` "2025-09-30T18:00:00", `created_at`) without a zone. They are read as
 * UTC, as issue 26 found them (a cancellation mailed as that raw text read three hours off to a
 * lawyer in São Paulo); DJEN documents no zone, so a text that names one is applied instead. Null
 * when the text is no date and time: the caller keeps the raw text, so nothing is hidden.
 */
export function serviceInstant(text: string | null): string | null {
  if (text === null) return null;
  const t = parseIso(text.trim());
  if (t === null || !t.hasTime || !isValid(t)) return null;
  const ms =
    Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, t.millisecond) -
    (t.offsetMinutes ?? 0) * MINUTE_MS;
  return new Date(ms).toISOString();
}

/**
 * One of our own instants as the wall clock of `timeZone` (the schedule's), `2025-11-04T09:30:00`:
 * for a spreadsheet's date cells and CSV, which hold no zone. Null when not an instant.
 */
export function instantWallClock(
  iso: string,
  timeZone: string = COURT_TIME_ZONE,
): WallClock | null {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms) || !/(?:Z|[+-]\d{2}:?\d{2})$/i.test(iso.trim())) return null;
  return wallClockInZone(ms, timeZone);
}

/** How far the courts' clock is ahead of UTC at `ms`, to the minute. */
function courtOffsetMs(ms: number): number {
  return Math.round(zoneOffsetMs(ms, COURT_TIME_ZONE) / MINUTE_MS) * MINUTE_MS;
}

/**
 * The instant a São Paulo wall clock stands for (a bare day: its midnight). For arithmetic with
 * our instants, such as days without a movement; never for display. NaN when not a date.
 */
export function wallClockInstant(value: string): number {
  const m = WALL_CLOCK.exec(parseDataJudDate(value) ?? "");
  if (!m) return Number.NaN;
  const [, y, mo, d, h, mi, s] = m;
  const wall = Date.UTC(num(y), num(mo) - 1, num(d), num(h), num(mi), num(s));
  // Two passes settle the offset in force at that wall time (daylight saving until 2019).
  const first = wall - courtOffsetMs(wall);
  return wall - courtOffsetMs(first);
}

/**
 * A date a person typed (an MCP `since`, a search range) as a court wall clock: a day stays a
 * day, a date-time without a zone is taken as written, and one with a zone is a real instant,
 * converted to São Paulo. Throws invalid_input naming the expected form.
 */
export function wallClockOfInput(input: string): WallClock {
  const text = input.trim();
  const parsed = parseIso(text);
  if (parsed === null || !isValid(parsed)) {
    throw invalidInput(
      `${quoteInput(input)} is not a valid date; use YYYY-MM-DD (or an ISO 8601 date-time such as 2023-01-01T10:00:00-03:00)`,
    );
  }
  if (parsed.offsetMinutes === null) return wallClockOf(parsed);
  const instant =
    Date.UTC(parsed.year, parsed.month - 1, parsed.day, parsed.hour, parsed.minute, parsed.second) -
    parsed.offsetMinutes * MINUTE_MS;
  const wall = courtWallClockOfInstant(instant);
  if (wall === null) throw invalidInput(`"${input}" is outside the years DataJud holds`);
  return wall;
}

/**
 * An ISO date for a DataJud range query on `dataAjuizamento`: "2023-01-01" -> "20230101000000",
 * or "20230101235959" with edge "end". Date-times with a zone are converted to court local time.
 */
export function toDataJudDate(isoDate: string, edge: "start" | "end" = "start"): string {
  const wall = wallClockOfInput(isoDate);
  const end = edge === "end";
  const digits = wall.replace(/\D/g, "");
  if (digits.length === 8) return `${digits}${end ? "235959" : "000000"}`;
  // A date-time given to the minute covers that whole minute at the upper edge.
  const toTheMinute = parseIso(isoDate.trim())?.hasSeconds === false;
  return toTheMinute && end ? `${digits.slice(0, 12)}59` : digits;
}

// --- The instant reading of schema 1 and 2 ----------------------------------------------------

function legacyEpochMs(t: WallTime): number {
  const offset = t.offsetMinutes ?? LEGACY_OFFSET_MINUTES;
  const wall = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, t.millisecond);
  return wall - offset * MINUTE_MS;
}

function legacyIso(ms: number): string | null {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return null;
  const year = date.getUTCFullYear();
  if (year < MIN_YEAR || year > MAX_YEAR) return null;
  return date.toISOString();
}

function legacyFromNumber(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  if (Number.isInteger(value) && value > 0) {
    const compact = parseCompact(String(value));
    if (compact !== null && String(value).length >= 8 && isValid(compact)) {
      return legacyIso(legacyEpochMs(compact));
    }
  }
  return legacyIso(value);
}

function legacyFromString(value: string): string | null {
  const text = value.trim();
  if (text === "") return null;
  if (/^\d+$/.test(text)) {
    if (text.length === 8 || text.length === 12 || text.length === 14) {
      const compact = parseCompact(text);
      if (compact !== null && isValid(compact)) return legacyIso(legacyEpochMs(compact));
    }
    return text.length >= 9 && text.length <= 13 ? legacyIso(Number(text)) : null;
  }
  const iso = parseIso(text);
  if (iso === null || !isValid(iso)) return null;
  return legacyIso(legacyEpochMs(iso));
}

/**
 * How schema 1 and 2 read a DataJud date: as a UTC instant (a `Z` taken for UTC, no zone taken
 * for -03:00). Wrong for display, and kept for two hashes only: a record's fingerprint (so the
 * upgrade does not make every case look touched) and the movement ids those versions stored (so
 * the first read after the upgrade can recognise each stored movement). Never throws.
 */
export function legacyInstant(raw: unknown): string | null {
  try {
    if (typeof raw === "number") return legacyFromNumber(raw);
    if (typeof raw === "string") return legacyFromString(raw);
    if (raw instanceof Date) return legacyIso(raw.getTime());
    return null;
  } catch {
    return null;
  }
}
