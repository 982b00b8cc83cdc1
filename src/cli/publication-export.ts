import { formatInstant } from "../datajud/dates.js";
import { availableOnAsSent } from "../djen/publication.js";
import { RawItem } from "../djen/raw-schemas.js";
import type { HistoryPublication } from "../mcp/history-schemas.js";
import { historyPublication } from "../mcp/history-view.js";
import type { CaseRow } from "../store/cases.js";
import type { Db } from "../store/database.js";
import { type PublicationRow, publicationRaw } from "../store/publications.js";
import { formatBrazilian } from "../time/calendar-date.js";

/** A stored DJEN publication as `history` and `export` write it: whole text, with its case. */
export interface ExportedPublication {
  /** The watched case's label, when its number is watched. */
  label: string | null;
  /** Found through an OAB registration in a case the watchlist does not list: false. */
  inWatchlist: boolean;
  /** DJEN's date of disponibilização exactly as it sent it ("2025-09-29", "29/09/2025"...). */
  availableOnAsSent: string | null;
  publication: HistoryPublication;
}

/** Exports keep the whole text; a text longer than this is not a publication. */
const WHOLE_TEXT = Number.MAX_SAFE_INTEGER;

/**
 * The rows that can be read (one whose stored form cannot be read is left out, as history does),
 * with what the watched cases say of them, made one at a time as they are read.
 */
export function* exportedPublications(
  db: Db,
  rows: Iterable<PublicationRow>,
  watched: readonly CaseRow[],
): Generator<ExportedPublication> {
  const labels = new Map<string, string | null>();
  for (const c of watched) labels.set(c.digits, labels.get(c.digits) ?? c.label);
  for (const row of rows) {
    const publication = historyPublication(row, { maxTextChars: WHOLE_TEXT });
    if (publication === null) continue;
    const raw = RawItem.safeParse(publicationRaw(db, row.id));
    const inWatchlist = row.caseNumber !== null && labels.has(row.caseNumber);
    yield {
      label: row.caseNumber === null ? null : (labels.get(row.caseNumber) ?? null),
      inWatchlist,
      availableOnAsSent: raw.success ? availableOnAsSent(raw.data) : null,
      publication,
    };
  }
}

/** The JSON form: the view with the case's label and DJEN's date as sent beside it. */
export function publicationJson(
  exported: ExportedPublication,
): HistoryPublication & Omit<ExportedPublication, "publication"> {
  const { publication, ...rest } = exported;
  return { ...publication, ...rest };
}

/** Why a publication sent no alert, as the history line says it. */
const QUIET_NOTE: Record<NonNullable<HistoryPublication["disposition"]>, string> = {
  alert: "",
  baseline: "not mailed: already published at DJEN's first check (baseline)",
  ignored: "not mailed: the watchlist ignores it",
  muted: "not mailed: the case was muted",
  cancelled: "not mailed: cancelled before it was reported",
};

// C0/C1 controls (terminal escape sequences, line breaks) and bidi overrides.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/gu;

/** DJEN's words on one terminal line. */
function oneLine(text: string | null): string {
  return (text ?? "").replace(CONTROL, " ").trim();
}

/**
 * A publication in `monitor history`: its date of disponibilização as DJEN gave it (a calendar
 * day), what it is, where from, the estimated dates, and whether it was mailed or cancelled.
 * Our own instants (read, cancelled) in `timeZone`.
 */
export function publicationLines(exported: ExportedPublication, timeZone: string): string[] {
  const p = exported.publication;
  const what = [p.kind ?? "Publicação", p.documentType, `${p.court} ${p.courtUnit ?? ""}`]
    .map(oneLine)
    .filter((part) => part !== "")
    .join(" · ");
  const outside = exported.inWatchlist ? "" : ", case outside the watchlist";
  const lines = [
    `${formatBrazilian(p.availableOn)}  ${what}  (DJEN ${p.djenId}, read ${formatInstant(p.firstSeenAt, timeZone)}${outside})`,
    `  ${[
      `counts as published ${formatBrazilian(p.publishedOn)}`,
      p.countingStartsOn === null
        ? "starts no deadline from DJEN"
        : `deadline counts from ${formatBrazilian(p.countingStartsOn)}`,
      p.lastDay === null ? null : `last day ${formatBrazilian(p.lastDay)}`,
      p.session === null
        ? null
        : `${p.session.hearing === true ? "hearing" : "session"} ${formatBrazilian(p.session.date)}${p.session.time === null ? "" : ` ${p.session.time}`}`,
    ]
      .filter((part) => part !== null)
      .join(", ")} (estimates)`,
    `  rule: ${oneLine(p.rule.title)}`,
  ];
  if (p.countingReasons.length > 0) {
    lines.push(`  days skipped: ${p.countingReasons.map(oneLine).join("; ")}`);
  }
  // What the court's calendar considered and what it does not know (Portuguese, as the courts
  // and laws name them): the line the history footer promises with each publication.
  if (p.deadline.considered !== "")
    lines.push(`  court calendar: ${oneLine(p.deadline.considered)}`);
  if (p.cancelled !== null) {
    const reason = oneLine(p.cancelled.reason);
    lines.push(
      `  cancelled (seen ${formatInstant(p.cancelled.seenAt, timeZone)})${reason === "" ? "" : `: ${reason}`}`,
    );
  }
  const quiet = p.disposition === null ? "not reported yet" : QUIET_NOTE[p.disposition];
  if (quiet !== "") lines.push(`  ${quiet}`);
  return lines;
}
