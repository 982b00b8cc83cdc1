import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { parseCnjNumber } from "../../datajud/cnj-number.js";
import { invalidInput } from "../../datajud/errors.js";
import {
  courtFreshnessLine,
  type FreshnessStatus,
  freshnessStatus,
  LATE_NOTE_PT,
  saoPauloDay,
} from "../../policy/source-freshness.js";
import { type CaseRow, listCases } from "../../store/cases.js";
import type { Db } from "../../store/database.js";
import { freshnessInputs, instanceFreshness, listDjenGaps } from "../../store/source-freshness.js";
import { formatBrazilian } from "../../time/calendar-date.js";
import { dateNow } from "../../time/clock.js";
import { SourceFreshnessOutput } from "../history-schemas.js";
import type { MonitorDeps } from "../monitor-deps.js";
import { CNJ_NUMBER_DESCRIPTION, historyTool } from "../tool-deps.js";
import { answered } from "../tool-result.js";

const NOTES = [
  "DataJud's dates (newestUpdate, lastUpdatedAt) are the court's wall clock as DataJud wrote them, even with a Z; the monitor's own instants (lastMovedAt, movedAt, foundAt, djenLastAskedAt) are UTC.",
  "A court's lag is measured from the firm's own cases: the days from a DJEN disponibilização to the sweep that first saw DataJud record it. Fewer than 5 acts: not measured, 10 days stands in.",
];

const INPUT = {
  cnjNumber: z
    .string()
    .optional()
    .describe(`${CNJ_NUMBER_DESCRIPTION}. Optional: only this case's findings`),
};

export function registerSourceFreshness(server: McpServer, deps: MonitorDeps): void {
  server.registerTool(
    "source_freshness",
    historyTool({
      title: "How fresh DataJud and DJEN are",
      description:
        "How fresh each source is for the watched cases, measured by the monitor: per court, DataJud's newest update, its usual lag behind DJEN (median and p90 days from a DJEN disponibilização to the sweep that saw DataJud record it) and DJEN's own lag; with a case number, each instance's last DataJud update; and what one source has that the other lacks (DJEN intimações DataJud does not record yet past the court's lag, DataJud disponibilizações DJEN did not return). Read from the monitor's database, no DataJud or DJEN call.",
      input: INPUT,
      output: SourceFreshnessOutput,
    }),
    answered((args) => sourceFreshness(deps, args)),
  );
}

/** Every court's freshness, or only what concerns the case asked about. */
export function sourceFreshness(
  deps: MonitorDeps,
  { cnjNumber }: { cnjNumber?: string | undefined },
): SourceFreshnessOutput {
  const asked = cnjNumber === undefined ? null : parsedNumber(cnjNumber);
  const db = deps.database();
  const now = dateNow(deps.clock);
  const cases = listCases(db, { watchedOnly: true });
  const ofCase = new Set(cases.filter((c) => c.digits === asked?.digits).map((c) => c.id));
  const status = freshnessStatus(
    freshnessInputs(db, saoPauloDay(now.toISOString())),
    listDjenGaps(db),
    new Map(cases.map((c) => [c.id, c.number])),
    now,
  );
  return {
    courts: status.courts
      .filter(
        (c) =>
          asked === null ||
          cases.some((k) => ofCase.has(k.id) && (k.foundIn ?? k.court) === c.court),
      )
      .map((c) => ({ ...c, summary: courtFreshnessLine(c) })),
    case: asked === null ? null : caseInstances(db, asked.formatted, cases, ofCase),
    ...sourceGaps(status, (caseId) => asked === null || ofCase.has(caseId)),
    notes: freshnessNotes(asked?.formatted ?? null, ofCase.size > 0),
  };
}

function parsedNumber(cnjNumber: string): { digits: string; formatted: string } {
  const parsed = parseCnjNumber(cnjNumber);
  if (!parsed.ok) throw invalidInput(parsed.error);
  return { digits: parsed.value.digits, formatted: parsed.value.formatted };
}

/** Each instance's last DataJud update, of the watched cases of the number asked about. */
function caseInstances(
  db: Db,
  formatted: string,
  cases: readonly CaseRow[],
  ofCase: ReadonlySet<number>,
): SourceFreshnessOutput["case"] {
  const courtOf = new Map(cases.map((c) => [c.id, c.court]));
  return {
    cnjNumber: formatted,
    instances: [...ofCase].flatMap((id) =>
      instanceFreshness(db, id).map((i) => ({
        court: courtOf.get(id) ?? "?",
        instance: i.instance,
        lastUpdatedAt: i.lastUpdatedAt ?? i.indexedAt,
        movedAt: i.movedAt,
      })),
    ),
  };
}

/** What one source has that the other lacks, of the cases `keep` keeps. */
export function sourceGaps(
  status: Pick<FreshnessStatus, "dataJudLate" | "djenGaps">,
  keep: (caseId: number) => boolean,
): Pick<SourceFreshnessOutput, "dataJudLate" | "djenGaps"> {
  return {
    dataJudLate: status.dataJudLate
      .filter((n) => keep(n.caseId))
      .map((n) => ({
        cnjNumber: n.number,
        court: n.court,
        djenId: n.djenId,
        availableOn: n.availableOn,
        days: n.days,
        lateAfterDays: n.lateAfterDays,
        note: LATE_NOTE_PT,
      })),
    djenGaps: status.djenGaps
      .filter((g) => keep(g.caseId))
      .map((g) => ({
        cnjNumber: g.number,
        availableOn: g.availableOn,
        foundAt: g.foundAt,
        urgent: g.urgent,
        warning: `O DataJud registra uma intimação disponibilizada em ${formatBrazilian(g.availableOn)} que o DJEN não devolveu: confira no tribunal.`,
      })),
  };
}

/** The notes, led by one saying so when the number asked about is not watched. */
export function freshnessNotes(formatted: string | null, watched: boolean): string[] {
  return formatted !== null && !watched
    ? [`${formatted} is not a watched case: only watched cases are measured.`, ...NOTES]
    : NOTES;
}
