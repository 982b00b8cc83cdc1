import { z } from "zod";
import { courtDocumentLink } from "../datajud/court-links.js";
import { parseDataJudDate } from "../datajud/dates.js";
import { invalidInput, quoteInput } from "../datajud/errors.js";
import { Movement } from "../datajud/instance-record.js";
import { StoredPublication } from "../djen/publication.js";
import { type CalendarFor, publicationFacts } from "../djen/publication-facts.js";
import { cutPlainText } from "../djen/publication-text.js";
import { lateMovementIds } from "../policy/late-records.js";
import type { ChangeRow, ChangeSummary } from "../store/changes.js";
import type { MovementRow, MovementVersionRow } from "../store/movements.js";
import type { PublicationRow } from "../store/publications.js";
import { parseStoredSummary } from "../summarize/case-summary.js";
import { type Correction, correctionsOfChange, readCorrection } from "../summarize/corrections.js";
import { fieldChangesOfChange, readFieldChange } from "../summarize/field-changes.js";
import {
  movementTitle,
  type ReadingContext,
  readingContextOf,
} from "../summarize/movement-reading.js";
import { parseIsoDate } from "../time/calendar-date.js";
import { instantInZone } from "../time/zoned-time.js";
import type {
  GetCaseHistoryOutput,
  HistoryChange,
  HistoryMovement,
  HistoryPublication,
  SummaryHeadline,
} from "./history-schemas.js";
import { movementWords } from "./movement-view.js";

/*
 * Stored history as the MCP tools show it. Rows written by older versions are read leniently:
 * what cannot be read is left out of the answer, never an error.
 */

/**
 * A stored movement's date as the tools give it: the court's wall clock, never shifted
 * (`2025-11-04T00:15:00`, or a bare day). Rows stored before wall clocks were kept end in `Z`;
 * their digits are the court's too, so they read the same.
 */
export function movementDate(row: Pick<MovementRow, "dateTime">): string | null {
  return row.dateTime === null ? null : (parseDataJudDate(row.dateTime) ?? row.dateTime);
}

/** How each instance of a case reads its movements (a criminal class in criminal words). */
export type ContextOf = (instance: string) => ReadingContext;
const PLAIN: ContextOf = () => ({});

/** Each instance read by its own record's class. */
export function contextOfRecords(records: Parameters<typeof readingContextOf>[0]): ContextOf {
  return (instance) => readingContextOf(records, instance);
}

export function historyMovement(
  row: Pick<MovementRow, "instance" | "code" | "name" | "dateTime" | "data">,
  contextOf: ContextOf = PLAIN,
): HistoryMovement {
  const data = Movement.safeParse(row.data);
  const context = contextOf(row.instance);
  const words = data.success ? movementWords(data.data, context) : null;
  return {
    instance: row.instance,
    code: row.code,
    name: row.name,
    title:
      words?.title ?? movementTitle({ code: row.code, name: row.name, complements: [] }, context),
    dateTime: movementDate(row),
    complements: words?.complementTexts ?? [],
    hint: words?.meaning ?? null,
  };
}

export function summaryHeadline(summary: ChangeSummary | null): SummaryHeadline | null {
  const parsed = summary === null ? null : parseStoredSummary(summary.content);
  if (summary === null || parsed === null) return null;
  return {
    statusCategory: parsed.statusCategory,
    status: parsed.status,
    needsLawyerAttention: parsed.needsLawyerAttention,
    attentionReasons: parsed.attentionReasons.map((r) => r.reason),
    nextExpectedStep: parsed.nextExpectedStep,
    generatedBy: summary.generatedBy,
    disposition: summary.disposition,
  };
}

const ChangeDetails = z.looseObject({
  newInstances: z.array(z.string()).catch([]),
});

function movementOf(instance: string, m: Movement, contextOf: ContextOf = PLAIN): HistoryMovement {
  const row = { instance, code: m.code, name: m.name, dateTime: m.dateTime, data: m };
  return historyMovement(row, contextOf);
}

function historyCorrection(
  c: Correction,
  contextOf: ContextOf,
): HistoryChange["corrections"][number] {
  const reading = readCorrection(c, contextOf(c.instance));
  return {
    instance: c.instance,
    kind: c.kind,
    headline: reading.headline,
    urgent: reading.urgent,
    before: movementOf(c.instance, c.before, contextOf),
    after: movementOf(c.instance, c.after, contextOf),
  };
}

/** Every form of each corrected movement, grouped by movement, most recently corrected first. */
export function historyVersions(
  versions: readonly MovementVersionRow[],
  limit = 50,
): GetCaseHistoryOutput["movementVersions"] {
  const byRow = new Map<number, MovementVersionRow[]>();
  for (const v of versions) byRow.set(v.rowId, [...(byRow.get(v.rowId) ?? []), v]);
  return [...byRow.values()]
    .sort((a, b) => (b.at(-1)?.recordedAt ?? "").localeCompare(a.at(-1)?.recordedAt ?? ""))
    .slice(0, limit)
    .map((forms) => ({
      instance: forms[0]?.instance ?? "",
      versions: forms.map((v) => ({
        version: v.version,
        kind: v.kind,
        recordedAt: v.recordedAt,
        reported: v.changeId !== null,
        movement: movementOf(v.instance, v.data),
      })),
    }));
}

/** A change with the movements it first reported (any order; shown newest first). */
export function historyChange(
  change: ChangeRow,
  movements: readonly MovementRow[],
  contextOf: ContextOf = PLAIN,
): HistoryChange {
  const movement = (m: MovementRow): HistoryMovement => historyMovement(m, contextOf);
  const details = ChangeDetails.safeParse(change.details);
  const late = lateMovementIds(change.details);
  const reported = movements.filter((m) => m.changeId === change.id).reverse();
  return {
    detectedAt: change.detectedAt,
    kinds: change.kinds,
    newInstances: details.success ? details.data.newInstances : [],
    fieldChanges: fieldChangesOfChange(change.details).map((f) => {
      const reading = readFieldChange(f);
      return {
        instance: f.instance,
        field: f.field,
        before: f.before ?? null,
        after: f.after ?? null,
        headline: reading.headline,
        beforeText: reading.before,
        afterText: reading.after,
        note: reading.note,
      };
    }),
    newMovements: reported.filter((m) => !late.has(m.movementId)).map(movement),
    lateMovements: reported.filter((m) => late.has(m.movementId)).map(movement),
    corrections: correctionsOfChange(change.details).map((c) => historyCorrection(c, contextOf)),
    summary: summaryHeadline(change.summary),
  };
}

const Cancellation = z.looseObject({ reason: z.string().nullable().catch(null) });

/** What history shows of a publication's text: enough to know what it is about. */
const HISTORY_TEXT_MAX = 1500;

/**
 * A stored publication as history shows it, its text cut at `maxTextChars`; null when its stored
 * form cannot be read.
 */
export function historyPublication(
  row: PublicationRow,
  options: { maxTextChars?: number; calendars?: CalendarFor | undefined } = {},
): HistoryPublication | null {
  const parsed = StoredPublication.safeParse(row.publication);
  if (!parsed.success) return null;
  const publication = parsed.data;
  const text = cutPlainText(row.text, { maxChars: options.maxTextChars ?? HISTORY_TEXT_MAX });
  return {
    djenId: row.djenId,
    cnjNumber: publication.caseNumberFormatted,
    // The estimate stored (what was mailed, re-estimated each sweep), else one computed now.
    ...publicationFacts(publication, {
      text: row.text,
      stored: row.estimate,
      calendars: options.calendars,
    }),
    firstSeenAt: row.firstSeenAt,
    foundBy: row.foundBy,
    disposition: row.disposition,
    cancelled:
      row.cancelledAt === null
        ? publication.active
          ? null
          : { seenAt: row.firstSeenAt, reason: publication.cancellation?.reason ?? null }
        : {
            seenAt: row.cancelledAt,
            reason: Cancellation.safeParse(row.cancellation).data?.reason ?? null,
          },
    text: text.text,
    textChars: text.totalChars,
    link: courtDocumentLink(publication.link),
    certificateUrl: publication.certificateUrl,
  };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/u;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/u;

/**
 * A `since` argument as an instant: a day is its midnight in São Paulo (the courts' clock), a
 * date-time without a zone is São Paulo time too.
 */
export function sinceInstant(text: string): string {
  const trimmed = text.trim();
  const day = parseIsoDate(trimmed.slice(0, 10));
  const match = DATE_TIME.exec(trimmed);
  let ms = Number.NaN;
  if (DAY.test(trimmed) && day !== null) ms = instantInZone(day);
  else if (match?.[1] !== undefined) ms = Date.parse(trimmed);
  else if (match && day !== null) {
    try {
      ms = instantInZone(day, trimmed.slice(11));
    } catch {
      // 25:00 or 09:61: no wall clock, said below like any other text that is not a date.
    }
  }
  if (Number.isNaN(ms)) {
    throw invalidInput(
      `since ${quoteInput(text)} is not a date; use YYYY-MM-DD (midnight in São Paulo) or an ISO date-time such as 2026-03-02T09:00:00-03:00`,
    );
  }
  return new Date(ms).toISOString();
}

/** The offset of the page after [offset, offset + limit) of `total`, or null at the end. */
export function nextOffset(offset: number, limit: number, total: number): number | null {
  return offset + limit < total ? offset + limit : null;
}
