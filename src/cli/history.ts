import { parseCnjNumber } from "../datajud/cnj-number.js";
import { successorNote } from "../datajud/courts.js";
import { formatInstant, formatWallClock } from "../datajud/dates.js";
import { instanceText, countText as plural } from "../datajud/glossary.js";
import type { Movement } from "../datajud/instance-record.js";
import { ESTIMATE_NOTE } from "../deadlines/publication-estimate.js";
import { daysLate, lateMovementIds } from "../policy/late-records.js";
import { acknowledgementsOfCase } from "../store/acknowledgements.js";
import { type CaseRow, findCasesByNumber } from "../store/cases.js";
import { listChanges } from "../store/changes.js";
import { closeDatabase, type Db } from "../store/database.js";
import { escalationFacts, escalationsOfCase } from "../store/escalations.js";
import {
  listMovementEvents,
  listMovements,
  listMovementVersions,
  type MovementEventRow,
  type MovementRow,
  type MovementVersionRow,
  movementsOfChanges,
} from "../store/movements.js";
import { publicationsOfCase } from "../store/publications.js";
import type { SummaryDisposition } from "../store/summaries.js";
import { fieldChangesOfChange, readFieldChange } from "../summarize/field-changes.js";
import { movementTitle, type ReadingContext } from "../summarize/movement-reading.js";
import { terminalText } from "../text.js";
import { isoNow } from "../time/clock.js";
import { type Command, EXIT, programOf, systemOf, UsageError } from "./command.js";
import {
  complementsText,
  exportedMovements,
  movementTable,
  readingOfCase,
} from "./export-table.js";
import {
  type ExportedPublication,
  exportedPublications,
  publicationJson,
  publicationLines,
} from "./publication-export.js";
import { loadRuntime, openRecordedDatabase } from "./runtime.js";
import { writeTable } from "./spreadsheet.js";
import { type OutputStream, readableOutput } from "./terminal.js";

export type OutputFormat = "text" | "json" | "csv" | "xlsx";

/**
 * ESTIMATE_NOTE in the CLI's language (the JSON keeps the Portuguese note the alerts carry): the
 * rules and acts quoted above stay as the law and the courts name them.
 */
const ESTIMATE_NOTE_EN =
  "Dates are estimates, never later than the law's answer: each follows its communication's rule and the court's calendar (what it considered is listed with each publication). Where a fact is unknown (a defendant in custody, a local holiday or closure not on file), the earliest date is used and what would change it is said. Always check with the court.";

/** Why a recorded change sent no alert, as the history line says it. */
const QUIET_NOTE: Record<SummaryDisposition, string> = {
  alert: "",
  ignored: "  (not mailed: only movements the watchlist ignores)",
  muted: "  (not mailed: the case was muted)",
};

/** What happened to a stored movement after it was first seen; none of it is mailed. */
const EVENT_TEXT: Record<MovementEventRow["kind"], string> = {
  // Written by versions before movement_versions kept every form.
  amended: "movement amended by DataJud (not mailed: same code and time, known movement)",
  disappeared: "movement no longer listed by DataJud (kept; not mailed)",
  reappeared: "movement listed by DataJud again (not mailed)",
};

/** A late record's mark: listed long after its own date, behind known movements; not news. */
function lateNote(m: Movement, change: { detectedAt: string; details: unknown }): string {
  if (!lateMovementIds(change.details).has(m.id)) return "";
  const days = daysLate(m, change.detectedAt);
  return `  (late record: first listed ${days === null ? "now" : `${days} days after its date`}; mailed apart, not as news)`;
}

/** How each instance of the case reads its movements (its record's class: criminal words). */
type ReadingOf = (instance: string) => ReadingContext;

/**
 * One movement: its date as the court recorded it, code, name in its instance's words (the
 * alert's: a 219 in an ação penal is "Sentença condenatória"), and which copy it is.
 */
function movementLine(m: Movement, instance: string, readingOf: ReadingOf): string {
  const date = m.dateTime ? formatWallClock(m.dateTime) : "no date";
  const copy = (m.occurrence ?? 1) > 1 ? `  (copy ${m.occurrence})` : "";
  const title = movementTitle(m, readingOf(instance));
  const same = title.toLocaleLowerCase("pt-BR") === m.name.toLocaleLowerCase("pt-BR");
  const tpu = same ? "" : ` (TPU: ${terminalText(m.name)})`;
  return `${date}  ${m.code ?? "-"}  ${terminalText(title)}${tpu}${copy}  · ${instanceText(instance)}`;
}

/** How many of the first check's movements the text shows; csv and xlsx list them all. */
const BASELINE_SHOWN = 20;

/** The movements the first check stored, as one entry at the time it ran. */
function baselineEntry(
  baseline: readonly MovementRow[],
  firstSeenAt: string | null,
  readingOf: ReadingOf,
): Array<{ at: string; lines: string[] }> {
  if (baseline.length === 0 || firstSeenAt === null) return [];
  const older = baseline.length - BASELINE_SHOWN;
  return [
    {
      at: firstSeenAt,
      lines: [
        `first check (baseline, not mailed): ${plural(baseline.length, "movement", "movements")} listed by DataJud`,
        ...baseline
          .slice(0, BASELINE_SHOWN)
          .map((m) => `    ${movementLine(m.data, m.instance, readingOf)}`),
        ...(older > 0 ? [`    … and ${older} older (--format csv lists them all)`] : []),
      ],
    },
  ];
}

/** A later form of a corrected movement, with the form it replaced. */
function versionEntry(
  version: MovementVersionRow,
  previous: MovementVersionRow | undefined,
  readingOf: ReadingOf,
): { at: string; lines: string[] } {
  const what =
    version.changeId === null
      ? `movement ${version.kind === "redated" ? "re-dated" : "completed"} by DataJud (version ${version.version}; not mailed: nothing reported before became untrue)`
      : `movement ${version.kind === "redated" ? "re-dated" : "amended"} by the court (version ${version.version}; mailed as a correction)`;
  return {
    at: version.recordedAt,
    lines: [
      what,
      `    ${movementLine(version.data, version.instance, readingOf)}${wasText(previous?.data ?? null)}`,
    ],
  };
}

/** Every later form of the case's corrected movements, each with the one before it. */
function versionEntries(
  versions: readonly MovementVersionRow[],
  readingOf: ReadingOf,
): Array<{ at: string; lines: string[] }> {
  return versions.flatMap((v, i) => {
    const previous = versions[i - 1];
    return v.version > 1 && previous?.rowId === v.rowId
      ? [versionEntry(v, previous, readingOf)]
      : [];
  });
}

function wasText(before: Movement | null): string {
  if (before === null) return "";
  const complements = complementsText(before);
  const was = `${before.name}${complements === "" ? "" : ` · ${complements}`}`;
  return `  (was: ${terminalText(was)})`;
}

/** `--format`, with `--json` kept as its short form. */
export function outputFormat(value: unknown, json: boolean): OutputFormat {
  if (value === undefined) return json ? "json" : "text";
  if (value === "text" || value === "json" || value === "csv" || value === "xlsx") return value;
  throw new UsageError(`--format must be text, json, csv or xlsx, not "${String(value)}"`);
}

/** One recorded case's history: its changes, first check, later forms and events. */
function caseHistory(db: Db, c: CaseRow) {
  const readingOf = readingOfCase(db, c.id);
  // Each movement with its title in its instance's words, the alert's (JSON: added field).
  const titled = (m: MovementRow) => ({
    ...m,
    title: movementTitle(m.data, readingOf(m.instance)),
  });
  const movements = listMovements(db, c.id, { includeDisappeared: true });
  const listed = movements.filter((m) => m.disappearedAt === null);
  const changes = listChanges(db, c.id);
  // Each change's movements as it reported them: a later correction is its own entry.
  const reported = movementsOfChanges(
    db,
    changes.map((change) => change.id),
  );
  return {
    // A function: JSON.stringify leaves it out of --format json.
    readingOf,
    number: c.number,
    court: c.court,
    foundIn: c.foundIn,
    label: c.label,
    firstSeenAt: c.firstSeenAt,
    lastCheckedAt: c.lastCheckedAt,
    changes: changes.map((change) => ({
      ...change,
      movements: reported.filter((m) => m.changeId === change.id).map(titled),
    })),
    /** What the first check stored (no change reported them), newest first. */
    baseline: movements.filter((m) => m.changeId === null).map(titled),
    /** What DataJud lists now, each repeated copy counted: DataJud's own count. */
    movementCount: listed.length,
    /** Copies DataJud stopped listing: kept, never alerted. */
    disappearedCount: movements.length - listed.length,
    events: listMovementEvents(db, c.id),
    /** Every form of each corrected movement, the first as first seen. */
    versions: listMovementVersions(db, c.id),
    /** Urgent alerts that asked to be acknowledged, and who did when; newest first. */
    acknowledgements: acknowledgementsOfCase(db, c.id).map((a) => ({
      subject: a.subject,
      queuedAt: a.createdAt,
      expiresAt: a.expiresAt,
      acknowledgedAt: a.acknowledgedAt,
      acknowledgedBy: a.acknowledgedBy,
    })),
    /** Escalation steps of its urgent alerts (docs/channels.md, Escalation), newest alert first. */
    escalations: escalationsOfCase(db, c.id).map(escalationFacts),
  };
}

/** A step: sent when it was queued, else where it stands (waiting, stopped, expired). */
function escalationEntry(
  e: CaseHistory["escalations"][number],
  tz: string,
  nowIso: string,
): { at: string; lines: string[] } {
  const who = `step ${e.step} to ${terminalText(e.to)}`;
  const subject = `    ${terminalText(e.subject)}`;
  if (e.queuedAt !== null) {
    const what =
      e.problem === null
        ? `escalated: ${who}`
        : `escalation ${who} not sent: ${terminalText(e.problem)}`;
    return { at: e.queuedAt, lines: [what, subject] };
  }
  const due = formatInstant(e.dueAt, tz);
  const state =
    e.acknowledgedAt !== null
      ? `escalation ${who} stopped: acknowledged before it was due (${due})`
      : e.expiresAt <= nowIso
        ? `escalation ${who} not sent: the alert's link expired first`
        : `escalation ${who} due ${due}`;
  return { at: e.acknowledgedAt ?? e.alertQueuedAt, lines: [state, subject] };
}

/** An urgent alert's request for acknowledgement, and the acknowledgement when it came. */
function acknowledgementEntries(
  a: CaseHistory["acknowledgements"][number],
  tz: string,
  nowIso: string,
): Array<{ at: string; lines: string[] }> {
  const state =
    a.acknowledgedAt === null
      ? `not acknowledged; the link ${a.expiresAt <= nowIso ? "expired" : "is valid until"} ${formatInstant(a.expiresAt, tz)}`
      : `acknowledged ${formatInstant(a.acknowledgedAt, tz)} by ${terminalText(a.acknowledgedBy ?? "?")}`;
  const asked = {
    at: a.queuedAt,
    lines: [`urgent alert asked to be acknowledged: ${terminalText(a.subject)}`, `    ${state}`],
  };
  if (a.acknowledgedAt === null) return [asked];
  return [
    asked,
    {
      at: a.acknowledgedAt,
      lines: [
        `acknowledged by ${terminalText(a.acknowledgedBy ?? "?")}: ${terminalText(a.subject)}`,
      ],
    },
  ];
}

type CaseHistory = ReturnType<typeof caseHistory>;

/** A recorded change: its kinds (and why it was not mailed), field changes and movements. */
function changeEntry(
  change: CaseHistory["changes"][number],
  readingOf: ReadingOf,
): { at: string; lines: string[] } {
  return {
    at: change.detectedAt,
    lines: [
      // "new movements", not the stored token new_movements (the JSON keeps the tokens).
      `${change.kinds.map((k) => k.replaceAll("_", " ")).join(", ")}${QUIET_NOTE[change.summary?.disposition ?? "alert"]}`,
      ...fieldChangesOfChange(change.details).flatMap((f) => {
        const r = readFieldChange(f);
        return [
          `    ${terminalText(r.headline)}`,
          ...(r.note === null ? [] : [`      ${terminalText(r.note)}`]),
        ];
      }),
      ...change.movements.map(
        (m) => `    ${movementLine(m.data, m.instance, readingOf)}${lateNote(m.data, change)}`,
      ),
    ],
  };
}

/**
 * A case's history as text, newest first: our instants (first seen, detected) in the schedule's
 * zone, movement dates as recorded. Court text is hostile: what a terminal would act on or hide is
 * written out (`out` is a readable output).
 */
function writeCaseText(out: OutputStream, h: CaseHistory, tz: string, nowIso: string): void {
  const { readingOf } = h;
  const gone = h.disappearedCount > 0 ? ` (and ${h.disappearedCount} no longer listed)` : "";
  out.write(`${h.number} (${h.court})${h.label ? ` ${terminalText(h.label)}` : ""}\n`);
  if (h.foundIn !== null) {
    // In the CLI's language: the alerts say it in Portuguese (indexText, successorNote).
    const moved = successorNote(h.court, h.foundIn) === null ? "" : ", which took its cases over";
    out.write(
      `  read from DataJud's ${h.foundIn.toUpperCase()} index (api_publica_${h.foundIn})${moved}\n`,
    );
  }
  const listed = plural(h.movementCount, "movement", "movements");
  out.write(
    `  first seen ${h.firstSeenAt ? formatInstant(h.firstSeenAt, tz) : "never"}, ${listed} listed by DataJud${gone}, ${plural(h.changes.length, "change", "changes")}\n`,
  );
  const entries = [
    ...baselineEntry(h.baseline, h.firstSeenAt, readingOf),
    ...h.changes.map((change) => changeEntry(change, readingOf)),
    ...h.events.map((e) => ({
      at: e.at,
      lines: [
        EVENT_TEXT[e.kind],
        `    ${movementLine(e.movement, e.instance, readingOf)}${wasText(e.before)}`,
      ],
    })),
    ...versionEntries(h.versions, readingOf),
    ...h.acknowledgements.flatMap((a) => acknowledgementEntries(a, tz, nowIso)),
    ...h.escalations.map((e) => escalationEntry(e, tz, nowIso)),
  ].sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : 0));
  for (const entry of entries) {
    const [first, ...rest] = entry.lines;
    out.write(`  ${formatInstant(entry.at, tz)}  ${first}\n`);
    for (const line of rest) out.write(`  ${line}\n`);
  }
}

function writePublicationsText(
  out: OutputStream,
  publications: readonly ExportedPublication[],
  formatted: string,
  tz: string,
): void {
  if (publications.length === 0) return;
  out.write(`DJEN publications of ${formatted} (${publications.length}), newest first\n`);
  for (const exported of publications) {
    for (const line of publicationLines(exported, tz)) out.write(`  ${line}\n`);
  }
  out.write(`${ESTIMATE_NOTE_EN}\n`);
}

export const historyCommand: Command = {
  name: "history",
  summary: "A case's recorded changes, with their new movements, and its DJEN publications",
  usage: "datajud-monitor history CNJ [--format text|json|csv|xlsx] [--json]",
  details: [
    "--format csv   every stored movement of the case, then its DJEN publications, one row each (--json = --format json)",
    "--format xlsx  the same rows as a spreadsheet, dates as date cells: redirect it, as in > history.xlsx",
    "Publication dates are estimates on the court's calendar (with calendar.closures), never later than the law's answer.",
    "Exit codes: 0 shown, 2 the case was never recorded (or bad number).",
  ],
  options: { json: { type: "boolean", default: false }, format: { type: "string" } },
  allowPositionals: true,
  async run(args, io) {
    const [input, ...extra] = args.positionals;
    if (input === undefined || extra.length > 0)
      throw new UsageError("give exactly one CNJ number");
    const parsed = parseCnjNumber(input);
    if (!parsed.ok) throw new UsageError(parsed.error);
    const format = outputFormat(args.values.format, args.values.json === true);
    const runtime = loadRuntime(io, "history");
    if (!runtime) return EXIT.usage;
    const db = openRecordedDatabase(io, runtime, "history");
    if (!db) return EXIT.usage;
    try {
      const cases = findCasesByNumber(db, parsed.value.digits);
      if (cases.length === 0) {
        io.stderr.write(
          `${programOf(io)} history: ${parsed.value.formatted} has no recorded history; is it in the watchlist?\n`,
        );
        return EXIT.usage;
      }
      const publications = [
        ...exportedPublications(
          db,
          publicationsOfCase(db, parsed.value.digits),
          cases.filter((c) => c.watched),
        ),
      ];
      const history = cases.map((c) => caseHistory(db, c));
      if (format === "json") {
        io.stdout.write(
          `${JSON.stringify({
            cases: history,
            publications: publications.map(publicationJson),
            countingNote: ESTIMATE_NOTE,
          })}\n`,
        );
        return EXIT.ok;
      }
      if (format === "csv" || format === "xlsx") {
        await writeTable(io, movementTable(exportedMovements(db, cases), publications), format, {
          timeZone: runtime.config.schedule.timezone,
          sheet: parsed.value.formatted,
        });
        return EXIT.ok;
      }
      const out = readableOutput(io.stdout);
      const tz = runtime.config.schedule.timezone;
      const nowIso = isoNow(systemOf(io).clock);
      for (const h of history) writeCaseText(out, h, tz, nowIso);
      writePublicationsText(out, publications, parsed.value.formatted, tz);
      return EXIT.ok;
    } finally {
      closeDatabase(db);
    }
  },
};
