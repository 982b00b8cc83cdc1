import { z } from "zod";

/*
 * The JSON body of every webhook we POST, version 1: the public contract a firm's system codes
 * against. Its JSON Schema is committed as schemas/webhook-event.v1.json (`npm run schemas`
 * writes it; a test fails when it and this file disagree). Within version 1 fields are only
 * added, never removed, renamed or retyped, so a receiver must ignore fields it does not know;
 * anything else is version 2, with its own type names and schema file. The envelope follows the
 * Standard Webhooks recommendation (`type`, `timestamp`, `data`); `id` is also the `webhook-id`
 * header and stays the same on every retry of the event, so it is the receiver's idempotency key.
 */

export const WEBHOOK_EVENT_VERSION = 1;

/** The event types; config/config-schema.ts lists them for `notify.endpoints.*.events`. */
export type EventType = WebhookEvent["type"];

const Instant = z
  .string()
  .describe("An instant the monitor itself measured, ISO 8601 in UTC (2025-10-02T14:11:20.512Z).");

const CourtWallClock = z
  .string()
  .describe(
    "A date or time as the court recorded it in DataJud (2025-10-02T13:30:00, or 2025-10-02 for a day): the court's own wall clock, never shifted to UTC.",
  );

const CalendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/u)
  .describe("A calendar day, YYYY-MM-DD.");

const CaseRef = z
  .object({
    number: z
      .string()
      .nullable()
      .describe("The CNJ number, formatted (NNNNNNN-DD.AAAA.J.TR.OOOO); null when DJEN gave none."),
    court: z.string().describe("The court: a DataJud alias (tjsp, trf1, stj) or DJEN's acronym."),
    label: z.string().nullable().describe("The watchlist's own name for the case."),
    link: z
      .string()
      .nullable()
      .describe("The court's public page for the case, where the court has a stable one."),
  })
  .meta({ id: "Case", title: "Case" });

const Movement = z
  .object({
    instance: z.string().describe("G1, G2, JE, TR, SUP..., as DataJud names the instance."),
    code: z.number().int().nullable().describe("The movement's code in CNJ's TPU table."),
    name: z.string().describe('The name as DataJud gives it (the TPU\'s leaf: "Confirmada").'),
    title: z
      .string()
      .optional()
      .describe(
        'The name a lawyer reads, as the e-mail gives it: the TPU parent where the leaf says nothing ("Intimação eletrônica confirmada"), a hearing with its type and situation, a criminal class\'s judgment in criminal words ("Sentença condenatória"). Absent from events built before it was sent.',
      ),
    dateTime: CourtWallClock.nullable(),
    complements: z
      .array(z.string())
      .describe('Each complement as one line of text ("situação da audiência: designada").'),
    occurrence: z
      .number()
      .int()
      .positive()
      .describe("1 for the first copy of an identical movement in the instance, 2 for the next..."),
  })
  .meta({ id: "Movement", title: "Movement" });
export type EventMovement = z.infer<typeof Movement>;

const LateMovement = Movement.extend({
  late: z
    .literal(true)
    .describe("Always true: DataJud listed it long after its own date; not news by itself."),
  daysLate: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .describe(
      "Whole days from the movement's own date (dateTime) to the sweep that first saw it; null when undated.",
    ),
}).meta({ id: "LateMovement", title: "LateMovement" });
export type EventLateMovement = z.infer<typeof LateMovement>;

const CodeNameValue = z.object({
  code: z.number().int().nullable().describe("The code in CNJ's tables (TPU, court units)."),
  name: z.string(),
});

const FieldValue = z
  .union([z.number().int(), CodeNameValue, z.array(CodeNameValue)])
  .nullable()
  .describe(
    "DataJud's value: a number (secrecyLevel), a code and name (class, courtUnit), a list of them (subjects); null when DataJud gave none.",
  );

const FieldChange = z
  .object({
    instance: z.string().describe("The instance whose record changed: G1, G2, JE, TR, SUP..."),
    field: z.string().describe("class, subjects, courtUnit, secrecyLevel, or a later field."),
    title: z
      .string()
      .describe('What changed and where, in Portuguese ("Classe alterada no 1º grau (G1)").'),
    before: FieldValue,
    after: FieldValue,
    beforeText: z
      .string()
      .describe("The value before, one line in Portuguese (a secrecy level with its name)."),
    afterText: z.string().describe("The value now, one line in Portuguese."),
    note: z
      .string()
      .nullable()
      .describe(
        "What the change means, in Portuguese (who may see the case at a secrecy level); null: nothing to add.",
      ),
  })
  .meta({ id: "FieldChange", title: "FieldChange" });
export type EventFieldChange = z.infer<typeof FieldChange>;

/**
 * A date a lawyer may act on. Every field but `estimate` and `note` is optional: deadlines grow
 * (last day, the rule and calendar behind it) without a new version.
 */
const Deadline = z
  .object({
    estimate: z
      .literal(true)
      .describe("Always true: these dates are the monitor's estimate; confirm them in court."),
    publishedOn: CalendarDate.nullable().optional(),
    countingStartsOn: CalendarDate.nullable().optional(),
    lastDay: CalendarDate.nullable().optional(),
    rule: z.string().nullable().optional().describe("The legal rule the dates rest on."),
    calendar: z.string().nullable().optional().describe("The court calendar the count used."),
    reasons: z
      .array(z.string())
      .optional()
      .describe("Holidays, recess and the like that moved the dates."),
    note: z.string().describe("What the estimate leaves out, in Portuguese."),
  })
  .meta({ id: "Deadline", title: "Deadline" });

const Status = z
  .object({
    category: z.string().describe("awaiting_citation, in_progress, awaiting_decision, ..."),
    categoryLabel: z.string().describe("The category in Portuguese."),
    text: z.string().describe("One paragraph, in Portuguese."),
    needsLawyerAttention: z.boolean(),
    attentionReasons: z.array(z.string()),
    nextExpectedStep: z.string().nullable(),
    generatedBy: z.string().describe('"rules", or the model that wrote the summary.'),
  })
  .meta({ id: "Status", title: "Status" });

const DataJudSource = z.object({
  system: z.literal("datajud"),
  index: z.string(),
  fetchedAt: Instant,
  lastUpdatedAt: CourtWallClock.nullable(),
});

/** How fresh each source was for the case: the facts behind an e-mail's "Fontes:" line. */
const Sources = z
  .object({
    datajud: z.object({
      updatedAt: CourtWallClock.nullable().describe(
        "The newest dataHoraUltimaAtualizacao of the case's records in DataJud; null when DataJud gave none.",
      ),
    }),
    djen: z.object({
      askedAt: Instant.nullable().describe(
        "When DJEN last answered completely for the case number; null: never asked, or DJEN is off.",
      ),
    }),
    dataJudLate: z
      .boolean()
      .describe(
        "DJEN has an intimação of the case that DataJud's record still does not show past the court's usual lag.",
      ),
  })
  .meta({ id: "Sources", title: "Sources" });
export type EventSources = z.infer<typeof Sources>;

const sourcesField = Sources.optional().describe(
  "How fresh each source was for the case when the event was queued (docs/freshness.md). Absent from events queued before it, and for a case outside the watchlist.",
);

const DjenSource = z.object({
  system: z.literal("djen"),
  djenId: z.string(),
  fetchedAt: Instant,
});

const ActPeriodEvent = z
  .object({
    name: z.string().describe('The period, in Portuguese ("apelação", "embargos de declaração").'),
    days: z
      .number()
      .int()
      .positive()
      .nullable()
      .describe("Its length; null when the law ties it to another (CPC art. 1.026)."),
    counting: z.string().describe("business (dias úteis) or calendar (dias corridos)."),
    article: z.string().describe("The article that gives the period and how it counts."),
    countingStartsOn: CalendarDate.nullable(),
    lastDay: CalendarDate.nullable().describe(
      "The estimated last day; null: to confirm (no publication known).",
    ),
    note: z.string().nullable().describe("Why there is no date, or what moved it."),
  })
  .meta({ id: "ActPeriod", title: "ActPeriod" });

const ActEvent = z
  .object({
    instance: z.string(),
    act: z
      .string()
      .describe('The act in a lawyer\'s words ("sentença", "acórdão", "bloqueio ou penhora").'),
    title: z.string().describe("The movement as the e-mail names it."),
    actOn: CalendarDate.nullable().describe("The court's day of the act."),
    publishedOn: CalendarDate.nullable().describe(
      "When the act counts as published (Lei 11.419/2006 art. 4 §3); null when no publication is known.",
    ),
    countingStartsOn: CalendarDate.nullable(),
    publication: z
      .string()
      .nullable()
      .describe("Where the publication date was read (a DataJud gazette movement or a DJEN item)."),
    periods: z.array(ActPeriodEvent),
    estimate: z
      .literal(true)
      .describe("Always true: these dates are the monitor's estimate; confirm them in court."),
  })
  .meta({ id: "Act", title: "Act" });

const Opening = z
  .object({
    happened: z.array(z.string()).describe("What happened, in a lawyer's words, one line each."),
    todo: z
      .array(z.string())
      .describe(
        'What to do by when, earliest first ("Até 24/07/2020 (sexta-feira): embargos de declaração ..."; "Data a confirmar: ...").',
      ),
    calendar: z
      .string()
      .nullable()
      .describe(
        "The court calendar once for every date above: the days that moved one, what it does not know.",
      ),
  })
  .meta({ id: "Opening", title: "Opening" });

export const MovementEventData = z
  .object({
    case: CaseRef,
    urgent: z.boolean().describe("A new movement matched the watchlist's urgent rules."),
    changeKinds: z.array(z.string()).describe("new_movements, class_changed, ..."),
    movements: z.array(Movement).describe("The new movements, newest first (at most 20)."),
    movementsOmitted: z.number().int().nonnegative().describe("New movements beyond those listed."),
    ignoredMovements: z
      .number()
      .int()
      .nonnegative()
      .describe("New movements left out by the watchlist's ignore rules."),
    lateMovements: z
      .array(LateMovement)
      .optional()
      .describe(
        "Late records: movements DataJud listed for the first time long after their own date, behind acts already known, oldest first (at most 20); not in movements, never urgent by themselves. Absent from events built before they were sent.",
      ),
    lateMovementsOmitted: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe("Late records beyond those listed."),
    fieldChanges: z
      .array(FieldChange)
      .optional()
      .describe(
        "The case's own data that changed (changeKinds class_changed, subjects_changed, court_unit_changed, secrecy_changed), each in its instance, before and after. Absent from events built before they were sent.",
      ),
    opening: Opening.optional().describe(
      "What the e-mail opens with: what happened, what to do by when, the calendar. Absent from events built before it was sent.",
    ),
    acts: z
      .array(ActEvent)
      .optional()
      .describe(
        "The acts among the new movements (or published by one) that open periods, each period with its estimated last day where the publication is known. Absent from events built before they were sent.",
      ),
    status: Status,
    deadline: Deadline.nullable().optional(),
    source: DataJudSource,
    sources: sourcesField,
  })
  .meta({ id: "MovementEventData", title: "MovementEventData" });
export type MovementEventData = z.infer<typeof MovementEventData>;

export const CorrectionEventData = z
  .object({
    case: CaseRef,
    urgent: z.boolean(),
    correction: z
      .string()
      .describe(
        "amended (same act, other complement or text), redated (same act, another date), or a later kind.",
      ),
    summary: z.string().describe("What changed, in Portuguese, one line."),
    was: Movement.describe("The movement as an earlier alert reported it."),
    now: Movement.describe("The movement as the court records it now."),
    deadline: Deadline.nullable().optional(),
    source: DataJudSource,
    sources: sourcesField,
  })
  .meta({ id: "CorrectionEventData", title: "CorrectionEventData" });
export type CorrectionEventData = z.infer<typeof CorrectionEventData>;

const Party = z.object({ name: z.string(), side: z.string().nullable() });
const Lawyer = z.object({ name: z.string().nullable(), oab: z.string().nullable() });

const Publication = z
  .object({
    kind: z.string().nullable().describe("Intimação, Citação, Edital..., as DJEN says."),
    documentType: z.string().nullable(),
    className: z.string().nullable(),
    courtUnit: z.string().nullable(),
    availableOn: CalendarDate.describe("The day DJEN made it available."),
    text: z.string().describe("Plain text, cut at 4,000 characters."),
    textTruncated: z.boolean(),
    link: z
      .string()
      .nullable()
      .describe(
        "The document at the court, as DJEN gave it, only when it is on a court's host (https, a host under jus.br); null otherwise.",
      ),
    certificateUrl: z.string().nullable().describe("DJEN's certificate of publication."),
    parties: z.array(Party),
    lawyers: z.array(Lawyer),
  })
  .meta({ id: "Publication", title: "Publication" });

const publicationFields = {
  case: CaseRef,
  watched: z.boolean().describe("The case is in the watchlist."),
  registrations: z.array(z.string()).describe('Watched OAB registrations it names ("123456/SP").'),
  urgent: z.boolean(),
  urgency: z
    .string()
    .nullable()
    .describe("rule (an urgent rule matched), starts_deadline (intimação or citação), or null."),
  publication: Publication,
  deadline: Deadline,
  source: DjenSource,
  sources: sourcesField,
};

const EarlierDates = z
  .object({
    publishedOn: CalendarDate.describe("The publication day the earlier event gave."),
    countingStartsOn: CalendarDate.nullable(),
    lastDay: CalendarDate.nullable(),
    session: z
      .string()
      .nullable()
      .describe("A session it announces, as the court's wall clock (YYYY-MM-DD HH:MM)."),
  })
  .meta({ id: "EarlierDates", title: "EarlierDates" });

export const ReestimateEventData = z
  .object({
    ...publicationFields,
    previous: EarlierDates.nullable().describe(
      "The dates the earlier event (publication.published or an earlier publication.reestimated) gave; null when unknown.",
    ),
    revision: z
      .number()
      .int()
      .positive()
      .nullable()
      .describe("The estimate's revision: each move of the dates is one event."),
  })
  .meta({ id: "ReestimateEventData", title: "ReestimateEventData" });
export type ReestimateEventData = z.infer<typeof ReestimateEventData>;

export const PublicationEventData = z
  .object(publicationFields)
  .meta({ id: "PublicationEventData", title: "PublicationEventData" });
export type PublicationEventData = z.infer<typeof PublicationEventData>;

export const CancellationEventData = z
  .object({
    ...publicationFields,
    cancellation: z.object({
      reason: z.string().nullable(),
      at: z.string().nullable().describe("When DJEN says it was cancelled, as DJEN wrote it."),
    }),
  })
  .meta({ id: "CancellationEventData", title: "CancellationEventData" });
export type CancellationEventData = z.infer<typeof CancellationEventData>;

export const PartyMatchEventData = z
  .object({
    ...publicationFields,
    party: z
      .object({
        name: z.string().describe("The watched party, as the watchlist names it."),
        document: z
          .string()
          .nullable()
          .describe(
            'Its CPF or CNPJ as the watchlist gives it ("CNPJ 11.222.333/0001-81"); null when none.',
          ),
        confidence: z
          .string()
          .describe(
            "confirmado (its CPF/CNPJ is written in the item), provavel (a destinatário has its name), homonimo (the name only in the text, or only part of it), or a later kind.",
          ),
        reason: z.string().describe("Why, one sentence in Portuguese."),
        recipient: z
          .string()
          .nullable()
          .describe("The destinatário that matched, as DJEN wrote it; null when none did."),
        side: z
          .string()
          .nullable()
          .describe("Its polo as DJEN sends it (A, P...); null when none."),
        watchCommand: z.string().describe("The command that adds the case to the watchlist."),
      })
      .describe("The watched party the item names, and how sure the match is."),
  })
  .meta({ id: "PartyMatchEventData", title: "PartyMatchEventData" });
export type PartyMatchEventData = z.infer<typeof PartyMatchEventData>;

export const PublicationMissingEventData = z
  .object({
    case: CaseRef,
    urgent: z
      .boolean()
      .describe("A period counted from the day it was made available could still be running."),
    summary: z.string().describe("The warning, one sentence in Portuguese."),
    instance: z.string().describe("The instance whose DataJud record names it: G1, G2, JE..."),
    movement: z
      .string()
      .describe(
        'DataJud\'s movement as it names it ("Disponibilização no Diário da Justiça Eletrônico").',
      ),
    availableOn: CalendarDate.describe("The day DataJud says it was made available in the DJe."),
    djenAskedAt: Instant.describe(
      "DJEN's last complete answer for the case number, which returned nothing of that day nor of three days around it.",
    ),
    sources: sourcesField,
  })
  .meta({ id: "PublicationMissingEventData", title: "PublicationMissingEventData" });
export type PublicationMissingEventData = z.infer<typeof PublicationMissingEventData>;

const SourceCheck = z
  .object({
    checkedAt: Instant.nullable().describe("The source's last check of the case; null: never."),
    outcome: z
      .string()
      .nullable()
      .describe(
        "DataJud: baseline, unchanged, changed, not_found, failed (or a later kind); DJEN: ok or failed; null: never checked.",
      ),
    error: z.string().nullable().describe("What failed, one line; null when it did not."),
  })
  .meta({ id: "SourceCheck", title: "SourceCheck" });

export const CaseCheckedEventData = z
  .object({
    case: CaseRef,
    day: CalendarDate.describe(
      "The day (schedule.timezone) this event stands for: one per case per day.",
    ),
    outcome: z
      .string()
      .describe("ok: DataJud answered for the case; failed: the check failed (or a later kind)."),
    datajud: SourceCheck,
    djen: SourceCheck.nullable().describe(
      "DJEN's last check of the case number; null when DJEN is off.",
    ),
    instances: z
      .array(
        z.object({
          instance: z.string().describe("G1, G2, JE, TR, SUP..."),
          updatedAt: CourtWallClock.nullable().describe(
            "Its record's dataHoraUltimaAtualizacao (or index time); null when DataJud gave none.",
          ),
        }),
      )
      .describe("The case's instances as DataJud last returned them."),
    sources: Sources,
  })
  .meta({ id: "CaseCheckedEventData", title: "CaseCheckedEventData" });
export type CaseCheckedEventData = z.infer<typeof CaseCheckedEventData>;

export const OperatorEventData = z
  .object({
    alertType: z
      .string()
      .describe(
        "auth_rejected, auth_recovered, sweeps_failing, sweeps_recovered, djen_failing, djen_recovered, case_failing, case_gone, watchlist_invalid, watchlist_recovered, or a later kind.",
      ),
    problem: z.boolean().describe("false for news that a problem is over."),
    title: z.string().describe("One line, in Portuguese."),
    case: CaseRef.nullable(),
    since: Instant.nullable(),
    lastError: z.string().nullable(),
  })
  .meta({ id: "OperatorEventData", title: "OperatorEventData" });
export type OperatorEventData = z.infer<typeof OperatorEventData>;

export const AcknowledgedEventData = z
  .object({
    alert: z
      .object({
        key: z
          .string()
          .describe(
            "What the alert was about, the same in each channel's copy of it (alert:<change>:..., publication:<DJEN id>...).",
          ),
        subject: z.string().describe("The alert's subject line, in Portuguese."),
        queuedAt: Instant.describe("When the alert was queued, and its acknowledgement asked."),
      })
      .describe("The urgent alert that was acknowledged."),
    case: CaseRef.nullable(),
    acknowledgedAt: Instant,
    acknowledgedBy: z
      .string()
      .describe(
        'Whose link or reply it was: the watcher\'s e-mail address, "whatsapp +55..." for a watcher\'s WhatsApp number, or "<channel>:<endpoint>" for a chat endpoint.',
      ),
    via: z
      .string()
      .describe(
        'How: "link" (the button of the alert\'s acknowledgement page), "telegram" or "whatsapp" (a reply "ciente" to the alert\'s message); a later way may add a value.',
      ),
  })
  .meta({ id: "AcknowledgedEventData", title: "AcknowledgedEventData" });
export type AcknowledgedEventData = z.infer<typeof AcknowledgedEventData>;

export const EscalatedEventData = z
  .object({
    alert: z
      .object({
        key: z
          .string()
          .describe("What the alert was about, the same in each channel's copy of it."),
        subject: z.string().describe("The alert's subject line, in Portuguese."),
        queuedAt: Instant.describe(
          "When the alert was queued, and its acknowledgement asked: unacknowledged since.",
        ),
      })
      .describe("The urgent alert nobody acknowledged in time."),
    case: CaseRef.nullable(),
    step: z.number().int().positive().describe("This step's place in the chain, from 1."),
    steps: z.number().int().positive().describe("How many steps the chain has."),
    to: z
      .string()
      .describe("Who this step tells: a watcher's e-mail address or an endpoint's name."),
    firstTo: z
      .array(z.string())
      .describe(
        'Who got the alert first: e-mail addresses and "<channel>:<endpoint>" for chat endpoints.',
      ),
    lastDay: CalendarDate.nullable().describe(
      "The earliest day the alert's dates end on (a period's last day, an estimate, or a hearing's day); null when it names none.",
    ),
    lastDayKind: z
      .enum(["period", "hearing"])
      .nullable()
      .describe("period: a period's last day (estimate); hearing: a hearing's or session's day."),
    dueBy: z
      .enum(["within", "before", "last-day"])
      .describe(
        "What made the step due: within (business hours after the alert), before (court business days before the last day), last-day (the last day itself).",
      ),
  })
  .meta({ id: "EscalatedEventData", title: "EscalatedEventData" });
export type EscalatedEventData = z.infer<typeof EscalatedEventData>;

const envelope = {
  id: z
    .string()
    .regex(/^evt_[0-9a-f]{32}$/u)
    .describe("The event's id, also sent as webhook-id: the same on every retry."),
  version: z.literal(WEBHOOK_EVENT_VERSION),
  timestamp: Instant.describe("When the monitor found what the event reports."),
  test: z.boolean().describe("true for a sample sent by `datajud-monitor test-notify`."),
};

export const WebhookEvent = z
  .discriminatedUnion("type", [
    z.object({ ...envelope, type: z.literal("case.movement"), data: MovementEventData }),
    z.object({ ...envelope, type: z.literal("case.correction"), data: CorrectionEventData }),
    z.object({ ...envelope, type: z.literal("publication.published"), data: PublicationEventData }),
    z.object({
      ...envelope,
      type: z.literal("publication.cancelled"),
      data: CancellationEventData,
    }),
    z.object({
      ...envelope,
      type: z.literal("publication.reestimated"),
      data: ReestimateEventData,
    }),
    z.object({ ...envelope, type: z.literal("party.match"), data: PartyMatchEventData }),
    z.object({
      ...envelope,
      type: z.literal("publication.missing"),
      data: PublicationMissingEventData,
    }),
    z.object({ ...envelope, type: z.literal("case.checked"), data: CaseCheckedEventData }),
    z.object({ ...envelope, type: z.literal("operator.alert"), data: OperatorEventData }),
    z.object({
      ...envelope,
      type: z.literal("alert.acknowledged"),
      data: AcknowledgedEventData,
    }),
    z.object({ ...envelope, type: z.literal("alert.escalated"), data: EscalatedEventData }),
  ])
  .meta({
    title: `datajud-monitor webhook event, version ${WEBHOOK_EVENT_VERSION}`,
    description:
      "The body of each webhook POST. Signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature). Receivers must ignore fields they do not know: version 1 only grows.",
  });
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/**
 * The JSON Schema committed in the repository. Input mode leaves `additionalProperties` open, as
 * the contract says (fields are added within a version).
 */
export function webhookEventJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(WebhookEvent, { io: "input", target: "draft-2020-12" }) as Record<
    string,
    unknown
  >;
}
