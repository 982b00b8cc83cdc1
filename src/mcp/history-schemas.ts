import { z } from "zod";
import { PublicationFacts } from "../djen/publication-facts.js";
import { CASE_STATES } from "../policy/case-status.js";

/*
 * Outputs of the tools over the monitor's own history. Our own output: strict. Instants we
 * recorded (checked at, detected at) are ISO instants; movement dates are DataJud's, as stored.
 */

export const HistoryMovement = z.strictObject({
  instance: z.string(),
  code: z.number().int().nullable(),
  name: z.string(),
  /** The name a lawyer reads: the TPU's leaf with its parent where the leaf says nothing. */
  title: z.string(),
  /** DataJud's date of the movement: the court's wall clock, no zone, never shifted. */
  dateTime: z.string().nullable(),
  /** Each complement as "name: value". */
  complements: z.array(z.string()),
  /** What the TPU code usually means, in Portuguese; null for codes without a hint. */
  hint: z.string().nullable(),
});
export type HistoryMovement = z.infer<typeof HistoryMovement>;

export const SummaryHeadline = z.strictObject({
  statusCategory: z.string(),
  /** One paragraph, in Portuguese. */
  status: z.string(),
  needsLawyerAttention: z.boolean(),
  attentionReasons: z.array(z.string()),
  nextExpectedStep: z.string().nullable(),
  /** The model, or "rules". */
  generatedBy: z.string(),
  /** alert: mailed to the watchers; ignored, muted: recorded without mail. */
  disposition: z.enum(["alert", "ignored", "muted"]),
});
export type SummaryHeadline = z.infer<typeof SummaryHeadline>;

export const HistoryChange = z.strictObject({
  detectedAt: z.string(),
  /** e.g. ["new_movements"], ["new_instance", "class_changed"] */
  kinds: z.array(z.string()),
  newInstances: z.array(z.string()),
  fieldChanges: z.array(
    z.strictObject({
      instance: z.string(),
      field: z.string(),
      /** As DataJud gave them (a class's code and name, a secrecy level's number). */
      before: z.unknown(),
      after: z.unknown(),
      /** In Portuguese: "Classe alterada no 1º grau (G1): Procedimento Comum Cível (código 7) → …". */
      headline: z.string(),
      beforeText: z.string(),
      afterText: z.string(),
      /** What it means (a secrecy level's access, a redistribution); null: nothing to add. */
      note: z.string().nullable(),
    }),
  ),
  /** As this change reported them: a later correction never rewrites them. */
  newMovements: z.array(HistoryMovement),
  /**
   * Late records this change first saw: listed by DataJud long after their own date, behind
   * movements already known; reported quietly, never as news (not in newMovements).
   */
  lateMovements: z.array(HistoryMovement),
  /** Known movements the court corrected, reported by this change: what they were and are now. */
  corrections: z.array(
    z.strictObject({
      instance: z.string(),
      /** amended: other complements at the same time; redated: the same act at another time. */
      kind: z.enum(["amended", "redated"]),
      /** In Portuguese: "Audiência de conciliação: designada → cancelada". */
      headline: z.string(),
      /** Why it was urgent, in Portuguese; null when it was not. */
      urgent: z.string().nullable(),
      before: HistoryMovement,
      after: HistoryMovement,
    }),
  ),
  /** null until a summary is written (the next sweep writes one a crash left out). */
  summary: SummaryHeadline.nullable(),
});
export type HistoryChange = z.infer<typeof HistoryChange>;

/** A stored DJEN publication, as the history tools and `monitor history --json` show it. */
export const HistoryPublication = z.strictObject({
  /** DJEN's id of the communication. */
  djenId: z.string(),
  cnjNumber: z.string().nullable(),
  ...PublicationFacts.shape,
  /** When the monitor first read it (an instant). */
  firstSeenAt: z.string(),
  /** How it was found: "case:<digits>", "oab:123456/SP". */
  foundBy: z.array(z.string()),
  /** alert: mailed; baseline, ignored, muted, cancelled: recorded without mail; null: not yet decided. */
  disposition: z.enum(["alert", "baseline", "ignored", "muted", "cancelled"]).nullable(),
  /** DJEN showed it cancelled: when the monitor saw it, and the reason DJEN gave. */
  cancelled: z.strictObject({ seenAt: z.string(), reason: z.string().nullable() }).nullable(),
  /** Its plain text, cut (court data, not instructions). */
  text: z.string(),
  /** Characters of the whole plain text. */
  textChars: z.number().int(),
  link: z.string().nullable(),
  certificateUrl: z.string().nullable(),
});
export type HistoryPublication = z.infer<typeof HistoryPublication>;

/** A DJEN source's last check (a case number or an OAB registration). */
export const DjenCheck = z.strictObject({
  lastCheckedAt: z.string().nullable(),
  /** failed: DJEN gave no usable answer (never "no publication"). */
  lastOutcome: z.enum(["ok", "failed"]).nullable(),
  consecutiveFailures: z.number().int(),
  lastError: z.string().nullable(),
  /** When the next look is due (the last check answered: not failing); null: due now. */
  nextCheckDueAt: z.string().nullable(),
});
export type DjenCheck = z.infer<typeof DjenCheck>;

export const WatchedCaseView = z.strictObject({
  cnjNumber: z.string(),
  court: z.string(),
  /** The DataJud index (court alias) the case was last read from: a TRF1 number can live in TRF6. */
  foundIn: z.string().nullable(),
  label: z.string().nullable(),
  /** failing: the last check got no answer; not_found: DataJud answered without it; gone: not found `notFoundThreshold` times in a row. */
  state: z.enum(CASE_STATES),
  /** false, true (until the watchlist line goes) or the last muted day (YYYY-MM-DD). */
  muted: z.union([z.boolean(), z.string()]),
  lastCheckedAt: z.string().nullable(),
  lastOutcome: z.string().nullable(),
  lastChangedAt: z.string().nullable(),
  lastError: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  /** The newest stored movement's date, the court's wall clock. */
  latestMovementAt: z.string().nullable(),
  /** The case number's last DJEN check; null when DJEN was never asked about it. */
  djen: DjenCheck.nullable(),
});
export type WatchedCaseView = z.infer<typeof WatchedCaseView>;

const Page = {
  offset: z.number().int(),
  /** Pass as offset for the next page; null on the last page. */
  nextOffset: z.number().int().nullable(),
};

export const ListWatchedCasesOutput = z.strictObject({
  total: z.number().int(),
  ...Page,
  cases: z.array(WatchedCaseView),
  /** The OAB registrations DJEN was asked about ("123456/SP"), with their last check; not paged. */
  oab: z.array(DjenCheck.extend({ registration: z.string() })),
  /** false: djen.enabled is false, no DJEN check is made and none is shown (nor counted failing). */
  djenEnabled: z.boolean(),
  notes: z.array(z.string()),
});
export type ListWatchedCasesOutput = z.infer<typeof ListWatchedCasesOutput>;

export const RecentChangesOutput = z.strictObject({
  since: z.string(),
  /**
   * DJEN publications first read or seen cancelled since then, newest first (at most 100, the
   * same on every page), each saying whether its case is in the watchlist: publications found
   * through an OAB registration may not be.
   */
  publications: z.array(HistoryPublication.extend({ inWatchlist: z.boolean() })),
  totalPublications: z.number().int(),
  /** What the counting dates leave out. */
  countingNote: z.string(),
  totalCases: z.number().int(),
  ...Page,
  cases: z.array(
    z.strictObject({
      cnjNumber: z.string(),
      court: z.string(),
      label: z.string().nullable(),
      changes: z.array(HistoryChange),
    }),
  ),
});
export type RecentChangesOutput = z.infer<typeof RecentChangesOutput>;

export const GetCaseHistoryOutput = z.strictObject({
  case: z.strictObject({
    cnjNumber: z.string(),
    court: z.string(),
    /** The DataJud index (court alias) the case was last read from: a TRF1 number can live in TRF6. */
    foundIn: z.string().nullable(),
    label: z.string().nullable(),
    watched: z.boolean(),
    firstSeenAt: z.string().nullable(),
    lastCheckedAt: z.string().nullable(),
    lastOutcome: z.string().nullable(),
    lastChangedAt: z.string().nullable(),
  }),
  totalChanges: z.number().int(),
  ...Page,
  changes: z.array(HistoryChange),
  /**
   * Every form of the case's corrected movements (at most 50 movements, most recently corrected
   * first, the same on every page), oldest form first: what was reported is never rewritten.
   */
  movementVersions: z.array(
    z.strictObject({
      instance: z.string(),
      versions: z.array(
        z.strictObject({
          version: z.number().int(),
          kind: z.enum(["first", "amended", "redated"]),
          /** When the monitor first read this form (an instant). */
          recordedAt: z.string(),
          /**
           * A change reported this form (version 1 as news, a later one as a correction): mailed
           * unless that change was kept quiet (ignore rules, a muted case). False: a baseline
           * read or a completion recorded without mail.
           */
          reported: z.boolean(),
          movement: HistoryMovement,
        }),
      ),
    }),
  ),
  /**
   * Movements DataJud stopped listing, most recently gone first (at most 100, the same on every
   * page): kept by the monitor and never read as undone. `hidden`: their instance's secrecy level
   * is above 0 now, so a secrecy raised most likely hid them; otherwise the court deleted them.
   */
  noLongerListed: z.array(
    HistoryMovement.extend({
      /** When a sweep first found it missing (an instant). */
      disappearedAt: z.string(),
      hidden: z.boolean(),
    }),
  ),
  totalNoLongerListed: z.number().int(),
  /** The case number's DJEN publications, newest disponibilização first (at most 50, the same on every page). */
  publications: z.array(HistoryPublication),
  totalPublications: z.number().int(),
  /** What the counting dates leave out. */
  countingNote: z.string(),
  /**
   * Urgent alerts of the case that asked to be acknowledged (newest first, at most 50): who
   * acknowledged each and when (our instants), or null while nobody did.
   */
  acknowledgements: z.array(
    z.strictObject({
      subject: z.string(),
      queuedAt: z.string(),
      expiresAt: z.string(),
      acknowledgedAt: z.string().nullable(),
      acknowledgedBy: z.string().nullable(),
    }),
  ),
  /**
   * The escalation steps of those alerts (newest alert first, at most 50): to whom, when due and
   * why (within, before, last-day), when queued (sent), or the acknowledgement that stopped it.
   */
  escalations: z.array(
    z.strictObject({
      subject: z.string(),
      alertQueuedAt: z.string(),
      step: z.number().int(),
      to: z.string(),
      toKind: z.enum(["watcher", "endpoint"]),
      dueAt: z.string(),
      dueBy: z.string(),
      lastDay: z.string().nullable(),
      lastDayKind: z.string().nullable(),
      queuedAt: z.string().nullable(),
      problem: z.string().nullable(),
      acknowledgedAt: z.string().nullable(),
      expiresAt: z.string(),
    }),
  ),
});
export type GetCaseHistoryOutput = z.infer<typeof GetCaseHistoryOutput>;

export const RateStatusOutput = z.strictObject({
  datajud: z
    .strictObject({
      windowSeconds: z.number(),
      /** Requests allowed in any window (DATAJUD_REQUESTS_PER_MINUTE, at most 120). */
      limit: z.number().int(),
      /** Requests in the window that ends now. */
      used: z.number().int(),
      remaining: z.number().int(),
      /** Calls queued for the limiter. */
      waiting: z.number().int(),
      /** Requests allowed in flight at once now: halved on overload, grown back when quiet. */
      concurrency: z.number().int(),
      /** The configured ceiling (DATAJUD_CONCURRENCY). */
      maxConcurrency: z.number().int(),
      /** Requests in flight now. */
      inFlight: z.number().int(),
      requestsSentSinceStart: z.number().int(),
    })
    .nullable(),
  summarizer: z.strictObject({
    /** null: no ANTHROPIC_API_KEY; the rules engine writes summaries and spends no tokens. */
    model: z.string().nullable(),
    dailyTokenBudget: z.number().int(),
    /** Since midnight, São Paulo time; null without a database. */
    spentToday: z.number().int().nullable(),
    remainingToday: z.number().int().nullable(),
    runTokenBudget: z.number().int(),
    lastSweep: z
      .strictObject({
        startedAt: z.string(),
        finishedAt: z.string().nullable(),
        status: z.string(),
        tokens: z.number().int(),
        llmCalls: z.number().int().nullable(),
      })
      .nullable(),
  }),
  notes: z.array(z.string()),
});
export type RateStatusOutput = z.infer<typeof RateStatusOutput>;

const Lag = z.strictObject({
  /** Acts measured. */
  samples: z.number().int(),
  p50: z.number().int().nullable(),
  p90: z.number().int().nullable(),
  max: z.number().int().nullable(),
});

/** docs/freshness.md: how fresh DataJud and DJEN are per court, and the cross-source findings. */
export const SourceFreshnessOutput = z.strictObject({
  courts: z.array(
    z.strictObject({
      court: z.string(),
      cases: z.number().int(),
      /** The newest dataHoraUltimaAtualizacao among the court's watched cases: its wall clock. */
      newestUpdate: z.string().nullable(),
      newestUpdateDaysAgo: z.number().int().nullable(),
      /** When the monitor last saw one of their records move (UTC). */
      lastMovedAt: z.string().nullable(),
      /** Days from a DJEN disponibilização to the sweep that first saw DataJud record it. */
      lag: Lag,
      /** DJEN's own lag: dataenvio to data_disponibilizacao. */
      djenLag: Lag,
      djenNewestAvailableOn: z.string().nullable(),
      djenLastAskedAt: z.string().nullable(),
      silentSince: z.string().nullable(),
      /** One line, as `status` prints it. */
      summary: z.string(),
    }),
  ),
  /** The case asked about: its instances' DataJud updates; null when none was asked. */
  case: z
    .strictObject({
      cnjNumber: z.string(),
      instances: z.array(
        z.strictObject({
          court: z.string(),
          instance: z.string(),
          lastUpdatedAt: z.string().nullable(),
          movedAt: z.string().nullable(),
        }),
      ),
    })
    .nullable(),
  /** DJEN intimações DataJud's record still lacks past the court's usual lag. */
  dataJudLate: z.array(
    z.strictObject({
      cnjNumber: z.string(),
      court: z.string(),
      djenId: z.string(),
      availableOn: z.string(),
      days: z.number().int(),
      lateAfterDays: z.number().int(),
      note: z.string(),
    }),
  ),
  /** DataJud disponibilizações DJEN, asked completely, did not return (warned once). */
  djenGaps: z.array(
    z.strictObject({
      cnjNumber: z.string(),
      availableOn: z.string(),
      foundAt: z.string(),
      urgent: z.boolean(),
      warning: z.string(),
    }),
  ),
  notes: z.array(z.string()),
});
export type SourceFreshnessOutput = z.infer<typeof SourceFreshnessOutput>;
