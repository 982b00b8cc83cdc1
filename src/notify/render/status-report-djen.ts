import { z } from "zod";
import { formatCnjNumber } from "../../datajud/cnj-number.js";
import { DeadlineRule, SessionEstimate } from "../../deadlines/estimate-schema.js";
import {
  calendarsWith,
  estimatePublication,
  storedEstimate,
} from "../../deadlines/publication-estimate.js";
import type { PublicationRow } from "../../store/publications.js";
import { oneLine } from "../../text.js";
import { datesLine } from "./deadline-text.js";
import { instantTime } from "./email-kit.js";

/*
 * DJEN in the status report: the last publication check of each case number and OAB
 * registration, and the publications the monitor read in the report's period. Payload parts are
 * read leniently (a report queued by an older version has none of them).
 */

const ERROR_SHOWN = 300;

/** A DJEN source's last check, as the report keeps it. */
export const StatusReportDjenCheck = z.object({
  lastCheckedAt: z.string().nullable(),
  /** ok, failed; a string so a payload queued by another version still renders. */
  lastOutcome: z.string().nullable(),
  consecutiveFailures: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
  /** When the next look is due, for a source whose last check answered; null: due now. */
  nextCheckDueAt: z.string().nullable().default(null),
});
export type StatusReportDjenCheck = z.infer<typeof StatusReportDjenCheck>;

export const StatusReportOab = z.object({
  /** "123456/SP" */
  registration: z.string(),
  /** null: DJEN was never asked about it yet. */
  djen: StatusReportDjenCheck.nullable(),
});
export type StatusReportOab = z.infer<typeof StatusReportOab>;

export const StatusReportPublication = z.object({
  djenId: z.string(),
  /** Formatted CNJ number; null when DJEN gave none. */
  caseNumber: z.string().nullable(),
  /** The watched case's label. */
  label: z.string().nullable(),
  /** False: found through an OAB registration in a case the watchlist does not list. */
  inWatchlist: z.boolean(),
  court: z.string(),
  courtUnit: z.string().nullable(),
  kind: z.string().nullable(),
  documentType: z.string().nullable(),
  availableOn: z.string(),
  /** Estimates (deadlines/); null where the publication starts no deadline from DJEN. */
  publishedOn: z.string(),
  countingStartsOn: z.string().nullable(),
  lastDay: z.string().nullable().optional(),
  session: SessionEstimate.nullable().optional(),
  rule: DeadlineRule.optional(),
  firstSeenAt: z.string(),
  /** What was done with it: alert, baseline, ignored, muted, cancelled; null: not yet. */
  disposition: z.string().nullable(),
  /** Cancelled by the court (seen by the monitor), with DJEN's reason. */
  cancelled: z.boolean(),
  cancellationReason: z.string().nullable(),
});
export type StatusReportPublication = z.infer<typeof StatusReportPublication>;

const Reason = z.looseObject({ reason: z.string().nullable().catch(null) });

/** What of a stored publication an estimate reads, leniently (a row of any version). */
const StoredFacts = z.looseObject({
  className: z.string().nullable().catch(null),
  medium: z.string().nullable().catch(null),
  recipients: z
    .array(z.looseObject({ name: z.string(), side: z.string().nullable().catch(null) }))
    .catch([]),
  lawyers: z.array(z.unknown()).catch([]),
});

const NO_CLOSURES = calendarsWith();

/** A row the report phase has not estimated yet: its estimate on the court's calendar now. */
function estimateNow(row: PublicationRow) {
  const facts = StoredFacts.safeParse(row.publication).data;
  return estimatePublication(
    {
      court: row.court,
      kind: row.kind,
      documentType: row.documentType,
      className: facts?.className ?? null,
      medium: facts?.medium ?? null,
      availableOn: row.availableOn,
      caseNumber: row.caseNumber,
      recipients: facts?.recipients ?? [],
      lawyers: facts?.lawyers ?? [],
    },
    row.text,
    NO_CLOSURES,
  );
}
const StoredCancellation = z.looseObject({ cancellation: Reason.nullable().catch(null) });

/**
 * A stored publication as the report lists it. `labels` maps the watchlist's case digits to their
 * label (a case without one maps to null); a number absent from it is outside the watchlist.
 */
export function reportPublication(
  row: PublicationRow,
  labels: ReadonlyMap<string, string | null>,
): StatusReportPublication {
  // The estimate stored by the report phase (with calendar.closures); before it, one made now.
  const stored = storedEstimate(row.estimate);
  const estimate = stored ?? estimateNow(row);
  // Cancelled after it was read, or already cancelled when first read (disposition cancelled).
  const reason =
    Reason.safeParse(row.cancellation).data?.reason ??
    StoredCancellation.safeParse(row.publication).data?.cancellation?.reason ??
    null;
  return {
    djenId: row.djenId,
    caseNumber: row.caseNumber === null ? null : formatCnjNumber(row.caseNumber),
    label: row.caseNumber === null ? null : (labels.get(row.caseNumber) ?? null),
    inWatchlist: row.caseNumber !== null && labels.has(row.caseNumber),
    court: row.court,
    courtUnit: row.courtUnit,
    kind: row.kind,
    documentType: row.documentType,
    availableOn: row.availableOn,
    publishedOn: estimate.publishedOn,
    countingStartsOn: estimate.countingStartsOn,
    lastDay: estimate.lastDay,
    session: estimate.session,
    rule: estimate.rule,
    firstSeenAt: row.firstSeenAt,
    disposition: row.disposition,
    cancelled: row.cancelledAt !== null || row.disposition === "cancelled",
    cancellationReason: reason,
  };
}

const StoredLawyers = z.looseObject({
  lawyers: z
    .array(z.looseObject({ oabDigits: z.string().nullable(), uf: z.string().nullable() }))
    .catch([]),
});

/**
 * Whether a stored publication concerns a watched registration as its alert decided it: one of
 * its lawyers is that registration (digits and UF, as stored), or a search of it found it.
 */
export function concernsRegistration(
  row: Pick<PublicationRow, "publication" | "foundBy">,
  registration: { key: string; number: string; uf: string },
): boolean {
  if (row.foundBy.includes(`oab:${registration.key}`)) return true;
  const lawyers = StoredLawyers.safeParse(row.publication).data?.lawyers ?? [];
  return lawyers.some((l) => l.oabDigits === registration.number && l.uf === registration.uf);
}

export function djenFailing(check: StatusReportDjenCheck | null): boolean {
  return check?.lastOutcome === "failed";
}

/** "Falhou nas últimas 2 consultas ao DJEN (30/09/2025 11:00). Último erro: ..." */
export function djenFailureLine(check: StatusReportDjenCheck, timeZone: string): string {
  const error = check.lastError === null ? "" : oneLine(check.lastError, ERROR_SHOWN);
  const checks =
    check.consecutiveFailures <= 1
      ? "A última consulta ao DJEN falhou"
      : `As últimas ${check.consecutiveFailures} consultas ao DJEN falharam`;
  const when =
    check.lastCheckedAt === null ? "sem data" : instantTime(check.lastCheckedAt, timeZone);
  return `${checks} (${when}); publicações podem não ter sido lidas. Último erro: ${error === "" ? "sem detalhes" : error}`;
}

/** "Última consulta ao DJEN: 30/09/2025 11:00 (ok)". */
export function djenCheckLine(check: StatusReportDjenCheck | null, timeZone: string): string {
  if (check === null || check.lastCheckedAt === null) return "Última consulta ao DJEN: ainda não";
  const outcome =
    check.lastOutcome === "failed"
      ? `falhou${check.consecutiveFailures > 1 ? ` ${check.consecutiveFailures} vezes seguidas` : ""}`
      : check.lastOutcome === "ok"
        ? "ok"
        : oneLine(check.lastOutcome ?? "desconhecido", 40);
  const next =
    check.lastOutcome === "ok" && check.nextCheckDueAt != null
      ? `; próxima a partir de ${instantTime(check.nextCheckDueAt, timeZone)}`
      : "";
  return `Última consulta ao DJEN: ${instantTime(check.lastCheckedAt, timeZone)} (${outcome})${next}`;
}

const QUIET: Record<string, string> = {
  baseline: "sem alerta: já publicada na primeira consulta",
  ignored: "sem alerta: o watchlist ignora",
  muted: "sem alerta: processo silenciado",
  cancelled: "sem alerta: já estava cancelada",
};

/** The title of a publication's entry: kind, document type and where it belongs. */
export function publicationTitle(p: StatusReportPublication): string {
  const kind = (p.kind === null ? "" : oneLine(p.kind, 60)) || "Publicação";
  const doc = p.documentType === null ? "" : oneLine(p.documentType, 60);
  const name =
    p.label !== null && oneLine(p.label, 80) !== ""
      ? oneLine(p.label, 80)
      : p.caseNumber === null
        ? `comunicação ${oneLine(p.djenId, 30)} sem número de processo`
        : oneLine(p.caseNumber, 40);
  const outside = p.inWatchlist ? "" : " (processo fora da lista)";
  return `${kind}${doc === "" ? "" : ` · ${doc}`} · ${name}${outside}`;
}

/** The lines under a publication's title. */
export function publicationLines(p: StatusReportPublication): string[] {
  const unit = p.courtUnit === null ? "" : ` · ${oneLine(p.courtUnit, 120)}`;
  const lines = [
    `${p.caseNumber === null ? "" : `Processo ${oneLine(p.caseNumber, 40)} · `}${oneLine(p.court, 20)}${unit}`,
    datesLine(p),
  ];
  if (p.cancelled) {
    const reason = p.cancellationReason === null ? "" : oneLine(p.cancellationReason, 300);
    lines.push(`Cancelada pelo tribunal; motivo: ${reason === "" ? "não informado" : reason}`);
  } else if (p.disposition !== null && QUIET[p.disposition] !== undefined) {
    lines.push(QUIET[p.disposition] ?? "");
  }
  return lines;
}
