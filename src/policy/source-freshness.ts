import { z } from "zod";
import { wallClockDay } from "../datajud/dates.js";
import type { DjenGapRow, FreshnessInputs } from "../store/source-freshness.js";
import { addDays, type IsoDate } from "../time/calendar-date.js";
import { courtTimeZone } from "../time/court-zone.js";
import { dateInZone, SAO_PAULO_ZONE } from "../time/zoned-time.js";

/*
 * How fresh DataJud is for a court, measured from what the monitor saw, and what one source has
 * that the other lacks (docs/freshness.md). Pure: the store hands the rows, this decides.
 *
 * No freshness figure is published: CNJ only asks courts to send DataJud their files monthly
 * (cnj.jus.br/sistemas/datajud/orientacoes), some push continuously. DJEN carries an intimação
 * from its day of disponibilização. So a court's lag is measured per act: the days from DJEN's
 * disponibilização of a watched case's publication to the São Paulo day a sweep first saw the
 * DataJud movement recording it.
 */

/**
 * The TPU movements that record a gazette act or an intimação: Disponibilização no DJe (1061),
 * Publicação (92), intimação eletrônica expedida (12265), comunicação eletrônica expedida
 * (12282). A DJEN item is matched to one of these of about its day.
 */
export const RECORDING_CODES: ReadonlySet<number> = new Set([1061, 92, 12265, 12282]);

/**
 * The movement that says "made available in the DJe on day D" (TPU 1061): the one a DJEN miss is
 * judged by. An intimação eletrônica (12265, 12282) is left out: sent through the court's system
 * or the Domicílio Judicial Eletrônico it need not be in DJEN at all, so its absence there is no
 * sign of a miss, and a warning on it would be a false alarm.
 */
export const AVAILABILITY_CODE = 1061;

/** How far (days) a recording movement's day may be from the publication's disponibilização. */
export const MATCH_DAYS = 5;

/** Fewer lags than this and the court's lag is not known: the default below stands in. */
export const MIN_SAMPLES = 5;

/** The wait before DataJud counts as late for a court whose lag is not measured yet (days). */
export const DEFAULT_LATE_DAYS = 10;

/**
 * A publication newer than this many days is watched for its DataJud movement; older ones are
 * left: a court that never records some intimações would carry a note forever.
 */
export const NOTE_HORIZON_DAYS = 30;

/**
 * A warning of a DJEN miss is urgent while a period counted from that day could still run: the
 * longest ordinary one, 15 working days doubled (CPC arts. 183, 186, 229 and 219), is 30 working
 * days, about six calendar weeks.
 */
export const URGENT_FOR_DAYS = 45;

/** Days from `from` to `to` (calendar dates), negative when `to` is earlier. */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The São Paulo day of one of our instants (ISO-8601 UTC). */
export function saoPauloDay(iso: string): IsoDate {
  return dateInZone(Date.parse(iso), SAO_PAULO_ZONE);
}

/** The nearest-rank percentile `p` (0-100) of `values`; null when there are none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? null;
}

export interface LagSummary {
  /** Acts measured. */
  samples: number;
  /** The usual lag (median), days; null with no sample. */
  p50: number | null;
  p90: number | null;
  max: number | null;
}

export function lagSummary(lags: readonly number[]): LagSummary {
  return {
    samples: lags.length,
    p50: percentile(lags, 50),
    p90: percentile(lags, 90),
    max: lags.length === 0 ? null : Math.max(...lags),
  };
}

/**
 * Days after a publication's disponibilização past which DataJud counts as late for the court:
 * its p90 once measured on enough acts, else the default. At least a day: no court records an
 * act the very day it is made available.
 */
export function lateAfterDays(summary: LagSummary): number {
  if (summary.samples < MIN_SAMPLES || summary.p90 === null) return DEFAULT_LATE_DAYS;
  return Math.max(1, summary.p90);
}

/**
 * Days without any DataJud update among a court's watched cases past which the court counts as
 * silent (while DJEN shows it active): three times its late mark, two weeks at least.
 */
export function silentAfterDays(summary: LagSummary): number {
  return Math.max(14, 3 * lateAfterDays(summary));
}

/** A movement that may record a publication: its row, code, day and when a sweep first saw it. */
export interface RecordingMovement {
  rowId: number;
  code: number | null;
  /** DataJud's date-time, the court's wall clock. */
  dateTime: string | null;
  /** Our instant. */
  firstSeenAt: string;
}

/**
 * The movement recording a publication made available on `availableOn`: one of RECORDING_CODES
 * within MATCH_DAYS, the closest by day, a disponibilização before others on the same distance,
 * then the first seen. `taken`: movements already matched to another publication.
 */
export function recordingMovement<M extends RecordingMovement>(
  availableOn: IsoDate,
  movements: readonly M[],
  taken: ReadonlySet<number>,
): M | null {
  let best: { movement: M; score: number } | null = null;
  for (const movement of movements) {
    if (movement.code === null || !RECORDING_CODES.has(movement.code)) continue;
    if (taken.has(movement.rowId) || movement.dateTime === null) continue;
    const day = wallClockDay(movement.dateTime);
    if (day === null) continue;
    const distance = Math.abs(daysBetween(availableOn, day));
    if (distance > MATCH_DAYS) continue;
    const score = distance * 2 + (movement.code === AVAILABILITY_CODE ? 0 : 1);
    if (
      best === null ||
      score < best.score ||
      (score === best.score && movement.firstSeenAt < best.movement.firstSeenAt)
    ) {
      best = { movement, score };
    }
  }
  return best?.movement ?? null;
}

/** The lag, in days, from a disponibilização to the sweep that first saw its movement. */
export function lagDays(availableOn: IsoDate, seenAt: string): number {
  return Math.max(0, daysBetween(availableOn, saoPauloDay(seenAt)));
}

/** What is known of one DJEN source (a case number) for the days it covers. */
export interface DjenCoverage {
  /** Its first complete answer (our instant); null: never answered whole. */
  firstOkAt: string | null;
  /** Its last complete answer. */
  lastOkAt: string | null;
}

/**
 * Whether DJEN was asked completely, for the case, about day `day`: a complete answer came on a
 * later São Paulo day (so the day's list was whole), and the source was answering by that day.
 * Every complete answer asks from the day of the one before (watch-publications.ts
 * `catchUpWindow`), so the answers from the first to the last cover each day between.
 */
export function djenCovered(coverage: DjenCoverage | null, day: IsoDate): boolean {
  if (coverage === null || coverage.firstOkAt === null || coverage.lastOkAt === null) return false;
  return saoPauloDay(coverage.firstOkAt) <= day && saoPauloDay(coverage.lastOkAt) > day;
}

/** Whether a DJEN miss on `availableOn`, warned on `today`, is urgent (a period could run). */
export function gapUrgent(availableOn: IsoDate, today: IsoDate): boolean {
  return daysBetween(availableOn, today) <= URGENT_FOR_DAYS;
}

/** How fresh DataJud and DJEN are for one court, as status, MCP and /metrics show it. */
export interface CourtFreshness {
  /** The DataJud alias (tjsp). */
  court: string;
  /** Its watched cases. */
  cases: number;
  /** The newest DataJud update among them: the court's wall clock, as DataJud wrote it. */
  newestUpdate: string | null;
  /** Whole days from that update's day to today, on the court's calendar. */
  newestUpdateDaysAgo: number | null;
  /** When the monitor last saw one of their records move (our instant). */
  lastMovedAt: string | null;
  /** Days from a DJEN disponibilização to the sweep that first saw DataJud record it. */
  lag: LagSummary;
  /** DJEN's own lag: from the court's sending (`dataenvio`) to the disponibilização. */
  djenLag: LagSummary;
  /** The newest disponibilização DJEN returned for the court's watched cases. */
  djenNewestAvailableOn: string | null;
  /** The last complete DJEN answer for one of them (our instant). */
  djenLastAskedAt: string | null;
  /** DataJud silent for the court while DJEN is active: since the last move seen. */
  silentSince: string | null;
}

/** Whole days from a DataJud wall clock's day to `today`. */
export function daysAgo(wallClock: string | null, today: IsoDate): number | null {
  if (wallClock === null) return null;
  const day = wallClockDay(wallClock);
  return day === null ? null : Math.max(0, daysBetween(day, today));
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "2 days ago", "today". */
function agoText(days: number): string {
  return days === 0 ? "today" : `${plural(days, "day", "days")} ago`;
}

/**
 * One line per court for `status` (operator text, English): "DataJud TJSP: newest update 2 days
 * ago; usual lag 6 days (p90 11, 14 acts); DJEN lag 1 day".
 */
export function courtFreshnessLine(f: CourtFreshness): string {
  const parts: string[] = [];
  parts.push(
    f.newestUpdateDaysAgo === null
      ? "no update seen yet"
      : `newest update ${agoText(f.newestUpdateDaysAgo)}`,
  );
  parts.push(
    f.lag.samples === 0 || f.lag.p50 === null || f.lag.p90 === null
      ? "lag not measured yet (no DJEN act seen recorded)"
      : `usual lag ${plural(f.lag.p50, "day", "days")} (p90 ${f.lag.p90}, ${plural(f.lag.samples, "act", "acts")})`,
  );
  if (f.djenLag.p50 !== null) parts.push(`DJEN lag ${plural(f.djenLag.p50, "day", "days")}`);
  if (f.silentSince !== null) parts.push("SILENT while DJEN publishes (mail.admin was told)");
  return `DataJud ${f.court.toUpperCase()}: ${parts.join("; ")}`;
}

/** Each court's freshness, from the store's rows (store/source-freshness.ts freshnessInputs). */
export function courtFreshness(inputs: FreshnessInputs, nowMs: number): CourtFreshness[] {
  return inputs.updates.map((u) => {
    const today = dateInZone(nowMs, courtTimeZone(u.court));
    const activity = inputs.activity.get(u.court);
    return {
      court: u.court,
      cases: u.cases,
      newestUpdate: u.newestUpdate,
      newestUpdateDaysAgo: daysAgo(u.newestUpdate, today),
      lastMovedAt: u.lastMovedAt,
      lag: lagSummary(inputs.lags.get(u.court) ?? []),
      djenLag: lagSummary(inputs.djenLags.get(u.court) ?? []),
      djenNewestAvailableOn: activity?.newestAvailableOn ?? null,
      djenLastAskedAt: activity?.lastAskedAt ?? null,
      silentSince: inputs.silent.find((s) => s.court === u.court)?.since ?? null,
    };
  });
}

/**
 * The operator alert of a silent court: DataJud has not moved any of the court's watched cases
 * since `since` (our instant), much longer than its usual lag, while DJEN made publications of
 * them available after that.
 */
export const CourtSilentAlert = z.object({
  type: z.literal("court_silent"),
  /** DataJud alias. */
  court: z.string(),
  /** The last time the monitor saw one of the court's watched records move. */
  since: z.string(),
  /** The newest DataJud update among them (the court's wall clock). */
  newestUpdate: z.string().nullable(),
  cases: z.number().int().nonnegative(),
  /** Days of silence past which the court counts as silent (silentAfterDays). */
  silentAfterDays: z.number().int().positive(),
  /** The court's usual lag and p90 (days); null when not measured. */
  usualLag: z.number().int().nullable(),
  p90Lag: z.number().int().nullable(),
  /** DJEN publications of its watched cases made available since, and the newest day. */
  djenPublications: z.number().int().positive(),
  djenNewestAvailableOn: z.string(),
  lastError: z.null().default(null),
});
export type CourtSilentAlert = z.infer<typeof CourtSilentAlert>;

/** One court's state for the silence check. */
export interface SilenceInput {
  court: string;
  cases: number;
  newestUpdate: string | null;
  lastMovedAt: string | null;
  lag: LagSummary;
  /** Days (YYYY-MM-DD) of the court's watched publications DJEN made available. */
  djenDays: readonly string[];
}

/**
 * The court is silent at `nowIso` when the monitor saw none of its watched records move for more
 * than silentAfterDays, and DJEN made at least one of their publications available after that
 * move, long enough ago (lateAfterDays) that DataJud should have had it: then the alert to send.
 */
export function courtSilence(input: SilenceInput, nowIso: string): CourtSilentAlert | null {
  if (input.lastMovedAt === null) return null;
  const today = saoPauloDay(nowIso);
  const movedOn = saoPauloDay(input.lastMovedAt);
  const after = silentAfterDays(input.lag);
  if (daysBetween(movedOn, today) <= after) return null;
  const dueBy = addDays(today, -lateAfterDays(input.lag));
  const pending = input.djenDays.filter((d) => d > movedOn && d <= dueBy).sort();
  const newest = pending.at(-1);
  if (newest === undefined) return null;
  return {
    type: "court_silent",
    court: input.court,
    since: input.lastMovedAt,
    newestUpdate: input.newestUpdate,
    cases: input.cases,
    silentAfterDays: after,
    usualLag: input.lag.samples >= MIN_SAMPLES ? input.lag.p50 : null,
    p90Lag: input.lag.samples >= MIN_SAMPLES ? input.lag.p90 : null,
    djenPublications: pending.length,
    djenNewestAvailableOn: newest,
    lastError: null,
  };
}

/** An intimação DJEN has for a watched case that DataJud's record still lacks past the usual lag. */
export interface LateDataJudNote {
  caseId: number;
  court: string;
  djenId: string;
  availableOn: string;
  /** Days since its disponibilização. */
  days: number;
  /** The court's mark it passed (lateAfterDays). */
  lateAfterDays: number;
}

/** The words of the note, in the lawyers' mail and the MCP answer. */
export const LATE_NOTE_PT = "DataJud atrasado neste processo";

/**
 * The DJEN intimações (kind naming an intimação) of watched cases no DataJud movement records yet,
 * older than the court's late mark and newer than NOTE_HORIZON_DAYS: a quiet note, never a mail
 * of its own; it goes away when the movement is matched.
 */
export function lateDataJudNotes(
  unmatched: ReadonlyArray<{
    caseId: number;
    court: string;
    djenId: string;
    availableOn: string;
    kind: string | null;
  }>,
  lags: ReadonlyMap<string, readonly number[]>,
  nowIso: string,
): LateDataJudNote[] {
  const today = saoPauloDay(nowIso);
  const from = addDays(today, -NOTE_HORIZON_DAYS);
  return unmatched.flatMap((p) => {
    if (p.availableOn < from || !/intima/iu.test(p.kind ?? "")) return [];
    const mark = lateAfterDays(lagSummary(lags.get(p.court) ?? []));
    const days = daysBetween(p.availableOn, today);
    if (days <= mark) return [];
    return [
      {
        caseId: p.caseId,
        court: p.court,
        djenId: p.djenId,
        availableOn: p.availableOn,
        days,
        lateAfterDays: mark,
      },
    ];
  });
}

/** docs/freshness.md: each court's DataJud and DJEN freshness, and the cross-source findings. */
export interface FreshnessStatus {
  courts: CourtFreshness[];
  /** DJEN intimações DataJud's record still lacks past the court's usual lag (a quiet note). */
  dataJudLate: Array<LateDataJudNote & { number: string }>;
  /** DataJud disponibilizações DJEN did not return, each warned of once (newest first). */
  djenGaps: Array<{
    caseId: number;
    number: string;
    availableOn: string;
    foundAt: string;
    urgent: boolean;
  }>;
}

/** What status, `status --json` and the MCP tool show, from the store's rows. */
export function freshnessStatus(
  inputs: FreshnessInputs,
  gaps: readonly DjenGapRow[],
  numbers: ReadonlyMap<number, string>,
  now: Date,
): FreshnessStatus {
  const nowIso = now.toISOString();
  return {
    courts: courtFreshness(inputs, now.getTime()),
    dataJudLate: lateDataJudNotes(inputs.unmatched, inputs.lags, nowIso).map((note) => ({
      ...note,
      number: numbers.get(note.caseId) ?? "?",
    })),
    djenGaps: gaps.map((g) => ({
      caseId: g.caseId,
      number: numbers.get(g.caseId) ?? "?",
      availableOn: g.availableOn,
      foundAt: g.foundAt,
      urgent: g.urgent,
    })),
  };
}
