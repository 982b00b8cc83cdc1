import { z } from "zod";
import { formatWallClock, wallClockDay } from "../datajud/dates.js";
import type { Movement } from "../datajud/instance-record.js";
import { hearingDate } from "../deadlines/session-date.js";
import { formatBrazilian, type IsoDate } from "../time/calendar-date.js";
import { hearingSituation, isHearing } from "./movement-reading.js";

/*
 * Two dates of a hearing that alerts used to blur: the movement's time is when the court recorded
 * it (designada, redesignada, cancelada: when it was scheduled or changed), not when the hearing
 * is. The hearing's own date is known only where a text says it: the movement's name or a
 * complement ("designada para 10/03/2026 às 14h00"), or a DJEN publication of the case. Pure.
 */

/** Strict: our own reading, stored with the alert. */
export const HearingDate = z.strictObject({
  date: z.string(),
  /** "14:00"; null when the text gives no time. */
  time: z.string().nullable(),
  /** Where the date was read: the DataJud movement itself, or a DJEN publication of the case. */
  source: z.enum(["datajud", "djen"]),
  /** The words the date was read from, cut to a line. */
  quote: z.string(),
  /** The DJEN publication's disponibilização, when it was read from one. */
  availableOn: z.string().optional(),
});
export type HearingDate = z.infer<typeof HearingDate>;

/** A stored DJEN publication of the case, as far as a hearing's date needs it. */
export interface CasePublication {
  availableOn: IsoDate;
  text: string;
  cancelled: boolean;
}

/**
 * How far from the movement a publication may be to tell its hearing: DataJud and DJEN each lag
 * the court by days, the intimação for a hearing follows its designation within weeks.
 */
const BEFORE_DAYS = 3;
const AFTER_DAYS = 30;

function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 86_400_000;
}

/**
 * The hearing's date as a DJEN publication of the case says it ("audiência de conciliação
 * designada para 10/03/2026 às 14h"): the publication made available nearest the movement's day
 * (from 3 days before to 30 after), not cancelled, whose words tie a date on or after both days to
 * an audiência. Only for a hearing designada, redesignada or antecipada: a cancelled one has none.
 */
export function hearingDateFromPublications(
  m: Movement,
  publications: readonly CasePublication[],
): HearingDate | null {
  if (!isHearing(m) || m.dateTime === null) return null;
  const situation = hearingSituation(m);
  if (situation !== null && !["designada", "redesignada", "antecipada"].includes(situation)) {
    return null;
  }
  const day = wallClockDay(m.dateTime);
  if (day === null) return null;
  const near = publications
    .filter((p) => !p.cancelled)
    .map((p) => ({ p, gap: dayNumber(p.availableOn) - dayNumber(day) }))
    .filter(({ gap }) => gap >= -BEFORE_DAYS && gap <= AFTER_DAYS)
    .sort((a, b) => Math.abs(a.gap) - Math.abs(b.gap));
  for (const { p } of near) {
    // The later of the two days: ISO days sort as text.
    const from = [day, p.availableOn].sort().at(-1) ?? day;
    const found = hearingDate(p.text, from);
    if (found !== null) {
      return {
        date: found.date,
        time: found.time,
        source: "djen",
        quote: found.quote,
        availableOn: p.availableOn,
      };
    }
  }
  return null;
}

/** Each new hearing's date: the movement's own words first, else the case's DJEN publications. */
export function hearingDatesOf(
  movements: readonly Movement[],
  publications: readonly CasePublication[],
): Record<string, HearingDate> {
  const out: Record<string, HearingDate> = {};
  for (const m of movements) {
    const found = hearingDateOnRecord(m) ?? hearingDateFromPublications(m, publications);
    if (found !== null) out[m.id] = found;
  }
  return out;
}

/** The movement's own words: its name and each complement's name and text value. */
function movementText(m: Movement): string {
  const parts = m.complements.map((c) =>
    [c.description ?? "", c.name ?? "", typeof c.value === "string" ? c.value : ""].join(" "),
  );
  return [m.name, ...parts].join("\n");
}

/** The hearing's date as the movement's own text says it; null when it does not. */
export function hearingDateOnRecord(m: Movement): HearingDate | null {
  if (!isHearing(m) || m.dateTime === null) return null;
  const day = wallClockDay(m.dateTime);
  if (day === null) return null;
  const found = hearingDate(`audiencia ${movementText(m)}`, day as IsoDate);
  if (found === null) return null;
  return { date: found.date, time: found.time, source: "datajud", quote: found.quote };
}

function when(d: HearingDate): string {
  return `${formatBrazilian(d.date)}${d.time === null ? "" : ` ${d.time}`}`;
}

function sourceText(d: HearingDate): string {
  if (d.source === "datajud") return "segundo o próprio movimento no DataJud";
  const on =
    d.availableOn === undefined ? "" : ` disponibilizada em ${formatBrazilian(d.availableOn)}`;
  return `segundo publicação no DJEN${on}`;
}

/**
 * "registrada em 20/11/2026 14:10; audiência em 10/03/2026 14:00 (segundo ...)": both dates of a
 * hearing movement, or the one the record has and a word on the one it lacks.
 */
export function hearingWhenText(m: Movement, date: HearingDate | null): string {
  const recorded =
    m.dateTime === null ? "data do registro não informada" : formatWallClock(m.dateTime);
  const at = `movimento registrado em ${recorded} (quando a audiência foi designada ou alterada)`;
  if (date === null) {
    return `${at}; a data da audiência não consta do DataJud: conferir no processo ou no DJEN`;
  }
  return `audiência em ${when(date)} (${sourceText(date)}); ${at}`;
}
