import { wallClockDay } from "../datajud/dates.js";
import type { Movement } from "../datajud/instance-record.js";
import { addDays, type IsoDate } from "../time/calendar-date.js";
import { countingDates } from "../time/counting-dates.js";

/*
 * The dates a DataJud publication movement may count from, estimated as for a DJEN item.
 *
 * - "Disponibilização no Diário da Justiça Eletrônico" (TPU 1061) on day D: published on the
 *   first working day after D (Lei 11.419/2006 art. 4 §3; CPC art. 224 §2), the count starts on
 *   the first working day after that (art. 4 §4; CPC art. 224 §3): time/counting-dates.ts, the
 *   same estimate a DJEN item gets.
 * - "Publicação" (TPU 92) on day D: DataJud's date is not always the legal publication date. In
 *   the real records (test/fixtures/real-datajud) 7 of 45 fall on the very day of a
 *   disponibilização, when the law puts the publication a working day later, and others 3 or 4
 *   days after it. Taking D itself as the publication gives the earliest start the law allows,
 *   never a later one: the count starts on the first working day after D.
 */

export interface PublicationEstimate {
  /** What the estimate rests on, in Portuguese: the rule and the calendar. */
  rule: string;
  /** The day DataJud recorded (disponibilização or publicação). */
  recordedOn: IsoDate;
  publishedOn: IsoDate;
  countingStartsOn: IsoDate;
  /** Holidays, recess and suspensions that moved the dates past the next weekdays. */
  reasons: string[];
}

const AVAILABLE_RULE =
  "disponibilizado no DJe: publicado no 1º dia útil seguinte e prazo a partir do dia útil seguinte à publicação (Lei 11.419/2006, art. 4º, §§ 3º e 4º; CPC, art. 224), estimativa pelo calendário nacional";
const PUBLISHED_RULE =
  "a data de “Publicação” do DataJud nem sempre é a publicação legal (às vezes é o dia da disponibilização): tomada como publicação, o prazo contaria do dia útil seguinte (CPC, art. 224, § 3º), a estimativa mais cedo possível pelo calendário nacional";

/** TPU codes whose date a deadline may count from: the gazette's disponibilização and publicação. */
export const PUBLICATION_CODES: ReadonlySet<number> = new Set([1061, 92]);

export function publicationEstimate(
  m: Pick<Movement, "code" | "dateTime">,
): PublicationEstimate | null {
  if (m.code === null || !PUBLICATION_CODES.has(m.code) || m.dateTime === null) return null;
  const day = wallClockDay(m.dateTime);
  if (day === null) return null;
  if (m.code === 1061) {
    const dates = countingDates(day);
    return { rule: AVAILABLE_RULE, recordedOn: day, ...pick(dates) };
  }
  // The first working day after the day before D is D itself when D is a working day.
  const dates = countingDates(addDays(day, -1));
  return { rule: PUBLISHED_RULE, recordedOn: day, ...pick(dates) };
}

function pick(dates: ReturnType<typeof countingDates>): {
  publishedOn: IsoDate;
  countingStartsOn: IsoDate;
  reasons: string[];
} {
  return {
    publishedOn: dates.publishedOn,
    countingStartsOn: dates.countingStartsOn,
    reasons: dates.reasons,
  };
}
