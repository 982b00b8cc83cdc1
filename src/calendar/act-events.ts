import { parseCnjNumber } from "../datajud/cnj-number.js";
import { courtCaseLink } from "../datajud/court-links.js";
import { instanceText } from "../datajud/glossary.js";
import {
  type CalendarFor,
  courtAlias,
  ESTIMATE_NOTE,
  storedEstimate,
} from "../deadlines/publication-estimate.js";
import { StoredPublication } from "../djen/publication.js";
import { calendarParagraph, capitalized, dayText } from "../notify/render/deadline-text.js";
import type { ActDeadlineRow } from "../store/act-deadlines.js";
import { ActDeadline, type DatedPeriod } from "../summarize/act-deadlines.js";
import { foldText, oneLine, paragraph } from "../text.js";
import { formatBrazilian, type IsoDate, parseIsoDate } from "../time/calendar-date.js";
import {
  type FeedEstimate,
  type FeedEvent,
  type FeedOptions,
  lastDayReminders,
  periodsOf,
  uidOf,
} from "./feed-events.js";

/*
 * The last days of the periods DataJud acts open (a sentence's apelação and embargos...), as the
 * alert dated them (store/act-deadlines.ts), as all-day events beside DJEN's estimates: one event
 * per period of an act of a case, its UID from the act's stable subject and the period's name, its
 * SEQUENCE the row's revision (a re-dated Diário moves it in place). The wording is an estimate's:
 * the act, the publication it was counted from and its rule, the court calendar's days.
 *
 * A DJEN item of the case made available the same day as the act's publication, an intimação, is
 * the same intimação: a period its text states with the length of one of the act's periods is the
 * same period, shown once, in the act's event (which names it), on the earlier of the two days:
 * the earlier date is never dropped. Pure.
 */

/** One DJEN item's period that is one of an act's: the estimate's subject and period index. */
interface SamePeriod {
  subject: string;
  index: number;
  djenId: string;
  lastDay: IsoDate;
  revision: number;
  certificateUrl: string | null;
}

interface DatedAct {
  row: ActDeadlineRow;
  act: ActDeadline;
}

function unitOf(p: DatedPeriod): "business-days" | "calendar-days" {
  return p.counting === "business" ? "business-days" : "calendar-days";
}

/** The DJEN items' periods each dated period of `act` is (same intimação, length and unit). */
function samePeriods(
  dated: DatedAct,
  estimates: readonly FeedEstimate[],
): Map<DatedPeriod, SamePeriod[]> {
  const out = new Map<DatedPeriod, SamePeriod[]>();
  const publication = dated.act.publication;
  if (publication === null) return out;
  for (const row of estimates) {
    if (row.cancelled) continue;
    const parsed = StoredPublication.safeParse(row.publication);
    const estimate = storedEstimate(row.estimate);
    if (!parsed.success || estimate === null) continue;
    if (parsed.data.caseNumber !== dated.row.digits) continue;
    if (estimate.rule.code !== "intimacao" || estimate.availableOn !== publication.availableOn) {
      continue;
    }
    periodsOf(row, estimate).forEach(({ lastDay, period }, index) => {
      if (period === null) return;
      for (const p of dated.act.periods) {
        if (p.lastDay === null || p.days !== period.amount || unitOf(p) !== period.unit) continue;
        const list = out.get(p) ?? [];
        list.push({
          subject: row.subject,
          index,
          djenId: row.djenId,
          lastDay,
          revision: row.revision,
          certificateUrl: parsed.data.certificateUrl,
        });
        out.set(p, list);
        return;
      }
    });
  }
  return out;
}

function lengthText(p: DatedPeriod): string {
  if (p.days === null) return "";
  if (p.days === 1) return p.counting === "business" ? "1 dia útil" : "1 dia corrido";
  return `${p.days} ${p.counting === "business" ? "dias úteis" : "dias corridos"}`;
}

function whoOf(row: ActDeadlineRow): string {
  const label = row.label === null ? null : oneLine(row.label, 80);
  return [label, row.number].filter((t): t is string => t !== null && t !== "").join(" · ");
}

function descriptionOf(
  dated: DatedAct,
  p: DatedPeriod & { lastDay: IsoDate },
  same: readonly SamePeriod[],
  shown: IsoDate,
): string {
  const { row, act } = dated;
  const on = act.actOn === null ? "sem data" : formatBrazilian(act.actOn);
  const lines = [
    `Último dia do prazo: ${dayText(shown)} (ESTIMATIVA; confira no tribunal).`,
    `Processo: ${whoOf(row)}`,
    `Tribunal: ${oneLine(row.court, 20)} · ${oneLine(instanceText(act.instance), 80)}`,
    `Ato: ${capitalized(oneLine(act.act, 80))} (${oneLine(act.title, 160)}) de ${on}, segundo o DataJud.`,
    `Prazo: ${oneLine(p.name, 120)} (${lengthText(p)}; ${oneLine(p.article, 300)})${p.note === null ? "" : `; ${oneLine(p.note, 300)}`}.`,
  ];
  if (row.revision > 1) lines.push("Data revista: a data anterior deste prazo não vale mais.");
  const publication = act.publication;
  if (publication !== null && publication.countingStartsOn !== null) {
    lines.push(
      `Publicação considerada feita em ${dayText(publication.publishedOn)} (${oneLine(publication.what, 200)}); o prazo conta de ${dayText(publication.countingStartsOn)}. Regra: ${oneLine(publication.rule, 600)}.`,
    );
  }
  lines.push(...act.notes.map((n) => oneLine(n, 600)));
  for (const s of same) {
    const day =
      s.lastDay === p.lastDay
        ? "no mesmo dia"
        : `em ${dayText(s.lastDay)}, e pelo DataJud em ${dayText(p.lastDay)}: vale a mais cedo, a deste evento`;
    lines.push(
      `A mesma intimação está no DJEN (publicação ${s.djenId}): o prazo do texto termina ${day}.`,
    );
    if (s.certificateUrl !== null) lines.push(`Certidão de publicação (DJEN): ${s.certificateUrl}`);
  }
  const link = caseLinkOf(row);
  if (link !== null) lines.push(`Processo no tribunal (${link.system}): ${link.url}`);
  const calendar = calendarParagraph([
    { skippedDays: act.skippedDays, considered: act.considered },
  ]);
  if (calendar !== null) lines.push(calendar);
  lines.push(ESTIMATE_NOTE);
  return paragraph(lines.join("\n"), 4000);
}

function caseLinkOf(row: ActDeadlineRow): { system: string; url: string } | null {
  const number = parseCnjNumber(row.digits);
  return number.ok ? courtCaseLink(number.value, courtAlias(row.court)) : null;
}

function periodKey(name: string): string {
  return foldText(name).replace(/[^a-z0-9]+/gu, "-");
}

/** The acts' events, and which DJEN estimates' periods they show (FeedOptions.covered). */
export function actEvents(
  rows: readonly ActDeadlineRow[],
  estimates: readonly FeedEstimate[],
  options: Pick<
    FeedOptions,
    "since" | "until" | "reminderBusinessDays" | "reminderTime" | "calendars"
  >,
): { events: FeedEvent[]; covered: (subject: string, index: number) => boolean } {
  const covered = new Set<string>();
  const events = rows.flatMap((row) => {
    const parsed = ActDeadline.safeParse(row.act);
    if (!parsed.success) return [];
    const dated: DatedAct = { row, act: parsed.data };
    const same = samePeriods(dated, estimates);
    const calendar: ReturnType<CalendarFor> = options.calendars({
      court: courtAlias(row.court),
      municipality: row.seat ?? undefined,
    });
    return dated.act.periods.flatMap((p): FeedEvent[] => {
      const lastDay = p.lastDay as IsoDate | null;
      if (lastDay === null || parseIsoDate(lastDay) === null) return [];
      const folded = same.get(p) ?? [];
      // One event for the period, on the earlier of the act's day and the DJEN item's.
      const shown = [lastDay, ...folded.map((s) => s.lastDay)].sort()[0] ?? lastDay;
      if (options.since !== null && shown < options.since) return [];
      if (options.until !== null && shown > options.until) return [];
      for (const s of folded) covered.add(`${s.subject}|${s.index}`);
      const who = whoOf(row);
      const title = `Último dia do prazo (${p.name}, ${lengthText(p)}), estimativa: ${who}`;
      return [
        {
          uid: uidOf(row.subject, periodKey(p.name)),
          // Either date moving moves the event.
          sequence: folded.reduce((n, s) => n + s.revision - 1, row.revision - 1),
          cancelled: false,
          when: { kind: "all-day", date: shown, lastDate: null },
          summary: oneLine(title, 200),
          description: descriptionOf(dated, { ...p, lastDay }, folded, shown),
          location: null,
          url:
            folded.find((s) => s.certificateUrl !== null)?.certificateUrl ??
            caseLinkOf(row)?.url ??
            null,
          busy: false,
          reminders: lastDayReminders(shown, { calendar, who }, options),
        },
      ];
    });
  });
  return { events, covered: (subject, index) => covered.has(`${subject}|${index}`) };
}
