import { z } from "zod";
import { parseCnjNumber } from "../../datajud/cnj-number.js";
import { courtCaseLink, courtDocumentLink } from "../../datajud/court-links.js";
import type { Movement as DataJudMovement } from "../../datajud/instance-record.js";
import { daysLate } from "../../policy/late-records.js";
import { type FieldChange, readFieldChange } from "../../summarize/field-changes.js";
import {
  complementText,
  movementTitle,
  type ReadingContext,
} from "../../summarize/movement-reading.js";
import { oneLine, paragraph } from "../../text.js";
import { caseLinkOf, categoryLabel, correctionLines, newsText, readingOf } from "./alert.js";
import { AlertContent } from "./alert-content.js";
import { alertOpening, todoText } from "./alert-opening.js";
import type { CaseChecked } from "./case-checked.js";
import { type DjenGapWarning, djenGapSentence } from "./djen-gap.js";
import type { EscalationNotice } from "./escalation.js";
import { type AdminAlert, renderAdminSubject } from "./operator-mail.js";
import type { PublicationAlertContent } from "./publication-alert.js";
import type { AlertSources } from "./sources-line.js";
import {
  type CancellationEventData,
  type CorrectionEventData,
  type EventFieldChange,
  type EventLateMovement,
  type EventMovement,
  type EventSources,
  type MovementEventData,
  type PartyMatchEventData,
  type PublicationEventData,
  type ReestimateEventData,
  WEBHOOK_EVENT_VERSION,
  WebhookEvent,
} from "./webhook-event.js";

/*
 * The webhook event for each alert, built from the payload the outbox already stores for the
 * e-mail, so the event (and its id) is the same on every retry. Text from DataJud and DJEN is
 * made one clean line or paragraph (no control or bidi characters) and bounded; JSON encoding
 * does the rest. Every event is checked against the schema on the way out.
 */

const MOVEMENTS_LISTED = 20;
const TEXT_MAX = 4000;
const FIELD_MAX = 500;

export interface EventMeta {
  /** `evt_` and 32 hex digits, the same on every retry (see eventId in notify/transport). */
  id: string;
  /** A sample for `test-notify`. */
  test?: boolean;
}

function line(text: string | null, max = FIELD_MAX): string | null {
  if (text === null) return null;
  const clean = oneLine(text, max);
  return clean === "" ? null : clean;
}

function movementOf(
  instance: string,
  m: DataJudMovement,
  context: ReadingContext = {},
): EventMovement {
  return {
    instance: oneLine(instance, 20),
    code: m.code,
    name: oneLine(m.name, FIELD_MAX),
    title: oneLine(movementTitle(m, context), FIELD_MAX) || "movimento sem nome",
    dateTime: m.dateTime,
    complements: m.complements.flatMap((c) => complementText(c) ?? []),
    occurrence: m.occurrence,
  };
}

/** What the e-mail opens with, and each act's periods with their dates, for a receiver's system. */
function openingOf(content: AlertContent): Pick<MovementEventData, "opening" | "acts"> {
  const opening = alertOpening(content, newsText(content));
  return {
    opening: {
      happened: opening.happened.map((l) => oneLine(l, FIELD_MAX)),
      todo: opening.todo.map((item) => oneLine(todoText(item), FIELD_MAX)),
      calendar: opening.calendar === null ? null : oneLine(opening.calendar, TEXT_MAX),
    },
    acts: content.acts.map((a) => ({
      instance: oneLine(a.instance, 20),
      act: oneLine(a.act, FIELD_MAX),
      title: oneLine(a.title, FIELD_MAX),
      actOn: a.actOn,
      publishedOn: a.publication?.publishedOn ?? null,
      countingStartsOn: a.publication?.countingStartsOn ?? null,
      publication: a.publication === null ? null : oneLine(a.publication.what, FIELD_MAX),
      periods: a.periods.map((p) => ({
        name: oneLine(p.name, FIELD_MAX),
        days: p.days,
        counting: p.counting,
        article: oneLine(p.article, FIELD_MAX),
        countingStartsOn: p.countingStartsOn,
        lastDay: p.lastDay,
        note: p.note === null ? null : oneLine(p.note, FIELD_MAX),
      })),
      estimate: true as const,
    })),
  };
}

/** A late record: its own date, flagged, with how long after it DataJud listed it. */
function lateMovementOf(
  instance: string,
  m: DataJudMovement,
  seenAt: string,
  context: ReadingContext,
): EventLateMovement {
  return { ...movementOf(instance, m, context), late: true, daysLate: daysLate(m, seenAt) };
}

const CodeNameValue = z.object({ code: z.number().int().nullable().catch(null), name: z.string() });

/** DataJud's value of a field as the event gives it: its code and name, never its raw extras. */
function fieldValue(value: unknown): EventFieldChange["before"] {
  if (typeof value === "number") return Number.isInteger(value) ? value : null;
  const codeName = (v: unknown) => {
    const parsed = CodeNameValue.safeParse(v);
    return parsed.success
      ? { code: parsed.data.code, name: oneLine(parsed.data.name, FIELD_MAX) }
      : [];
  };
  if (Array.isArray(value)) return value.flatMap(codeName);
  const one = codeName(value);
  return Array.isArray(one) ? null : one;
}

function fieldChangeOf(change: FieldChange): EventFieldChange {
  const reading = readFieldChange(change);
  return {
    instance: oneLine(change.instance, 20),
    field: change.field,
    title: oneLine(reading.title, FIELD_MAX),
    before: fieldValue(change.before),
    after: fieldValue(change.after),
    beforeText: oneLine(reading.before, TEXT_MAX),
    afterText: oneLine(reading.after, TEXT_MAX),
    note: line(reading.note),
  };
}

/** The event's `sources` field from what the alert stored; nothing when it stored none. */
function sourcesOf(sources: AlertSources | undefined): { sources?: EventSources } {
  if (sources === undefined) return {};
  return {
    sources: {
      datajud: { updatedAt: sources.dataJudUpdatedAt },
      djen: { askedAt: sources.djenAskedAt },
      dataJudLate: sources.dataJudLate,
    },
  };
}

function envelope(meta: EventMeta): { id: string; version: 1; test: boolean } {
  return { id: meta.id, version: WEBHOOK_EVENT_VERSION, test: meta.test ?? false };
}

/** The event of one case's change (new movements, field changes). */
export function movementEvent(content: AlertContent, meta: EventMeta): WebhookEvent {
  const sorted = [...content.newMovements].sort((a, b) =>
    (b.movement.dateTime ?? "").localeCompare(a.movement.dateTime ?? ""),
  );
  const summary = content.current;
  const late = [...content.lateMovements].sort((a, b) =>
    (a.movement.dateTime ?? "").localeCompare(b.movement.dateTime ?? ""),
  );
  return WebhookEvent.parse({
    ...envelope(meta),
    type: "case.movement",
    timestamp: content.provenance.fetchedAt,
    data: {
      case: {
        number: content.caseNumber,
        court: content.court,
        label: line(content.label),
        link: caseLinkOf(content)?.url ?? null,
      },
      urgent: content.urgent,
      changeKinds: [...content.changeKinds],
      movements: sorted
        .slice(0, MOVEMENTS_LISTED)
        .map(({ instance, movement }) =>
          movementOf(instance, movement, readingOf(content, instance)),
        ),
      movementsOmitted: Math.max(0, sorted.length - MOVEMENTS_LISTED),
      ignoredMovements: content.ignoredMovements,
      lateMovements: late
        .slice(0, MOVEMENTS_LISTED)
        .map(({ instance, movement }) =>
          lateMovementOf(
            instance,
            movement,
            content.provenance.fetchedAt,
            readingOf(content, instance),
          ),
        ),
      lateMovementsOmitted: Math.max(0, late.length - MOVEMENTS_LISTED),
      fieldChanges: content.fieldChanges.map(fieldChangeOf),
      ...openingOf(content),
      status: {
        category: summary.statusCategory,
        categoryLabel: categoryLabel(summary),
        text: paragraph(summary.status, TEXT_MAX),
        needsLawyerAttention: summary.needsLawyerAttention,
        attentionReasons: summary.attentionReasons.flatMap((r) => line(r.reason) ?? []),
        nextExpectedStep: line(summary.nextExpectedStep),
        generatedBy: oneLine(summary.generatedBy, 100),
      },
      source: {
        system: "datajud",
        index: content.provenance.index,
        fetchedAt: content.provenance.fetchedAt,
        lastUpdatedAt: content.provenance.lastUpdatedAt,
      },
      ...sourcesOf(content.sources),
    },
  });
}

/** What a correction of a movement an alert reported carries (see CorrectionEventData). */
export interface CorrectionInput {
  caseNumber: string;
  court: string;
  label: string | null;
  urgent: boolean;
  correction: string;
  summary: string;
  instance: string;
  was: DataJudMovement;
  now: DataJudMovement;
  /** How the instance's class reads its movements (a criminal class in criminal words). */
  context?: ReadingContext;
  deadline?: CorrectionEventData["deadline"];
  index: string;
  fetchedAt: string;
  lastUpdatedAt: string | null;
  sources?: AlertSources | undefined;
}

function courtLink(caseNumber: string | null, court: string): string | null {
  if (caseNumber === null) return null;
  const parsed = parseCnjNumber(caseNumber);
  return parsed.ok ? (courtCaseLink(parsed.value, court)?.url ?? null) : null;
}

/** The event of a correction: a movement an earlier alert reported, amended or re-dated. */
export function correctionEvent(input: CorrectionInput, meta: EventMeta): WebhookEvent {
  return WebhookEvent.parse({
    ...envelope(meta),
    type: "case.correction",
    timestamp: input.fetchedAt,
    data: {
      case: {
        number: input.caseNumber,
        court: input.court,
        label: line(input.label),
        link: courtLink(input.caseNumber, input.court),
      },
      urgent: input.urgent,
      correction: oneLine(input.correction, 40),
      summary: oneLine(input.summary, FIELD_MAX),
      was: movementOf(input.instance, input.was, input.context),
      now: movementOf(input.instance, input.now, input.context),
      ...(input.deadline === undefined ? {} : { deadline: input.deadline }),
      source: {
        system: "datajud",
        index: input.index,
        fetchedAt: input.fetchedAt,
        lastUpdatedAt: input.lastUpdatedAt,
      },
      ...sourcesOf(input.sources),
    },
  });
}

/**
 * What a correction's row for the webhook and chat endpoints carries: the alert that reported it,
 * narrowed to that one correction (notify/outbox/messages.ts `correctionNotices`).
 */
export const CorrectionNotice = z.object({
  notice: z.literal("case.correction"),
  content: AlertContent,
});
export type CorrectionNotice = z.infer<typeof CorrectionNotice>;

const RECOUNT_NOTE =
  "Estimativa pelas datas que o DataJud registra agora, pelo calendário nacional; não conta feriados locais nem suspensões do tribunal que o monitor não conheça. Confira no tribunal.";

/** The case.correction event of a notice: what the movement was, what it is, why it matters. */
export function correctionNoticeEvent(notice: CorrectionNotice, meta: EventMeta): WebhookEvent {
  const { content } = notice;
  const [fix] = content.corrections;
  const [line] = correctionLines(content);
  if (fix === undefined || line === undefined) {
    throw new RangeError("a correction notice carries one correction");
  }
  const counting = line.reading.counting?.after ?? null;
  return correctionEvent(
    {
      caseNumber: content.caseNumber,
      court: content.court,
      label: content.label,
      urgent: line.reading.urgent !== null,
      correction: fix.kind,
      summary: line.reading.headline,
      instance: fix.instance,
      was: fix.before,
      now: fix.after,
      context: readingOf(content, fix.instance),
      ...(counting === null
        ? {}
        : {
            deadline: {
              estimate: true,
              publishedOn: counting.publishedOn,
              countingStartsOn: counting.countingStartsOn,
              rule: oneLine(counting.rule, FIELD_MAX),
              reasons: counting.reasons.map((r) => oneLine(r)),
              note: RECOUNT_NOTE,
            },
          }),
      index: content.provenance.index,
      fetchedAt: content.provenance.fetchedAt,
      lastUpdatedAt: content.provenance.lastUpdatedAt,
      sources: content.sources,
    },
    meta,
  );
}

/** The event of a DJEN publication, or of its cancellation (the correction of an earlier one). */
export function publicationEvent(content: PublicationAlertContent, meta: EventMeta): WebhookEvent {
  const data = publicationData(content);
  if (content.notice === "cancelled") {
    return WebhookEvent.parse({
      ...envelope(meta),
      type: "publication.cancelled",
      timestamp: content.fetchedAt,
      data: { ...data, cancellation: cancellationOf(content.cancellation) },
    });
  }
  if (content.notice === "re-estimated") {
    // A court closure learnt later (calendar.closures) or a corrected date moved the estimate.
    return WebhookEvent.parse({
      ...envelope(meta),
      type: "publication.reestimated",
      timestamp: content.fetchedAt,
      data: {
        ...data,
        previous: previousEstimateOf(content.previous ?? null),
        revision: content.estimateRevision ?? null,
      },
    });
  }
  const radar = content.radar;
  if (radar !== undefined && !radar.later) {
    return WebhookEvent.parse({
      ...envelope(meta),
      type: "party.match",
      timestamp: content.fetchedAt,
      data: { ...data, party: partyOf(radar) },
    });
  }
  return WebhookEvent.parse({
    ...envelope(meta),
    type: "publication.published",
    timestamp: content.fetchedAt,
    data,
  });
}

/** What every publication event carries: the case, the item, the estimate and where it came from. */
function publicationData(content: PublicationAlertContent): PublicationEventData {
  const text = paragraph(content.text, TEXT_MAX);
  return {
    case: {
      number: content.caseNumber,
      court: content.watchedCase?.court ?? content.court,
      label: line(content.watchedCase?.label ?? null),
      link:
        content.watchedCase === null
          ? null
          : courtLink(content.caseNumber, content.watchedCase.court),
    },
    watched: !content.outsideWatchlist && content.watchedCase !== null,
    registrations: [...content.registrations],
    urgent: content.urgent,
    urgency: content.urgency,
    publication: {
      kind: line(content.kind, 60),
      documentType: line(content.documentType, 60),
      className: line(content.className),
      courtUnit: line(content.courtUnit),
      availableOn: content.availableOn,
      text,
      textTruncated: content.truncationNote !== "" || text.length < content.text.trim().length,
      link: courtDocumentLink(content.link),
      certificateUrl: content.certificateUrl,
      parties: content.parties.map((p) => ({
        name: oneLine(p.name, 200),
        side: line(p.side, 10),
      })),
      lawyers: content.lawyers.map((l) => ({ name: line(l.name, 200), oab: line(l.oab, 30) })),
    },
    deadline: {
      estimate: true,
      publishedOn: content.publishedOn,
      countingStartsOn: content.countingStartsOn,
      lastDay: content.lastDay ?? null,
      rule: content.rule === undefined ? null : oneLine(content.rule.title, FIELD_MAX),
      reasons: content.countingReasons.map((r) => oneLine(r)),
      note: oneLine(content.countingNote, 1000),
    },
    source: { system: "djen", djenId: content.djenId, fetchedAt: content.fetchedAt },
    ...sourcesOf(content.sources),
  };
}

function cancellationOf(
  cancellation: PublicationAlertContent["cancellation"],
): CancellationEventData["cancellation"] {
  return {
    reason: line(cancellation?.reason ?? null),
    at: line(cancellation?.at ?? null, 40),
  };
}

function previousEstimateOf(
  previous: PublicationAlertContent["previous"] | null,
): ReestimateEventData["previous"] {
  if (previous == null) return null;
  return {
    publishedOn: previous.publishedOn,
    countingStartsOn: previous.countingStartsOn,
    lastDay: previous.lastDay,
    session: line(previous.session, 40),
  };
}

function partyOf(
  radar: NonNullable<PublicationAlertContent["radar"]>,
): PartyMatchEventData["party"] {
  return {
    name: oneLine(radar.party, 200),
    document: line(radar.document, 40),
    confidence: radar.confidence,
    reason: oneLine(radar.reason, FIELD_MAX),
    recipient: line(radar.recipient, 200),
    side: line(radar.side, 10),
    watchCommand: oneLine(radar.watchCommand, FIELD_MAX),
  };
}

/** The event of a DataJud act made available in the DJe that DJEN did not return. */
export function publicationMissingEvent(warning: DjenGapWarning, meta: EventMeta): WebhookEvent {
  return WebhookEvent.parse({
    ...envelope(meta),
    type: "publication.missing",
    timestamp: warning.foundAt,
    data: {
      case: {
        number: warning.caseNumber,
        court: warning.court,
        label: line(warning.label),
        link: warning.courtLink,
      },
      urgent: warning.urgent,
      summary: djenGapSentence(warning),
      instance: oneLine(warning.instance, 20),
      movement: oneLine(warning.movementName, FIELD_MAX),
      availableOn: warning.availableOn,
      djenAskedAt: warning.djenAskedAt,
      ...sourcesOf(warning.sources),
    },
  });
}

/** The event that a watched case was checked on a day, and how fresh each source was. */
export function caseCheckedEvent(checked: CaseChecked, meta: EventMeta): WebhookEvent {
  const check = (c: CaseChecked["datajud"]) => ({ ...c, error: line(c.error) });
  return WebhookEvent.parse({
    ...envelope(meta),
    type: "case.checked",
    timestamp: checked.datajud.checkedAt ?? checked.djen?.checkedAt,
    data: {
      case: {
        number: checked.caseNumber,
        court: checked.court,
        label: line(checked.label),
        link: courtLink(checked.caseNumber, checked.court),
      },
      day: checked.day,
      outcome: checked.outcome,
      datajud: check(checked.datajud),
      djen: checked.djen === null ? null : check(checked.djen),
      instances: checked.instances.map((i) => ({
        instance: oneLine(i.instance, 20),
        updatedAt: i.updatedAt,
      })),
      sources: sourcesOf(checked.sources).sources,
    },
  });
}

function operatorFacts(alert: AdminAlert): {
  at: string;
  since: string | null;
  lastError: string | null;
  case: { number: string; court: string; label: string | null } | null;
} {
  switch (alert.type) {
    case "case_failing":
      return {
        at: alert.lastCheckedAt ?? alert.failingSince,
        since: alert.failingSince,
        lastError: alert.lastError,
        case: { number: alert.caseNumber, court: alert.court, label: alert.label },
      };
    case "case_gone":
      return {
        at: alert.goneAt,
        since: alert.goneAt,
        lastError: null,
        case: { number: alert.caseNumber, court: alert.court, label: alert.label },
      };
    case "endpoint_disabled":
    case "endpoint_dead":
    case "endpoint_unsendable":
      return { at: alert.since, since: alert.since, lastError: alert.lastError, case: null };
    case "watchlist_invalid":
      return {
        at: alert.since,
        since: alert.since,
        lastError: alert.errors[0] ?? null,
        case: null,
      };
    case "auth_recovered":
    case "sweeps_recovered":
    case "djen_recovered":
    case "watchlist_recovered":
      return { at: alert.recoveredAt, since: alert.since, lastError: null, case: null };
    default:
      return { at: alert.since, since: alert.since, lastError: alert.lastError, case: null };
  }
}

/** The event of one operator alert (the key refused, DataJud or DJEN down, a case failing or gone). */
export function operatorEvent(alert: AdminAlert, meta: EventMeta): WebhookEvent {
  const facts = operatorFacts(alert);
  const title = renderAdminSubject([alert]).replace(/^\[datajud\]\s*/u, "");
  return WebhookEvent.parse({
    ...envelope(meta),
    type: "operator.alert",
    timestamp: facts.at,
    data: {
      alertType: alert.type,
      problem: !alert.type.endsWith("_recovered"),
      title,
      case:
        facts.case === null
          ? null
          : {
              number: facts.case.number,
              court: facts.case.court,
              label: line(facts.case.label),
              link: courtLink(facts.case.number, facts.case.court),
            },
      since: facts.since,
      lastError: line(facts.lastError),
    },
  });
}

/**
 * What an acknowledgement's row for the webhook and chat endpoints carries: the alert, its case
 * and who acknowledged it when (notify/outbox/messages.ts `acknowledgedMessage`).
 */
export const AcknowledgementNotice = z.object({
  notice: z.literal("alert.acknowledged"),
  alertKey: z.string(),
  subject: z.string(),
  queuedAt: z.string(),
  case: z
    .object({ number: z.string().nullable(), court: z.string(), label: z.string().nullable() })
    .nullable(),
  acknowledgedAt: z.string(),
  acknowledgedBy: z.string(),
  via: z.string(),
});
export type AcknowledgementNotice = z.infer<typeof AcknowledgementNotice>;

/** The alert an acknowledgement or escalation event is about, and its case. */
function alertAndCase(notice: {
  alertKey: string;
  subject: string;
  queuedAt: string;
  case: { number: string | null; court: string; label: string | null } | null;
}) {
  const c = notice.case;
  return {
    alert: {
      key: notice.alertKey,
      subject: oneLine(notice.subject, FIELD_MAX),
      queuedAt: notice.queuedAt,
    },
    case:
      c === null
        ? null
        : {
            number: c.number,
            court: c.court,
            label: line(c.label),
            link: courtLink(c.number, c.court),
          },
  };
}

/** The alert.acknowledged event of a notice. */
export function acknowledgedEvent(notice: AcknowledgementNotice, meta: EventMeta): WebhookEvent {
  return WebhookEvent.parse({
    ...envelope(meta),
    type: "alert.acknowledged",
    timestamp: notice.acknowledgedAt,
    data: {
      ...alertAndCase(notice),
      acknowledgedAt: notice.acknowledgedAt,
      acknowledgedBy: oneLine(notice.acknowledgedBy, 200),
      via: notice.via,
    },
  });
}

/** The alert.escalated event of an escalation step (notify/render/escalation.ts). */
export function escalatedEvent(notice: EscalationNotice, meta: EventMeta): WebhookEvent {
  return WebhookEvent.parse({
    ...envelope(meta),
    type: "alert.escalated",
    timestamp: notice.escalatedAt,
    data: {
      ...alertAndCase(notice),
      step: notice.step,
      steps: notice.steps,
      to: oneLine(notice.to, 200),
      firstTo: notice.firstTo.map((t) => oneLine(t, 200)),
      lastDay: notice.lastDay?.date ?? null,
      lastDayKind: notice.lastDay?.kind ?? null,
      dueBy: notice.dueBy,
    },
  });
}
