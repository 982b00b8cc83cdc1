import { z } from "zod";
import { wallClockDay } from "../../datajud/dates.js";
import { formatBrazilian } from "../../time/calendar-date.js";
import { instantTime } from "./email-kit.js";

/*
 * How fresh each source was for the case when an alert was queued (docs/freshness.md), for the
 * alert's footer: DataJud's newest update of the case's records (the court's wall clock, never
 * shifted) and DJEN's last complete answer for the case (our instant, in the schedule's zone);
 * and the quiet note that DJEN has an intimação the DataJud record still lacks past the court's
 * usual lag. Absent in alerts queued before it.
 */

export const AlertSources = z.object({
  /** The newest `dataHoraUltimaAtualizacao` of the case's records; null: none given. */
  dataJudUpdatedAt: z.string().nullable(),
  /** DJEN's last complete answer for the case number; null: never asked, or DJEN is off. */
  djenAskedAt: z.string().nullable(),
  /** DJEN has an intimação of the case that DataJud's record does not show past the lag. */
  dataJudLate: z.boolean(),
});
export type AlertSources = z.infer<typeof AlertSources>;

/** "Fontes: DataJud atualizado em 28/11/2026; DJEN consultado em 06/12/2026 07:02". */
export function sourcesLine(sources: AlertSources, timeZone: string): string {
  const day = sources.dataJudUpdatedAt === null ? null : wallClockDay(sources.dataJudUpdatedAt);
  const datajud =
    day === null
      ? "DataJud sem data de atualização"
      : `DataJud atualizado em ${formatBrazilian(day)}`;
  const djen =
    sources.djenAskedAt === null
      ? "DJEN não consultado para este processo"
      : `DJEN consultado em ${instantTime(sources.djenAskedAt, timeZone)}`;
  return `Fontes: ${datajud}; ${djen}`;
}

/** The note, when DataJud lags DJEN in this case; null otherwise. */
export function lateNoteLine(sources: AlertSources): string | null {
  return sources.dataJudLate
    ? "DataJud atrasado neste processo: o DJEN tem uma intimação que o registro do DataJud ainda não mostra (confira a intimação no DJEN ou no tribunal)."
    : null;
}

/** The footer's lines for an alert with sources; none without. */
export function sourcesFooter(sources: AlertSources | undefined, timeZone: string): string[] {
  if (sources === undefined) return [];
  const note = lateNoteLine(sources);
  return [sourcesLine(sources, timeZone), ...(note === null ? [] : [note])];
}
