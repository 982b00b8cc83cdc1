import { formatWallClock, wallClockDay } from "../datajud/dates.js";
import type { Movement } from "../datajud/instance-record.js";
import { hearingDate } from "../deadlines/session-date.js";
import { formatBrazilian, type IsoDate } from "../time/calendar-date.js";
import { isHearing } from "./movement-reading.js";

/*
 * Two dates of a hearing that alerts used to blur: the movement's time is when the court recorded
 * it (designada, redesignada, cancelada: when it was scheduled or changed), not when the hearing
 * is. The hearing's own date is known only where a text says it: the movement's name or a
 * complement ("designada para 10/03/2026 às 14h00"), or a DJEN publication of the case. Pure.
 */

export interface HearingDate {
  date: IsoDate;
  /** "14:00"; null when the text gives no time. */
  time: string | null;
  /** Where the date was read: the DataJud movement itself, or a DJEN publication. */
  source: "datajud" | "djen";
  /** The words the date was read from, cut to a line. */
  quote: string;
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

const SOURCE_PT: Record<HearingDate["source"], string> = {
  datajud: "segundo o próprio movimento no DataJud",
  djen: "segundo publicação no DJEN",
};

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
  return `audiência em ${when(date)} (${SOURCE_PT[date.source]}); ${at}`;
}
