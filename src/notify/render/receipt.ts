import { z } from "zod";
import { COURT_TIME_ZONE, wallClockDay } from "../../datajud/dates.js";
import { oneLine } from "../../text.js";
import { formatBrazilian } from "../../time/calendar-date.js";
import { dateInZone } from "../../time/zoned-time.js";
import { type Block, GAP, type ListItem, para, renderDocument } from "./document.js";
import { clocksNote, instantTime, NOT_LEGAL_ADVICE, type RenderedAlert } from "./email-kit.js";

/*
 * The daily receipt a watcher opts into (`receipt:` in watchers; docs/freshness.md): "verificado,
 * nada novo", what was checked in the last day, when, and which source was late or failing for
 * which case. In the watcher's digest when it has one, else one short e-mail. Everything is
 * computed when it is queued, so a resend is the same message.
 */

export const ReceiptCase = z.object({
  /** Formatted CNJ number. */
  caseNumber: z.string(),
  /** DataJud alias. */
  court: z.string(),
  label: z.string().nullable(),
  datajud: z.object({
    /** DataJud checks of the case in the period. */
    checks: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    /** The last check (our instant) and its outcome; null: never checked. */
    lastCheckedAt: z.string().nullable(),
    lastOutcome: z.string().nullable(),
    lastError: z.string().nullable(),
    /** The newest update of the case's records, as DataJud wrote it. */
    updatedAt: z.string().nullable(),
    /** DJEN has an intimação DataJud's record still lacks past the court's lag. */
    late: z.boolean(),
    /**
     * Since when DataJud has been silent for the court whose index holds the case while DJEN
     * publishes there (our instant; docs/freshness.md); null: it is not.
     */
    silentSince: z.string().nullable().default(null),
  }),
  /** Null: DJEN is off. */
  djen: z
    .object({
      checks: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
      lastCheckedAt: z.string().nullable(),
      /** Its last complete answer for the case number. */
      lastOkAt: z.string().nullable(),
      lastOutcome: z.string().nullable(),
      lastError: z.string().nullable(),
    })
    .nullable(),
  /** DataJud changes and DJEN publications of the case first seen in the period. */
  news: z.number().int().nonnegative(),
});
export type ReceiptCase = z.infer<typeof ReceiptCase>;

/** A watched OAB registration's DJEN checks in the period. */
export const ReceiptOab = z.object({
  /** "123456/SP" */
  registration: z.string(),
  checks: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  lastOkAt: z.string().nullable(),
  lastOutcome: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type ReceiptOab = z.infer<typeof ReceiptOab>;

export const Receipt = z.object({
  type: z.literal("receipt"),
  /** The day (YYYY-MM-DD, the schedule's zone) it stands for. */
  day: z.string(),
  /** The period: from the previous receipt's hour to when this one was made (our instants). */
  periodStart: z.string(),
  generatedAt: z.string(),
  cases: z.array(ReceiptCase),
  /** The watcher's OAB registrations asked of DJEN (none with DJEN off). */
  oab: z.array(ReceiptOab).default([]),
});
export type Receipt = z.infer<typeof Receipt>;

const SUBJECT_MAX = 200;
const ERROR_SHOWN = 160;

function caseName(c: ReceiptCase): string {
  const label = c.label === null ? "" : ` (${oneLine(c.label, 60)})`;
  return `${oneLine(c.caseNumber, 40)} · ${oneLine(c.court, 20).toUpperCase()}${label}`;
}

function casesWord(n: number): string {
  return n === 1 ? "1 processo" : `${n} processos`;
}

function failedNow(outcome: string | null): boolean {
  return outcome === "failed";
}

function djenProblems(d: {
  checks: number;
  failed: number;
  lastOutcome: string | null;
  lastError: string | null;
}): string[] {
  if (d.checks === 0) return ["DJEN não consultado no período"];
  if (failedNow(d.lastOutcome)) {
    const error = d.lastError === null ? "" : `: ${oneLine(d.lastError, ERROR_SHOWN)}`;
    return [`DJEN falhou na última consulta${error}`];
  }
  return d.failed > 0 ? [`DJEN falhou em ${d.failed} de ${d.checks} consultas`] : [];
}

/** What went wrong with a registration's DJEN checks in the period. */
export function oabProblems(o: ReceiptOab): string[] {
  return djenProblems(o);
}

function oabName(o: ReceiptOab): string {
  return `OAB ${oneLine(o.registration, 20)}`;
}

function oabChecks(o: ReceiptOab, timeZone: string): string {
  return [
    `DJEN: ${timesWord(o.checks)}`,
    o.lastOkAt === null
      ? "nenhuma resposta completa ainda"
      : `a última resposta completa em ${instantTime(o.lastOkAt, timeZone)}`,
  ].join(", ");
}

/** What went wrong with a case's sources in the period; none: both answered and are current. */
export function receiptProblems(c: ReceiptCase, timeZone = COURT_TIME_ZONE): string[] {
  const out: string[] = [];
  const error = (text: string | null) => (text === null ? "" : `: ${oneLine(text, ERROR_SHOWN)}`);
  if (c.datajud.checks === 0) out.push("DataJud não consultado no período");
  else if (failedNow(c.datajud.lastOutcome))
    out.push(`DataJud falhou na última consulta${error(c.datajud.lastError)}`);
  else if (c.datajud.failed > 0)
    out.push(`DataJud falhou em ${c.datajud.failed} de ${c.datajud.checks} consultas`);
  if (c.datajud.late)
    out.push("DataJud atrasado neste processo (o DJEN tem uma intimação que ele não mostra)");
  if (c.datajud.silentSince !== null) {
    const day = formatBrazilian(dateInZone(Date.parse(c.datajud.silentSince), timeZone));
    out.push(
      `DataJud sem atualizações do ${oneLine(c.court, 20).toUpperCase()} desde ${day}, enquanto o DJEN publica`,
    );
  }
  if (c.djen !== null) out.push(...djenProblems(c.djen));
  return out;
}

function timesWord(n: number): string {
  return n === 1 ? "1 consulta" : `${n} consultas`;
}

/** One case's checks: "DataJud: 3 consultas, a última em ...; atualizado em ...; DJEN: ...". */
function caseChecks(c: ReceiptCase, timeZone: string): string[] {
  const datajudDay = c.datajud.updatedAt === null ? null : wallClockDay(c.datajud.updatedAt);
  const datajud = [
    `DataJud: ${timesWord(c.datajud.checks)}`,
    c.datajud.lastCheckedAt === null
      ? "nunca consultado"
      : `a última em ${instantTime(c.datajud.lastCheckedAt, timeZone)}`,
    datajudDay === null
      ? "sem data de atualização"
      : `atualizado em ${formatBrazilian(datajudDay)}`,
  ].join(", ");
  const lines = [datajud];
  if (c.djen !== null) {
    lines.push(
      [
        `DJEN: ${timesWord(c.djen.checks)}`,
        c.djen.lastOkAt === null
          ? "nenhuma resposta completa ainda"
          : `a última resposta completa em ${instantTime(c.djen.lastOkAt, timeZone)}`,
      ].join(", "),
    );
  }
  return lines;
}

/** Each case and registration of the receipt: its name, its checks, what went wrong, news. */
interface Entry {
  name: string;
  checks: string[];
  problems: string[];
  news: boolean;
}

function entries(r: Receipt, timeZone: string): Entry[] {
  return [
    ...r.cases.map((c) => ({
      name: caseName(c),
      checks: caseChecks(c, timeZone),
      problems: receiptProblems(c, timeZone),
      news: c.news > 0,
    })),
    ...r.oab.map((o) => ({
      name: oabName(o),
      checks: [oabChecks(o, timeZone)],
      problems: oabProblems(o),
      news: false,
    })),
  ];
}

/** "2 processos e 1 registro da OAB". */
function watchedWords(r: Receipt): string {
  const oab = r.oab.length;
  if (oab === 0) return casesWord(r.cases.length);
  const registrations = oab === 1 ? "1 registro da OAB" : `${oab} registros da OAB`;
  return r.cases.length === 0 ? registrations : `${casesWord(r.cases.length)} e ${registrations}`;
}

/** The receipt's one line: what was checked, and whether anything was new. */
export function receiptHeadline(r: Receipt, timeZone: string): string {
  const news = r.cases.filter((c) => c.news > 0).length;
  const period = `entre ${instantTime(r.periodStart, timeZone)} e ${instantTime(r.generatedAt, timeZone)}`;
  const count = r.cases.length + r.oab.length;
  if (count === 0) return `Nenhum processo a verificar ${period}.`;
  const checked = `${watchedWords(r)} ${count === 1 ? "verificado" : "verificados"} ${period}`;
  return news === 0
    ? `Verificado, nada novo: ${checked}.`
    : `Verificado: ${checked}; ${news === 1 ? "1 processo com novidades, já enviadas" : `${news} processos com novidades, já enviadas`}.`;
}

export function renderReceiptSubject(r: Receipt): string {
  if (r.cases.length + r.oab.length === 0) {
    return `[datajud] Nenhum processo a verificar (${formatBrazilian(r.day)})`;
  }
  const news = r.cases.filter((c) => c.news > 0).length;
  const problems = entries(r, "UTC").filter((e) => e.problems.length > 0).length;
  const parts = [watchedWords(r)];
  if (news > 0) parts.push(`${news} com novidades`);
  if (problems > 0) parts.push(`${problems} com fonte atrasada ou falhando`);
  const head = news === 0 ? "Verificado, nada novo" : "Verificado";
  return oneLine(`[datajud] ${head}: ${parts.join(", ")} (${formatBrazilian(r.day)})`, SUBJECT_MAX);
}

function entryTitle(e: Entry): string {
  return `${e.name}${e.news ? " · com novidades" : ""}`;
}

/** The receipt's blocks, for its own e-mail and for a digest's section. */
export function receiptBlocks(r: Receipt, timeZone: string): Block[] {
  const all = entries(r, timeZone);
  const blocks: Block[] = [para(receiptHeadline(r, timeZone))];
  const troubled = all.filter((e) => e.problems.length > 0);
  if (troubled.length > 0) {
    const items = troubled.map(
      (e): ListItem => ({ title: [{ strong: e.name }, `: ${e.problems.join("; ")}.`] }),
    );
    blocks.push(GAP, para([{ strong: "Fontes atrasadas ou falhando:" }]), { kind: "list", items });
  }
  if (all.length > 0) {
    const items = all.map(
      (e): ListItem => ({ title: [{ strong: entryTitle(e) }], lines: e.checks }),
    );
    blocks.push(GAP, para([{ strong: "O que foi consultado:" }]), {
      kind: "list",
      ordered: true,
      items,
    });
  }
  return blocks;
}

/** The receipt alone: one short e-mail. */
export function renderReceipt(r: Receipt, timeZone: string): RenderedAlert {
  return renderDocument({
    subject: renderReceiptSubject(r),
    lang: "pt-BR",
    pageTitle: `Verificação diária de ${formatBrazilian(r.day)}`,
    blocks: [
      ...receiptBlocks(r, timeZone),
      GAP,
      para(clocksNote(timeZone), "footer"),
      para(NOT_LEGAL_ADVICE, "footer"),
    ],
  });
}
