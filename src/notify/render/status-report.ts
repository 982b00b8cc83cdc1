import { z } from "zod";
import { successorNote } from "../../datajud/courts.js";
import { COURT_TIME_ZONE, wallClockInstant } from "../../datajud/dates.js";
import { ESTIMATE_NOTE } from "../../deadlines/publication-estimate.js";
import type { CaseAlertPolicy } from "../../policy/alert-rules.js";
import { isMuted } from "../../policy/movement-rules.js";
import type { CaseRow } from "../../store/cases.js";
import { oneLine } from "../../text.js";
import {
  type Block,
  type EmailDocument,
  GAP,
  heading,
  type ListItem,
  para,
  renderDocument,
  toned,
} from "./document.js";
import {
  ATTENTION_MARKER,
  clocksNote,
  courtTime,
  instantTime,
  type RenderedAlert,
} from "./email-kit.js";
import {
  djenCheckLine,
  djenFailing,
  djenFailureLine,
  publicationLines,
  publicationTitle,
  StatusReportDjenCheck,
  StatusReportOab,
  StatusReportPublication,
} from "./status-report-djen.js";

/**
 * The periodic status report: one e-mail per watcher listing every case they watch, with the
 * ones that need a person first (failing, gone from DataJud, or without movement for a long time).
 * The payload is stored in the outbox like an alert's, so a resend renders the same e-mail.
 */

const DAY_MS = 86_400_000;
const SUBJECT_MAX = 200;
const NAME_MAX = 80;
const ERROR_SHOWN = 300;

export const StatusReportCase = z.object({
  caseNumber: z.string(),
  court: z.string(),
  /** The index DataJud last returned the case from (TRF1 numbers can live in TRF6); absent in older payloads. */
  foundIn: z.string().nullable().default(null),
  /** The watchlist's label, else the one stored with the case. */
  label: z.string().nullable(),
  /** Alerts are off for the case now: `muted: true`, or a `muted_until` not yet past. */
  muted: z.boolean(),
  /** The `muted_until` date (YYYY-MM-DD) that mutes the case now; null when muted for good or not muted. */
  mutedUntil: z.string().nullable(),
  firstSeenAt: z.string().nullable(),
  lastCheckedAt: z.string().nullable(),
  /** A check outcome; null: never checked. A string, so a payload queued by another version still renders. */
  lastOutcome: z.string().nullable(),
  lastChangedAt: z.string().nullable(),
  /** The newest date of a stored movement: a DataJud wall clock (dates.ts), not an instant. */
  lastMovementAt: z.string().nullable(),
  lastError: z.string().nullable(),
  goneAt: z.string().nullable(),
  consecutiveFailures: z.number().int().nonnegative(),
  /** The last check failed. */
  failing: z.boolean(),
  /** No movement for at least `staleAfterDays`; never for a case not checked yet or gone. */
  stale: z.boolean(),
  /** Whole days since the last movement (or change, or first read, when no dated movement is known). */
  daysWithoutMovement: z.number().int().nonnegative().nullable(),
  /** The case number's last DJEN check; null: never asked (or DJEN off, or an older payload). */
  djen: StatusReportDjenCheck.nullable().default(null),
  /**
   * The record of watching (`proof CNJ`): DataJud and DJEN checks written in the report's period
   * and the chain's newest hash, so the mailed report is a receipt a later export must continue.
   * Null in older payloads.
   */
  record: z
    .object({ checks: z.number().int().nonnegative(), head: z.string().nullable() })
    .nullable()
    .default(null),
});
export type StatusReportCase = z.infer<typeof StatusReportCase>;

export const StatusReport = z.object({
  generatedAt: z.string(),
  staleAfterDays: z.number().int().positive(),
  cases: z.array(StatusReportCase),
  /** The watcher's OAB registrations, with their last DJEN check. */
  oab: z.array(StatusReportOab).default([]),
  /** The publications are those the monitor read since this instant (the previous report's hour). */
  periodStart: z.string().nullable().default(null),
  /**
   * DJEN publications of the watcher's cases and registrations read (or seen cancelled) in the
   * period, by date of disponibilização.
   */
  publications: z.array(StatusReportPublication).default([]),
  /** djen.enabled is false: no publication is read, no DJEN check shown (nor counted failing). */
  djenOff: z.boolean().default(false),
});
export type StatusReport = z.infer<typeof StatusReport>;

export interface StatusReportInput {
  /** The watcher's cases in watchlist order; row is undefined for a case never checked yet. */
  cases: ReadonlyArray<{
    number: string;
    court: string;
    label: string | null;
    policy: CaseAlertPolicy;
    row: CaseRow | undefined;
    lastMovementAt: string | null;
    /** The case number's last DJEN check; null or absent: never asked. */
    djen?: StatusReportDjenCheck | null;
    /** Checks in the period and the record's newest hash; absent: not known. */
    record?: { checks: number; head: string | null } | null;
  }>;
  oab?: readonly StatusReportOab[];
  periodStart?: string | null;
  publications?: readonly StatusReportPublication[];
  now: Date;
  /** A case without movement for this many days gets a reminder. */
  staleAfterDays: number;
  /** The schedule's time zone: `muted_until` is a date there. */
  timezone: string;
  /** djen.enabled is false. @default false */
  djenOff?: boolean;
}

function newest(values: ReadonlyArray<string | null>): string | null {
  let best: string | null = null;
  let bestMs = Number.NEGATIVE_INFINITY;
  for (const value of values) {
    const ms = value === null ? Number.NaN : Date.parse(value);
    if (value !== null && !Number.isNaN(ms) && ms > bestMs) {
      best = value;
      bestMs = ms;
    }
  }
  return best;
}

function nonBlank(text: string | null | undefined): string | null {
  return text === null || text === undefined || text.trim() === "" ? null : text;
}

/** Pure: everything comes from the input, the clock included. */
export function buildStatusReport(input: StatusReportInput): StatusReport {
  if (!Number.isInteger(input.staleAfterDays) || input.staleAfterDays <= 0) {
    throw new RangeError("staleAfterDays must be a positive whole number of days");
  }
  const nowMs = input.now.getTime();
  const cases = input.cases.map((c): StatusReportCase => {
    const row = c.row;
    const { muted: mutedForGood, mutedUntil } = c.policy;
    const mutedByDate = !mutedForGood && isMuted(c.policy, input.now, input.timezone);
    const goneAt = row?.goneAt ?? null;
    const checked = row !== undefined && row.lastCheckedAt !== null;
    // A movement date says the most; without one, the last change or the first read.
    const movedAt = c.lastMovementAt === null ? Number.NaN : wallClockInstant(c.lastMovementAt);
    const fallback = newest([row?.lastChangedAt ?? null, row?.firstSeenAt ?? null]);
    const sinceMs = !Number.isNaN(movedAt)
      ? movedAt
      : fallback === null
        ? Number.NaN
        : Date.parse(fallback);
    const days =
      !checked || Number.isNaN(sinceMs)
        ? null
        : Math.max(0, Math.floor((nowMs - sinceMs) / DAY_MS));
    return {
      caseNumber: c.number,
      court: c.court,
      foundIn: row?.foundIn ?? null,
      label: nonBlank(c.label) ?? nonBlank(row?.label) ?? null,
      muted: mutedForGood || mutedByDate,
      mutedUntil: mutedByDate ? mutedUntil : null,
      firstSeenAt: row?.firstSeenAt ?? null,
      lastCheckedAt: row?.lastCheckedAt ?? null,
      lastOutcome: row?.lastOutcome ?? null,
      lastChangedAt: row?.lastChangedAt ?? null,
      lastMovementAt: c.lastMovementAt,
      lastError: row?.lastError ?? null,
      goneAt,
      consecutiveFailures: row?.consecutiveFailures ?? 0,
      failing: row?.lastOutcome === "failed",
      stale: goneAt === null && days !== null && days >= input.staleAfterDays,
      daysWithoutMovement: days,
      djen: c.djen ?? null,
      record: c.record ?? null,
    };
  });
  return {
    generatedAt: input.now.toISOString(),
    staleAfterDays: input.staleAfterDays,
    cases,
    oab: [...(input.oab ?? [])],
    periodStart: input.periodStart ?? null,
    publications: [...(input.publications ?? [])],
    djenOff: input.djenOff ?? false,
  };
}

const OUTCOMES_PT: Record<string, string> = {
  baseline: "primeira consulta",
  unchanged: "sem mudança",
  changed: "mudou",
  not_found: "não encontrado",
  failed: "falhou",
};

/** Said when djen.enabled is false, so no one reads the report's silence on DJEN as "nothing". */
const DJEN_OFF_NOTE =
  "DJEN desligado neste monitor (djen.enabled: false): nenhuma publicação é consultada.";

function footer(timeZone: string, report: StatusReport): string[] {
  return [
    ...(report.djenOff ? [DJEN_OFF_NOTE] : []),
    clocksNote(timeZone),
    "Mensagem automática do datajud-monitor.",
  ];
}

function gone(c: StatusReportCase): boolean {
  return c.goneAt !== null;
}

/** A muted case gets no stale reminder: muting is one of the two answers the reminder asks for. */
function staleReminder(c: StatusReportCase): boolean {
  return c.stale && !c.muted;
}

function needsAttention(c: StatusReportCase): boolean {
  return c.failing || gone(c) || staleReminder(c) || djenFailing(c.djen);
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function processes(n: number): string {
  return count(n, "processo", "processos");
}

function name(c: StatusReportCase): string {
  const label = c.label === null ? "" : oneLine(c.label, NAME_MAX);
  return label === "" ? oneLine(c.caseNumber, NAME_MAX) : label;
}

function metaLine(c: StatusReportCase): string {
  const parts = [`Processo ${oneLine(c.caseNumber, 40)}`, oneLine(c.court, 20).toUpperCase()];
  if (c.foundIn !== null && successorNote(c.court, c.foundIn) !== null) {
    parts.push(`encontrado no índice do ${oneLine(c.foundIn, 20).toUpperCase()} no DataJud`);
  }
  if (c.muted)
    parts.push(c.mutedUntil === null ? "silenciado" : `silenciado até ${day(c.mutedUntil)}`);
  return parts.join(" · ");
}

/** "2027-01-31" -> "31/01/2027"; anything else as one clean line. */
function day(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim());
  return m === null ? oneLine(date, 40) : `${m[3]}/${m[2]}/${m[1]}`;
}

function ago(days: number): string {
  return days === 0 ? "hoje" : `há ${count(days, "dia", "dias")}`;
}

function outcomeText(c: StatusReportCase): string {
  if (c.lastOutcome === null) return "ainda não consultado";
  return OUTCOMES_PT[c.lastOutcome] ?? (oneLine(c.lastOutcome, 40) || "desconhecido");
}

function attentionLines(c: StatusReportCase, timeZone: string): string[] {
  const lines: string[] = [];
  if (c.failing) {
    const error = c.lastError === null ? "" : oneLine(c.lastError, ERROR_SHOWN);
    const checks =
      c.consecutiveFailures <= 1
        ? "Falhou na última consulta"
        : `Falhou nas últimas ${c.consecutiveFailures} consultas`;
    lines.push(
      `${checks} (${c.lastCheckedAt === null ? "sem data" : instantTime(c.lastCheckedAt, timeZone)}). Último erro: ${error === "" ? "sem detalhes" : error}`,
    );
  }
  if (c.goneAt !== null) {
    lines.push(
      `O DataJud deixou de retornar este processo em ${instantTime(c.goneAt, timeZone)}; confira o número e o tribunal no watchlist, ou retire-o se não precisar mais acompanhá-lo.`,
    );
  }
  if (staleReminder(c) && c.daysWithoutMovement !== null) {
    lines.push(
      `Sem movimentação há ${count(c.daysWithoutMovement, "dia", "dias")}; se o processo terminou ou não precisa mais ser acompanhado, retire-o do watchlist (ou use muted: true).`,
    );
  }
  if (c.djen !== null && djenFailing(c.djen)) lines.push(djenFailureLine(c.djen, timeZone));
  return lines;
}

function detailLines(c: StatusReportCase, timeZone: string): string[] {
  const lastCheck =
    c.lastCheckedAt === null
      ? `Última consulta: ${outcomeText(c)}`
      : `Última consulta: ${instantTime(c.lastCheckedAt, timeZone)} (${outcomeText(c)})`;
  const movement =
    c.lastMovementAt === null
      ? "nenhuma com data"
      : `${courtTime(c.lastMovementAt)}${c.daysWithoutMovement === null ? "" : ` (${ago(c.daysWithoutMovement)})`}`;
  const lines = [
    lastCheck,
    `Última mudança: ${c.lastChangedAt === null ? "nenhuma detectada" : instantTime(c.lastChangedAt, timeZone)}`,
    `Última movimentação: ${movement}`,
  ];
  if (c.djen !== null) lines.push(djenCheckLine(c.djen, timeZone));
  if (c.record !== null) lines.push(recordLine(c.caseNumber, c.record));
  return lines;
}

/** The receipt: how many checks the record holds for the period, and where its chain stands. */
function recordLine(caseNumber: string, record: { checks: number; head: string | null }): string {
  const checks = count(record.checks, "consulta registrada", "consultas registradas");
  const head = record.head === null ? "" : `; cadeia em ${record.head.slice(0, 16)}`;
  return `Registro de acompanhamento: ${checks} no período${head} (datajud-monitor proof ${caseNumber})`;
}

interface Counts {
  failing: number;
  gone: number;
  stale: number;
  /** Cases and registrations whose last DJEN check failed. */
  djen: number;
  /** Cases and registrations that need a person. */
  attention: number;
}

function failingOabs(report: StatusReport): StatusReportOab[] {
  return report.oab.filter((o) => djenFailing(o.djen));
}

function counts(report: StatusReport): Counts {
  const { cases } = report;
  const oabs = failingOabs(report).length;
  return {
    failing: cases.filter((c) => c.failing).length,
    gone: cases.filter(gone).length,
    stale: cases.filter(staleReminder).length,
    djen: cases.filter((c) => djenFailing(c.djen)).length + oabs,
    attention: cases.filter(needsAttention).length + oabs,
  };
}

/** The report speaks of DJEN only when DJEN was asked about something of the watcher's. */
function djenInUse(report: StatusReport): boolean {
  return (
    report.oab.length > 0 ||
    report.publications.length > 0 ||
    report.cases.some((c) => c.djen !== null)
  );
}

function publicationCount(n: number): string {
  return count(n, "publicação", "publicações");
}

/** "2 com falha, 1 fora do DataJud, 1 parado há 90+ dias"; empty when nothing needs a person. */
function attentionPhrase(report: StatusReport, n: Counts): string {
  const parts: string[] = [];
  if (n.failing > 0) parts.push(`${n.failing} com falha`);
  if (n.gone > 0) parts.push(`${n.gone} fora do DataJud`);
  if (n.stale > 0) {
    parts.push(`${count(n.stale, "parado", "parados")} há ${report.staleAfterDays}+ dias`);
  }
  if (n.djen > 0) parts.push(`${n.djen} sem resposta do DJEN`);
  return parts.join(", ");
}

/** Counts only: nothing a label or DataJud wrote reaches the subject. */
export function renderStatusReportSubject(report: StatusReport): string {
  if (empty(report)) return "[datajud] Relatório: nenhum processo acompanhado";
  const n = counts(report);
  const published =
    report.publications.length === 0
      ? ""
      : `, ${publicationCount(report.publications.length)} no DJEN`;
  const subject =
    n.attention === 0
      ? `[datajud] Relatório: ${watched(report, true)}${published}`
      : `[datajud] ${ATTENTION_MARKER} Relatório: ${watched(report, false)}, ${attentionPhrase(report, n)}${published}`;
  return oneLine(subject, SUBJECT_MAX);
}

/** Nothing to report on: no case and no registration (a watcher may follow only a registration). */
function empty(report: StatusReport): boolean {
  return report.cases.length === 0 && report.oab.length === 0;
}

/** "3 processos acompanhados"; "1 OAB acompanhada" for a watcher who follows only registrations. */
function watched(report: StatusReport, participle: boolean): string {
  const total = report.cases.length;
  if (total === 0 && report.oab.length > 0) {
    const n = report.oab.length;
    return `${n} OAB${participle ? (n === 1 ? " acompanhada" : " acompanhadas") : ""}`;
  }
  return `${processes(total)}${participle ? (total === 1 ? " acompanhado" : " acompanhados") : ""}`;
}

function title(report: StatusReport): string {
  return `Relatório de acompanhamento: ${watched(report, false)}`;
}

function generatedLine(report: StatusReport, timeZone: string): string {
  return `Gerado em ${instantTime(report.generatedAt, timeZone)}.`;
}

function attentionHeading(n: Counts): string {
  return `${ATTENTION_MARKER} Precisam de atenção (${n.attention})`;
}

function attentionSummary(report: StatusReport, n: Counts): string {
  const verb = n.attention === 1 ? "precisa" : "precisam";
  return `${ATTENTION_MARKER} ${processes(n.attention)} ${verb} de atenção: ${attentionPhrase(report, n)}.`;
}

const EMPTY = "Nenhum processo do watchlist é acompanhado por este endereço.";

function oabHeading(report: StatusReport): string {
  return `OAB acompanhadas no DJEN (${report.oab.length})`;
}

function oabLine(o: StatusReportOab, timeZone: string): string {
  const line = `OAB ${oneLine(o.registration, 20)}: ${djenCheckLine(o.djen, timeZone)}`;
  return o.djen !== null && djenFailing(o.djen)
    ? `${line}. ${djenFailureLine(o.djen, timeZone)}`
    : line;
}

function publicationsHeading(report: StatusReport): string {
  return `Publicações no DJEN no período (${report.publications.length})`;
}

function periodLine(report: StatusReport, timeZone: string): string {
  const since =
    report.periodStart === null ? "" : ` desde ${instantTime(report.periodStart, timeZone)}`;
  return report.publications.length === 0
    ? `Nenhuma publicação lida${since}.`
    : `Publicações lidas (ou canceladas) pelo monitor${since}, as de processos fora da lista primeiro.`;
}

/** Outside the watchlist first (no case alert told of them), then by date of disponibilização. */
function publicationsInOrder(report: StatusReport): StatusReportPublication[] {
  return [...report.publications].sort(
    (a, b) =>
      Number(a.inWatchlist) - Number(b.inWatchlist) ||
      a.availableOn.localeCompare(b.availableOn) ||
      a.djenId.localeCompare(b.djenId),
  );
}

/** A case as a list item: its name, where it is, then `lines`. */
function caseItem(c: StatusReportCase, lines: readonly string[]): ListItem {
  return { title: [{ strong: name(c) }], lines: [toned("muted", metaLine(c)), ...lines] };
}

function attentionBlocks(report: StatusReport, n: Counts, timeZone: string): Block[] {
  if (n.attention === 0) return [];
  const items = [
    ...report.cases.filter(needsAttention).map((c) => caseItem(c, attentionLines(c, timeZone))),
    ...failingOabs(report).map((o) => ({ title: oabLine(o, timeZone) })),
  ];
  return [
    {
      kind: "notice",
      heading: attentionHeading(n),
      blocks: [{ kind: "list", items, lineTone: "body" }],
    },
    GAP,
  ];
}

function publicationBlocks(report: StatusReport, timeZone: string): Block[] {
  if (!djenInUse(report)) return [];
  const out: Block[] = [
    heading("section", publicationsHeading(report)),
    para(periodLine(report, timeZone), "meta"),
  ];
  if (report.publications.length > 0) {
    const items = publicationsInOrder(report).map((p) => ({
      title: [{ strong: publicationTitle(p) }],
      lines: publicationLines(p),
    }));
    out.push({ kind: "list", ordered: true, items }, para(ESTIMATE_NOTE, "small"));
  }
  return [...out, GAP];
}

function statusDocument(report: StatusReport, timeZone: string): EmailDocument {
  const subject = renderStatusReportSubject(report);
  const closing = footer(timeZone, report).map((line) => para(line, "footer"));
  if (empty(report)) return { subject, lang: "pt-BR", blocks: [para(EMPTY), GAP, ...closing] };
  const n = counts(report);
  const blocks: Block[] = [
    heading("title", title(report)),
    para(generatedLine(report, timeZone), "meta"),
  ];
  if (n.attention > 0) blocks.push(para(attentionSummary(report, n), "meta"));
  blocks.push(GAP, ...attentionBlocks(report, n, timeZone), ...publicationBlocks(report, timeZone));
  if (report.cases.length > 0) {
    blocks.push(
      heading("section", `Todos os processos (${report.cases.length})`),
      {
        kind: "list",
        ordered: true,
        items: report.cases.map((c) => caseItem(c, detailLines(c, timeZone))),
        lineTone: "body",
      },
      GAP,
    );
  }
  if (report.oab.length > 0) {
    blocks.push(
      heading("section", oabHeading(report)),
      { kind: "list", items: report.oab.map((o) => ({ title: oabLine(o, timeZone) })) },
      GAP,
    );
  }
  return { subject, lang: "pt-BR", blocks: [...blocks, ...closing] };
}

/**
 * Pure: the same report always renders the same e-mail, so a resend is identical. Our instants are
 * shown in `timeZone` (the schedule's); movement dates as the court recorded them.
 */
export function renderStatusReport(
  report: StatusReport,
  timeZone = COURT_TIME_ZONE,
): RenderedAlert {
  return renderDocument(statusDocument(report, timeZone));
}
