import { z } from "zod";
import { wallClockInstant } from "../datajud/dates.js";
import type { Movement } from "../datajud/instance-record.js";

/*
 * Late records: a movement DataJud lists for the first time long after its own date, behind acts
 * of the case already known (a movement of 2024 first listed in 2026). It is reported with its
 * own date, in a quiet part of the mail, never as news and never urgent by itself (the
 * watchlist's urgent rules still make it urgent). Pure.
 */

/**
 * Days between a movement's own date and the sweep that first saw it beyond which it is late.
 *
 * DataJud lags behind the courts. In the real records of ../shared/real-datajud/hits.json, the
 * court's last push of a record (`dataHoraUltimaAtualizacao`) reached the index (`@timestamp`)
 * at most 54 days later in 9 of the 10 records with movements (0 h, 50 min, 18 h, 5, 20, 24,
 * 46, 46 and 54 days; median about 22 days), 219 days in the tenth (TJDFT, CNJ's wiki example 2).
 * A movement two months old arriving now is that lag: still news to a lawyer who may not have
 * seen it. 90 days
 * clears the lag measured in 9 of 10 records with a margin, and outlasts every ordinary period
 * that could run from the act (15 working days, doubled for the Fazenda Pública and the
 * Defensoria, CPC arts. 183 and 186, about six weeks): what it could have opened has run.
 */
export const LATE_RECORD_DAYS = 90;

const DAY_MS = 86_400_000;

/**
 * When a new movement is a late record: dated more than LATE_RECORD_DAYS before the sweep that
 * first saw it (`seenAt`, our instant), and before the newest movement the case already had
 * (`newestKnown`, a court wall clock): it lands in the case's past, behind acts already reported.
 * A case first read (nothing known) or a monitor catching up after months away (what arrives is
 * newer than all it knew) has no late records: that is news, however old.
 */
export function isLateRecord(
  movement: Pick<Movement, "dateTime">,
  newestKnown: string | null,
  seenAt: string,
): boolean {
  if (movement.dateTime === null || newestKnown === null) return false;
  const dated = wallClockInstant(movement.dateTime);
  const known = wallClockInstant(newestKnown);
  const seen = Date.parse(seenAt);
  if (Number.isNaN(dated) || Number.isNaN(known) || Number.isNaN(seen)) return false;
  return dated < known && seen - dated > LATE_RECORD_DAYS * DAY_MS;
}

/** Whole days from a movement's own date to the sweep that first saw it (null: undated). */
export function daysLate(movement: Pick<Movement, "dateTime">, seenAt: string): number | null {
  if (movement.dateTime === null) return null;
  const dated = wallClockInstant(movement.dateTime);
  const seen = Date.parse(seenAt);
  if (Number.isNaN(dated) || Number.isNaN(seen)) return null;
  return Math.floor((seen - dated) / DAY_MS);
}

/** The newest dated movement among those given (court wall clocks compare as text). */
export function newestDate(movements: Iterable<Pick<Movement, "dateTime">>): string | null {
  let newest: string | null = null;
  for (const m of movements) {
    const at = m.dateTime;
    if (at !== null && !Number.isNaN(wallClockInstant(at)) && (newest === null || at > newest)) {
      newest = at;
    }
  }
  return newest;
}

const LateOfChange = z.object({ lateMovementIds: z.array(z.string()).catch([]) });

/**
 * The ids of a stored change's late records (its `details.lateMovementIds`, written by the sweep
 * that first saw them); none in changes stored before late records were told apart.
 */
export function lateMovementIds(details: unknown): ReadonlySet<string> {
  return new Set(LateOfChange.safeParse(details).data?.lateMovementIds ?? []);
}
