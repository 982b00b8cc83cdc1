import { calendarDate, type IsoDate } from "../time/calendar-date.js";
import { type FoldedText, foldForReading, quoteOf } from "./folded-text.js";

/*
 * The session a pauta de julgamento announces, read from its text (DJEN carries it nowhere else):
 * "sessão ordinária do dia 15/10/2025, às 13h30", "Sessão Virtual com início em 06/10/2025 e
 * término em 10/10/2025", "sessão de 14 de outubro de 2025, às 9 horas". A date counts only where
 * the words before it speak of the session or judgment; a date before the pauta was made available
 * (an earlier session it was adjourned from) is not its session.
 */

export interface SessionDate {
  date: IsoDate;
  /** A hearing (audiência) an intimação announces, rather than a pauta's session of judgment. */
  hearing?: true;
  /** "13:30"; null when the text gives no time. */
  time: string | null;
  /** The last day of a virtual session that runs over several days. */
  endDate: IsoDate | null;
  virtual: boolean;
  quote: string;
}

const MONTHS = [
  "janeiro",
  "fevereiro",
  "marco",
  "abril",
  "maio",
  "junho",
  "julho",
  "agosto",
  "setembro",
  "outubro",
  "novembro",
  "dezembro",
];

const DATE = new RegExp(
  `(?<!\\d)(\\d{1,2})[/.](\\d{1,2})[/.](\\d{4})(?!\\d)|(?<!\\d)(\\d{1,2})(?:o|º|°)?\\s+de\\s+(${MONTHS.join("|")})\\s+de\\s+(\\d{4})`,
  "gu",
);
const TIME =
  /^[\s,]*(?:\(?[a-z-]+-feira\)?[\s,]*)?(?:a\s+partir\s+das|as|a|com\s+inicio\s+as|com\s+inicio\s+a)?\s*(\d{1,2})\s*(?:horas?|hs?|:)\s*(\d{2})?/u;
const SESSION_WORDS = /sess(?:ao|oes)|julgamento|pauta|plenario|realizar-se-a|inicio|audiencia/u;
/*
 * In an intimação only a hearing's own words tie a date to it ("audiência de conciliação designada
 * para o dia 10/03/2026, às 14h00"): "julgamento" or "início" there name other things.
 */
const HEARING_WORDS = /audiencia/u;
const END_WORDS = /(?:termino|encerramento|fim|final|ate)\s*(?:em|no\s+dia|dia|:)?\s*$/u;

interface FoundDate {
  date: IsoDate;
  start: number;
  end: number;
}

function datesIn(text: FoldedText): FoundDate[] {
  const out: FoundDate[] = [];
  for (const m of text.folded.matchAll(DATE)) {
    const day = Number(m[1] ?? m[4]);
    const month = m[2] === undefined ? MONTHS.indexOf(m[5] ?? "") + 1 : Number(m[2]);
    const year = Number(m[3] ?? m[6]);
    const date = calendarDate(year, month, day);
    const start = m.index ?? 0;
    if (date !== null) out.push({ date, start, end: start + m[0].length });
  }
  return out;
}

/** The time written right after a date ("às 13h30", "14:00", "9 horas"), and where it ends. */
function timeAfter(folded: string, end: number): { time: string; end: number } | null {
  const m = TIME.exec(folded.slice(end, end + 40));
  if (m === null) return null;
  const hour = Number(m[1]);
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  if (hour > 23 || minute > 59) return null;
  const time = `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
  return { time, end: end + m[0].length };
}

/**
 * The session the text announces: the first date on or after `availableOn` that the words before
 * it tie to a session, with its time and, for a virtual session, its last day. Null when the text
 * names none: the pauta is then shown without a session date, never with a guessed one.
 */
export function sessionDate(text: string, availableOn: IsoDate): SessionDate | null {
  return announcedDate(text, availableOn, SESSION_WORDS);
}

/**
 * The hearing an intimação or citação announces ("intimada para a audiência de instrução e
 * julgamento designada para 10/03/2026 às 14h"), read as a pauta's session is: the first date on or
 * after `availableOn` that "audiência" comes before. Null when the text ties no date to a hearing.
 */
export function hearingDate(text: string, availableOn: IsoDate): SessionDate | null {
  const found = announcedDate(text, availableOn, HEARING_WORDS);
  return found === null ? null : { ...found, hearing: true };
}

function announcedDate(text: string, availableOn: IsoDate, words: RegExp): SessionDate | null {
  const folded = foldForReading(text);
  const dates = datesIn(folded);
  for (const [i, found] of dates.entries()) {
    if (found.date < availableOn) continue;
    const before = folded.folded.slice(Math.max(0, found.start - 120), found.start);
    if (!words.test(before) || END_WORDS.test(before)) continue;
    const next = dates[i + 1];
    const between = next === undefined ? "" : folded.folded.slice(found.end, next.start);
    const endDate =
      next !== undefined &&
      next.date > found.date &&
      between.length < 80 &&
      END_WORDS.test(between.replace(/\s+$/u, ""))
        ? next.date
        : null;
    const sentenceStart = Math.max(
      0,
      found.start - 60,
      folded.folded.lastIndexOf("\n", found.start) + 1,
    );
    const time = timeAfter(folded.folded, found.end);
    const quoteEnd = endDate === null ? (time?.end ?? found.end) : (next ?? found).end;
    return {
      date: found.date,
      time: time?.time ?? null,
      endDate,
      virtual: /virtual|eletronica/u.test(before),
      quote: quoteOf(folded, sentenceStart, quoteEnd),
    };
  }
  return null;
}
