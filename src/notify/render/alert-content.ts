import { z } from "zod";
import { wallClockDay } from "../../datajud/dates.js";
import {
  type InstanceRecord,
  Movement,
  type Provenance,
  RawDate,
} from "../../datajud/instance-record.js";
import { DeadlineEstimate } from "../../deadlines/estimate-schema.js";
import {
  type CalendarFor,
  calendarsWith,
  estimateGazetteMovement,
} from "../../deadlines/publication-estimate.js";
import {
  ActDeadline,
  actDeadline,
  actsPublishedBy,
  type DjenItemFacts,
  isStale,
  mayStillMatter,
  periodsOfAct,
  publishedActOf,
} from "../../summarize/act-deadlines.js";
import { CaseSummary } from "../../summarize/case-summary.js";
import type { Correction } from "../../summarize/corrections.js";
import type { FieldChange } from "../../summarize/field-changes.js";
import { HearingDate } from "../../summarize/hearing-when.js";
import { isCriminalClass, movementTitle } from "../../summarize/movement-reading.js";
import { dateInZone } from "../../time/zoned-time.js";
import { AlertSources } from "./sources-line.js";

/** A movement as queued: alerts queued before raw dates and occurrences were kept still render. */
const QueuedMovement = Movement.extend({
  dateTimeRaw: RawDate.default(null),
  identity: z.string().default(""),
  occurrence: z.number().int().positive().default(1),
});

/**
 * Everything one alert says. It is stored as the outbox payload, so the email can be rendered again
 * (identically) on a retry or after a crash without reading anything else from the database.
 */
export const AlertContent = z.object({
  caseNumber: z.string(),
  court: z.string(),
  label: z.string().nullable(),
  /** Null on the first summary of a case. */
  previous: CaseSummary.nullable(),
  current: CaseSummary,
  newMovements: z.array(
    z.object({
      instance: z.string(),
      movement: QueuedMovement,
      /**
       * A gazette movement's publication and counting start (Disponibilização no DJe, Publicação),
       * on the court's calendar, as a DJEN item's; absent for other movements and in alerts
       * queued before it was estimated.
       */
      deadline: DeadlineEstimate.optional(),
      /**
       * A hearing's own date where a text says it (the movement or a DJEN publication of the
       * case: summarize/hearing-when.ts); absent otherwise and in alerts queued before it.
       */
      hearing: HearingDate.optional(),
      /**
       * A gazette movement's act, as far as the record shows it (the court's latest act before
       * it): whether it may ask something of the party, or opens periods of its own (then in
       * `acts`). Absent for other movements, when no act is found, and in alerts queued before.
       */
      publishes: z
        .strictObject({
          movementId: z.string(),
          title: z.string(),
          dateTime: z.string().nullable(),
          opensPeriods: z.boolean(),
        })
        .optional(),
    }),
  ),
  /**
   * The acts among the new movements (or published by a new or re-dated gazette movement) that open periods,
   * each period with its last day where the publication is known (summarize/act-deadlines.ts);
   * what the alert opens with. Absent in alerts queued before.
   */
  acts: z.array(ActDeadline).default([]),
  /**
   * Late records (policy/late-records.ts): movements DataJud listed for the first time long after
   * their own date, behind known ones; shown apart, quietly, never as news. Absent before them.
   */
  lateMovements: z.array(z.object({ instance: z.string(), movement: QueuedMovement })).default([]),
  /**
   * Known movements DataJud now serves otherwise (summarize/corrections.ts): what was reported
   * and what it is now. Absent in alerts queued before corrections were reported.
   */
  corrections: z
    .array(
      z.object({
        instance: z.string(),
        kind: z.enum(["amended", "redated"]),
        before: QueuedMovement,
        after: QueuedMovement,
        /**
         * A re-dated gazette movement's dates before and after, on the court's calendar; absent
         * for other corrections and in alerts queued before (then the national calendar's).
         */
        counting: z.object({ before: DeadlineEstimate, after: DeadlineEstimate }).optional(),
      }),
    )
    .default([]),
  /**
   * The case's own data changed (class, subjects, court unit, secrecy), per instance, with the
   * values before and after as DataJud gave them (summarize/field-changes.ts reads them).
   * Absent in alerts queued before they were shown.
   */
  fieldChanges: z
    .array(
      z.object({
        instance: z.string(),
        field: z.enum(["class", "subjects", "courtUnit", "secrecyLevel"]),
        before: z.unknown(),
        after: z.unknown(),
      }),
    )
    .default([]),
  instances: z.array(
    z.object({
      instance: z.string(),
      courtUnit: z.string().nullable(),
      className: z.string().nullable(),
      /** The class's TPU code (absent in alerts queued before it was kept): criminal by code. */
      classCode: z.number().int().nullable().optional(),
    }),
  ),
  provenance: z.object({
    index: z.string(),
    fetchedAt: z.string(),
    lastUpdatedAt: z.string().nullable(),
  }),
  changeKinds: z.array(z.string()),
  /** A new movement matched the watchlist's `urgent:` rules (absent in alerts queued before them). */
  urgent: z.boolean().default(false),
  /**
   * Why it is urgent, in Portuguese, each once: the watchlist's rules, a hearing cancelled, a
   * date a deadline counts from moved. Empty in alerts queued before reasons were given (the
   * watchlist's rules were then the only reason).
   */
  urgentReasons: z.array(z.string()).default([]),
  /** New movements left out of `newMovements` because they matched an `ignore:` rule. */
  ignoredMovements: z.number().int().nonnegative().default(0),
  /** How fresh each source was for the case when queued (docs/freshness.md). */
  sources: AlertSources.optional(),
});
export type AlertContent = z.infer<typeof AlertContent>;

export interface BuildAlertContentInput {
  caseNumber: string;
  court: string;
  label: string | null;
  previous: CaseSummary | null;
  current: CaseSummary;
  /** The case's current records, one per instance. */
  records: readonly InstanceRecord[];
  newMovements: ReadonlyArray<{ instance: string; movement: Movement }>;
  lateMovements?: ReadonlyArray<{ instance: string; movement: Movement }>;
  corrections?: readonly Correction[];
  fieldChanges?: readonly FieldChange[];
  provenance: Provenance;
  changeKinds: readonly string[];
  urgent?: boolean;
  urgentReasons?: readonly string[];
  ignoredMovements?: number;
  /** Court calendars with calendar.closures, for gazette movements' dates; absent: none. */
  calendars?: CalendarFor | undefined;
  /** New hearings' own dates, by movement id (summarize/hearing-when.ts). */
  hearingDates?: Readonly<Record<string, HearingDate>>;
  /** The case's stored DJEN items: an act's publication where DataJud lacks it. */
  publications?: readonly DjenItemFacts[];
}

function latest(values: ReadonlyArray<string | null>): string | null {
  let best: string | null = null;
  for (const value of values) if (value !== null && (best === null || value > best)) best = value;
  return best;
}

const NO_CLOSURES = calendarsWith();

/** A gazette movement's estimate at its instance's court and seat; null for any other. */
function gazetteDeadline(
  input: BuildAlertContentInput,
  instance: string,
  movement: Movement,
): DeadlineEstimate | null {
  const day = movement.dateTime === null ? null : wallClockDay(movement.dateTime);
  if (day === null) return null;
  const record = input.records.find((r) => r.instance === instance);
  return estimateGazetteMovement(
    { code: movement.code, day },
    {
      court: record?.court ?? input.court,
      municipality: record?.courtUnit?.municipalityCode ?? undefined,
      className: record?.class?.name ?? null,
      classCode: record?.class?.code ?? null,
      caseNumber: input.caseNumber.replace(/\D/gu, ""),
    },
    input.calendars ?? NO_CLOSURES,
  );
}

/** What a gazette movement published, as far as its record shows; null when not known. */
function publishesOf(
  input: BuildAlertContentInput,
  instance: string,
  movement: Movement,
): NonNullable<AlertContent["newMovements"][number]["publishes"]> | null {
  if (movement.code !== 1061 && movement.code !== 92) return null;
  const record = input.records.find((r) => r.instance === instance);
  if (record === undefined) return null;
  const act = publishedActOf(movement, record);
  if (act === null) return null;
  return {
    movementId: act.id,
    title: movementTitle(act, { criminal: isCriminalClass(record.class) }),
    dateTime: act.dateTime,
    opensPeriods: periodsOfAct(act, record) !== null,
  };
}

/**
 * The acts the alert opens with: each new movement that opens periods, and each act with periods
 * a new gazette movement publishes, once, oldest first.
 */
function actsOf(input: BuildAlertContentInput): ActDeadline[] {
  const out: ActDeadline[] = [];
  const seen = new Set<string>();
  const digits = input.caseNumber.replace(/\D/gu, "");
  const fetched = Date.parse(input.provenance.fetchedAt);
  const today = dateInZone(Number.isNaN(fetched) ? 0 : fetched);
  // A gazette movement the court re-dated moves the dates of the act it published.
  const redated = (input.corrections ?? [])
    .filter((c) => c.kind === "redated")
    .map((c) => ({ instance: c.instance, movement: c.after }));
  const sorted = [...input.newMovements, ...redated].sort((a, b) =>
    (a.movement.dateTime ?? "").localeCompare(b.movement.dateTime ?? ""),
  );
  for (const { instance, movement } of sorted) {
    const record = input.records.find((r) => r.instance === instance);
    if (record === undefined) continue;
    if (!mayStillMatter(movement, today)) continue;
    for (const act of [movement, ...actsPublishedBy(movement, record)]) {
      const key = `${instance}|${act.id}`;
      if (seen.has(key)) continue;
      const dated = actDeadline({
        instance,
        act,
        record,
        caseNumber: digits,
        publications: input.publications ?? [],
        calendars: input.calendars ?? NO_CLOSURES,
      });
      if (dated === null || isStale(dated, today)) continue;
      seen.add(key);
      out.push(dated);
    }
  }
  return out;
}

/** The payload for one change, from what the sweep already holds. */
export function buildAlertContent(input: BuildAlertContentInput): AlertContent {
  return {
    caseNumber: input.caseNumber,
    court: input.court,
    label: input.label,
    previous: input.previous,
    current: input.current,
    newMovements: input.newMovements.map((m) => {
      const deadline = gazetteDeadline(input, m.instance, m.movement);
      const hearing = input.hearingDates?.[m.movement.id];
      const publishes = publishesOf(input, m.instance, m.movement);
      return {
        instance: m.instance,
        movement: m.movement,
        ...(deadline === null ? {} : { deadline }),
        ...(hearing === undefined ? {} : { hearing }),
        ...(publishes === null ? {} : { publishes }),
      };
    }),
    acts: actsOf(input),
    lateMovements: (input.lateMovements ?? []).map((m) => ({
      instance: m.instance,
      movement: m.movement,
    })),
    corrections: (input.corrections ?? []).map((c) => {
      const before = c.kind === "redated" ? gazetteDeadline(input, c.instance, c.before) : null;
      const after = c.kind === "redated" ? gazetteDeadline(input, c.instance, c.after) : null;
      return {
        instance: c.instance,
        kind: c.kind,
        before: c.before,
        after: c.after,
        ...(before === null || after === null ? {} : { counting: { before, after } }),
      };
    }),
    fieldChanges: (input.fieldChanges ?? []).map((f) => ({
      instance: f.instance,
      field: f.field,
      before: f.before ?? null,
      after: f.after ?? null,
    })),
    instances: input.records.map((r) => ({
      instance: r.instance,
      courtUnit: r.courtUnit?.name || null,
      className: r.class?.name || null,
      classCode: r.class?.code ?? null,
    })),
    provenance: {
      index: input.provenance.index,
      fetchedAt: input.provenance.fetchedAt,
      // ISO strings in UTC sort as text; the newest push from any instance is "DataJud's update".
      lastUpdatedAt: latest(input.records.map((r) => r.lastUpdatedAt)),
    },
    changeKinds: [...input.changeKinds],
    urgent: input.urgent ?? false,
    urgentReasons: [...(input.urgentReasons ?? [])],
    ignoredMovements: input.ignoredMovements ?? 0,
  };
}
